// Tests that a parameter's own update settings reach the servers: the ops
// openks-append-optimizer emits for them (optimize role) run in each
// block's update region, after the averaging, on the block. fc_w is
// Paddle's TestL2Decay weight (L2 decay and a clip by value); fc_b has an
// L1 decay, a learning-rate scale and a clip by norm, which it may have as
// it stays whole. A parameter clipped by norm and split into blocks is
// clipped by the norm its servers share in sync mode, refused in async
// modes (no server sees a trainer's whole gradient), and clipped on the
// trainers in GEO mode, where the optimizer stays.
// RUN: split-file %s %t
// RUN: openks-opt %t/settings.mlir --pass-pipeline='builtin.module(openks-append-optimizer{lr=0.1}, openks-configure-job{pservers=127.0.0.1:6174,127.0.0.1:6175 trainers=2}, openks-slice-variables, openks-dispatch, openks-build-servers)' | FileCheck %s
// RUN: openks-opt %t/settings.mlir --pass-pipeline='builtin.module(openks-append-optimizer{lr=0.1}, openks-configure-job{pservers=127.0.0.1:6174,127.0.0.1:6175 trainers=2 mode=async}, openks-slice-variables, openks-dispatch, openks-build-servers)' | FileCheck %s --check-prefix=ASYNC
// RUN: openks-opt %t/sliced-norm.mlir --pass-pipeline='builtin.module(openks-append-optimizer, openks-configure-job{pservers=127.0.0.1:6174,127.0.0.1:6175 trainers=2}, openks-slice-variables, openks-dispatch, openks-build-servers)' | FileCheck %s --check-prefix=SLICED
// RUN: not openks-opt %t/sliced-norm.mlir --pass-pipeline='builtin.module(openks-append-optimizer, openks-configure-job{pservers=127.0.0.1:6174,127.0.0.1:6175 trainers=2 mode=half-async}, openks-slice-variables, openks-dispatch, openks-build-servers)' 2>&1 | FileCheck %s --check-prefix=SLICED-ASYNC
// RUN: openks-opt %t/sliced-norm.mlir --pass-pipeline='builtin.module(openks-append-optimizer, openks-configure-job{pservers=127.0.0.1:6174,127.0.0.1:6175 trainers=2 min-block-size=500001}, openks-slice-variables, openks-dispatch, openks-build-servers)' | FileCheck %s --check-prefix=WHOLE
// RUN: openks-opt %t/sliced-norm.mlir --pass-pipeline='builtin.module(openks-append-optimizer, openks-configure-job{pservers=127.0.0.1:6174,127.0.0.1:6175 trainers=2 mode=geo}, openks-slice-variables, openks-dispatch, openks-build-servers, openks-insert-send-recv)' | FileCheck %s --check-prefix=GEO

// CHECK-LABEL: ps.server @ps0 endpoint "127.0.0.1:6174" fan_in 2 mode sync {
// CHECK:       ps.update @fc_b on grad (%[[G:.*]]: tensor<1000xf32>) {
// CHECK-NEXT:    %[[AVG:.*]] = train.scale %[[G]] by 5.000000e-01
// CHECK-NEXT:    %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT:    %[[C:.*]] = train.clip_by_norm %[[AVG]] max_norm 1.000000e+00 {train.role = #train.role<optimize>} : tensor<1000xf32>
// CHECK-NEXT:    %[[B:.*]] = train.read @fc_b {train.role = #train.role<optimize>} : tensor<1000xf32>
// CHECK-NEXT:    %[[S:.*]] = train.sign %[[B]]
// CHECK-NEXT:    %[[D:.*]] = train.scale %[[S]] by 1.000000e-03
// CHECK-NEXT:    %[[R:.*]] = train.add %[[C]], %[[D]]
// CHECK-NEXT:    %[[BLR:.*]] = train.scale %[[LR]] by 2.000000e+00 {train.role = #train.role<optimize>} : tensor<f32>
// CHECK-NEXT:    train.sgd @fc_b, %[[R]], %[[BLR]]
// CHECK-NEXT: {{^    }$}}
// CHECK-NEXT:  ps.update @fc_w.block1 on grad (%[[WG:.*]]: tensor<500x1000xf32>) {
// CHECK-NEXT:    %[[WAVG:.*]] = train.scale %[[WG]] by 5.000000e-01
// CHECK-NEXT:    %[[WLR:.*]] = train.read @learning_rate
// CHECK-NEXT:    %[[WC:.*]] = train.clip %[[WAVG]] min -1.000000e-01 max 1.000000e-01 {train.role = #train.role<optimize>} : tensor<500x1000xf32>
// CHECK-NEXT:    %[[W:.*]] = train.read @fc_w.block1 {train.role = #train.role<optimize>} : tensor<500x1000xf32>
// CHECK-NEXT:    %[[WD:.*]] = train.scale %[[W]] by 1.000000e-03 {train.role = #train.role<optimize>} : tensor<500x1000xf32>
// CHECK-NEXT:    %[[WR:.*]] = train.add %[[WC]], %[[WD]] {train.role = #train.role<optimize>} : (tensor<500x1000xf32>, tensor<500x1000xf32>) -> tensor<500x1000xf32>
// CHECK-NEXT:    train.sgd @fc_w.block1, %[[WR]], %[[WLR]]
// CHECK-LABEL: ps.server @ps1
// CHECK:       ps.update @fc_w.block0 on grad
// CHECK:         train.clip %{{.*}} min -1.000000e-01 max 1.000000e-01 {{.*}} : tensor<500x1000xf32>
// CHECK-NEXT:    train.read @fc_w.block0
// CHECK:         train.sgd @fc_w.block0

