// Tests where openks-transpile puts a global-norm clip (openks-minimize's
// clip-global-norm). In sync mode single-process training clips the
// batch's gradient, and the averaged gradient is only whole across the
// servers: each server declares the shared norm, its update regions clip
// the averaged block gradient by it, and the worker sends its gradients
// unclipped and reduces the norm between the send barrier and the
// receives. In async and GEO mode each trainer's gradient is a step of its
// own, and the worker clips it before sending (async) or applying it
// (GEO), as Paddle does.
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1 clip-global-norm=5.0}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2})' | FileCheck %s
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1 clip-global-norm=5.0}, openks-transpile{pservers=127.0.0.1:6170 trainers=1})' | FileCheck %s --check-prefix=ONE
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1 clip-global-norm=5.0}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 mode=async})' | FileCheck %s --check-prefix=ASYNC
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1 clip-global-norm=5.0}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 mode=geo})' | FileCheck %s --check-prefix=GEO

// CHECK-LABEL: ps.worker @mlp main @step startup @startup {
// CHECK-NOT:   train.clip_by_global_norm
// CHECK:       ps.send grad %{{.*}} to @ps1::@fc2.b
// CHECK:       ps.send_barrier [@ps0, @ps1]
// CHECK-NEXT:  ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
// CHECK-NEXT:  ps.recv
// CHECK:       ps.fetch_barrier [@ps0, @ps1]
// CHECK-LABEL: train.step @startup
// CHECK-LABEL: ps.server @ps0
// CHECK:       ps.block @fc2.w
// CHECK-NEXT:  ps.norm @"@GLOBAL_NORM@"
// CHECK-NEXT:  ps.update @fc1.b on grad (%[[G:.*]]: tensor<256xf32>) {
// CHECK-NEXT:    %[[A:.*]] = train.scale %[[G]] by 5.000000e-01
// CHECK-NEXT:    %[[C:.*]] = ps.clip_by_global_norm %[[A]] norm @"@GLOBAL_NORM@" max_norm 5.000000e+00 : tensor<256xf32>
// CHECK-NEXT:    %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT:    train.sgd @fc1.b, %[[C]], %[[LR]]
// CHECK:       ps.update @fc1.w.block1 on grad
// CHECK:         ps.clip_by_global_norm
// CHECK:       ps.update @fc2.w on grad
// CHECK:         ps.clip_by_global_norm
// CHECK-LABEL: ps.server @ps1
// CHECK:       ps.norm @"@GLOBAL_NORM@"
// CHECK:       ps.update @fc1.w.block0 on grad
// CHECK:         ps.clip_by_global_norm
// CHECK:       ps.update @fc2.b on grad
// CHECK:         ps.clip_by_global_norm

// One trainer: no averaging, the same clip.
// ONE:       ps.send_barrier [@ps0]
// ONE-NEXT:  ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0]
// ONE:       ps.update @fc1.b on grad (%[[G:.*]]: tensor<256xf32>) {
// ONE-NEXT:    ps.clip_by_global_norm %[[G]] norm @"@GLOBAL_NORM@"

// ASYNC-LABEL: ps.worker @mlp
// ASYNC:       %[[C:.*]]:4 = train.clip_by_global_norm
// ASYNC-NEXT:  ps.send grad %[[C]]#0 to @ps0::@fc1.b
// ASYNC-NOT:   ps.reduce_norm
// ASYNC-NOT:   ps.norm
// ASYNC-NOT:   ps.clip_by_global_norm

// GEO-LABEL: ps.worker @mlp
// GEO:       train.clip_by_global_norm
// GEO-NOT:   ps.reduce_norm
// GEO-NOT:   ps.norm
