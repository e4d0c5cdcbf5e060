// Tests openks-transpile end to end on the minimized MLP example: the
// placement of the IR sketch (fc1.b -> :6170, fc1.w.block0 -> :6171,
// fc1.w.block1 -> :6170, fc2.b -> :6171, fc2.w -> :6170), one module with
// the worker and both servers, and the placement report.
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2})' | FileCheck %s
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=adam lr=0.001}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2}, openks-ps-report)' -o /dev/null | FileCheck %s --check-prefix=REPORT
// RUN: not openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize, openks-transpile{trainers=2})' 2>&1 | FileCheck %s --check-prefix=NOSERVERS
// RUN: not openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:1})' 2>&1 | FileCheck %s --check-prefix=NOTMINIMIZED

// CHECK: module attributes {ps.job = #ps.job<mode = sync, trainers = 2,
// CHECK-LABEL: ps.worker @mlp {
// CHECK:       ps.send %{{.*}} to "127.0.0.1:6171" as "fc2.b@GRAD"
// CHECK:       ps.send %{{.*}} to "127.0.0.1:6170" as "fc2.w@GRAD"
// CHECK:       ps.send %{{.*}} to "127.0.0.1:6170" as "fc1.b@GRAD"
// CHECK:       ps.send %{{.*}} to "127.0.0.1:6171" as "fc1.w.block0@GRAD"
// CHECK:       ps.send %{{.*}} to "127.0.0.1:6170" as "fc1.w.block1@GRAD"
// CHECK:       ps.send_barrier
// CHECK:       ps.fetch_barrier
// CHECK:       train.step @startup
// CHECK-LABEL: ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
// CHECK-DAG:   ps.block @fc1.b :
// CHECK-DAG:   ps.block @fc1.w.block1 : tensor<392x256xf32> of @fc1.w : tensor<784x256xf32> rows [392, 784)
// CHECK-DAG:   ps.block @fc2.w :
// CHECK-DAG:   ps.block @learning_rate :
// CHECK-LABEL: ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
// CHECK-DAG:   ps.block @fc1.w.block0 : tensor<392x256xf32> of @fc1.w : tensor<784x256xf32> rows [0, 392)
// CHECK-DAG:   ps.block @fc2.b :

// Bytes: @ps0 holds fc1.b (256), fc1.w.block1 (392 x 256) and fc2.w
// (256 x 10) with two f32 moments each, a beta-power pair per parameter and
// the learning rate; @ps1 holds fc1.w.block0 and fc2.b alike.
// REPORT:      server  endpoint  blocks  bytes
// REPORT-NEXT: @ps0  127.0.0.1:6170  16  1238044
// REPORT-NEXT: @ps1  127.0.0.1:6171  11  1204364
// REPORT-NEXT: imbalance (max / mean): 1.014

// NOSERVERS: error: openks-configure-job: server endpoints must not be empty
// NOTMINIMIZED: error: openks-slice-variables: no optimizer ops to distribute; run openks-minimize first
