// Tests openks-transpile end to end on the minimized MLP example: the
// placement of the IR sketch (fc1.b -> :6170, fc1.w.block0 -> :6171,
// fc1.w.block1 -> :6170, fc2.b -> :6171, fc2.w -> :6170), one module with
// the worker and both servers, and the placement report, which goes to
// standard error (or a file) and leaves the IR on standard output for the
// next tool.
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2})' | FileCheck %s
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=adam lr=0.001}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2}, openks-ps-report)' -o /dev/null 2>&1 | FileCheck %s --check-prefix=REPORT
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=adam lr=0.001}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2}, openks-ps-report)' 2>/dev/null | openks-opt - | FileCheck %s --check-prefix=PIPED
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{optimizer=adam lr=0.001}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2}, openks-ps-report{output-file=%t.report})' -o /dev/null 2>&1 | count 0
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.report
// RUN: not openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-ps-report{output-file=%t.missing/report})' -o /dev/null 2>&1 | FileCheck %s --check-prefix=UNWRITABLE
// RUN: openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize{lr-schedule=piecewise boundaries=100 values=0.1,0.01}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 mode=async})' | FileCheck %s --check-prefix=SCHEDULE
// RUN: not openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-minimize, openks-transpile{trainers=2})' 2>&1 | FileCheck %s --check-prefix=NOSERVERS
// RUN: not openks-opt %openks_src_root/docs/examples/mlp.mlir --pass-pipeline='builtin.module(openks-transpile{pservers=127.0.0.1:1})' 2>&1 | FileCheck %s --check-prefix=NOTMINIMIZED

// CHECK: module attributes {ps.job = #ps.job<mode = sync, trainers = 2,
// CHECK-LABEL: ps.worker @mlp main @step startup @startup {
// CHECK:       ps.send grad %{{.*}} to @ps1::@fc2.b
// CHECK:       ps.send grad %{{.*}} to @ps0::@fc2.w
// CHECK:       ps.send grad %{{.*}} to @ps0::@fc1.b
// CHECK:       ps.send grad %{{.*}} to @ps1::@fc1.w.block0
// CHECK:       ps.send grad %{{.*}} to @ps0::@fc1.w.block1
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
// PIPED: ps.worker @mlp main @step startup @startup {
// PIPED: ps.server @ps1 endpoint "127.0.0.1:6171"
// UNWRITABLE: error: openks-ps-report: cannot open output file '{{.*}}missing/report'
// REPORT:      server  endpoint  blocks  bytes
// REPORT-NEXT: @ps0  127.0.0.1:6170  16  1238044
// REPORT-NEXT: @ps1  127.0.0.1:6171  11  1204364
// REPORT-NEXT: imbalance (max / mean): 1.014

// A learning-rate schedule runs in each block's update region on a counter
// of its own, which counts the same steps as Paddle's global counter: in
// sync mode one update per step, in async mode one per trainer and step.
// The worker keeps neither the schedule nor the counter.
// SCHEDULE-LABEL: ps.worker @mlp main @step startup @startup {
// SCHEDULE-NOT:   LR_DECAY_COUNTER
// SCHEDULE-LABEL: ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode async {
// SCHEDULE:       ps.block @"@LR_DECAY_COUNTER@.fc1.b" : tensor<i64> init #train.constant<0.000000e+00> frozen
// SCHEDULE:       ps.update @fc1.b on grad (%[[G:.*]]: tensor<256xf32>) {
// SCHEDULE-NEXT:    %[[STEP:.*]] = train.read @"@LR_DECAY_COUNTER@.fc1.b"
// SCHEDULE-NEXT:    %[[LR:.*]] = train.piecewise_decay %[[STEP]] boundaries [100] values [1.000000e-01, 1.000000e-02]
// SCHEDULE-NEXT:    %[[NEXT:.*]] = train.increment %[[STEP]]
// SCHEDULE-NEXT:    train.write %[[NEXT]] to @"@LR_DECAY_COUNTER@.fc1.b"
// SCHEDULE-NEXT:    train.sgd @fc1.b, %[[G]], %[[LR]]

// NOSERVERS: error: openks-transpile: option 'pservers' must not be empty
// NOTMINIMIZED: mlp.mlir:{{[0-9]+}}:{{[0-9]+}}: error: openks-slice-variables: the program has no optimizer ops; run openks-minimize first