// Async: the same ops on each trainer's gradient, without the averaging.
// ASYNC:      ps.update @fc_w.block1 on grad (%[[G:.*]]: tensor<500x1000xf32>) {
// ASYNC-NEXT:   train.read @learning_rate
// ASYNC-NEXT:   train.clip %[[G]] min -1.000000e-01 max 1.000000e-01

// SLICED-LABEL: ps.server @ps0
// SLICED:       ps.norm @"fc_w@NORM"
// SLICED:       ps.update @fc_w.block0 on grad (%[[G:.*]]: tensor<500x1000xf32>) {
// SLICED-NEXT:    %[[AVG:.*]] = train.scale %[[G]] by 5.000000e-01
// SLICED-NEXT:    %[[LR:.*]] = train.read @learning_rate
// SLICED-NEXT:    %[[C:.*]] = ps.clip_by_global_norm %[[AVG]] norm @"fc_w@NORM" max_norm 1.000000e+00 : tensor<500x1000xf32>
// SLICED-NEXT:    train.sgd @fc_w.block0, %[[C]], %[[LR]]
// SLICED-LABEL: ps.server @ps1
// SLICED:       ps.norm @"fc_w@NORM"
// SLICED:       ps.clip_by_global_norm %{{.*}} norm @"fc_w@NORM"
// SLICED-NOT:   train.clip_by_norm

// SLICED-ASYNC: sliced-norm.mlir:2:3: error: openks-build-servers: @fc_w is clipped by its norm on the servers, but is split into 2 blocks, and in half_async mode a server sees only its block of a trainer's gradient; clip it by value, train in sync mode, or keep it whole with slice-var-up=false or a min-block-size of at least 500001

// WHOLE: ps.update @fc_w on grad (%{{.*}}: tensor<1000x1000xf32>) {
// WHOLE:   train.clip_by_norm %{{.*}} max_norm 1.000000e+00 {{.*}} : tensor<1000x1000xf32>

// GEO-LABEL: ps.worker @p
// GEO:       train.clip_by_norm %{{.*}} max_norm 1.000000e+00 {{.*}} : tensor<1000x1000xf32>
// GEO:       train.sgd @fc_w
// GEO-LABEL: ps.server @ps0
// GEO-NOT:   clip_by_norm

//--- settings.mlir
train.program @p {
  train.param @fc_b : tensor<1000xf32> init #train.constant<0.0> lr_scale 2.0 l1_decay 0.001 clip_norm 1.0
  train.param @fc_w : tensor<1000x1000xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 1> l2_decay 0.001 clip_max 0.1
  train.step @step(%db: tensor<1000xf32>, %dw: tensor<1000x1000xf32>) {
    train.param_grad @fc_b, %db : tensor<1000xf32>
    train.param_grad @fc_w, %dw : tensor<1000x1000xf32>
    train.yield
  }
}

//--- sliced-norm.mlir
train.program @p {
  train.param @fc_w : tensor<1000x1000xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 1> clip_norm 1.0
  train.step @step(%dw: tensor<1000x1000xf32>) {
    train.param_grad @fc_w, %dw : tensor<1000x1000xf32>
    train.yield
  }
}
