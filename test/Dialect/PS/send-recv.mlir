// Round-trip tests of ps.send and ps.recv.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @send_recv
// CHECK: ps.send %{{.*}} to "127.0.0.1:6170" as "fc1.b@GRAD" : tensor<256xf32>
// CHECK: ps.send %{{.*}} to "localhost:6171" as "fc1.w.block0@GRAD.trainer_1" : tensor<392x256xf32>
// CHECK: %{{.*}} = ps.recv "fc1.b" from "127.0.0.1:6170" : tensor<256xf32>
// CHECK: %{{.*}} = ps.recv "fc1.w.block0" from "[::1]:6171" : tensor<392x256xf32>
train.program @p {
  train.step @send_recv(%db: tensor<256xf32>, %dw0: tensor<392x256xf32>) {
    ps.send %db to "127.0.0.1:6170" as "fc1.b@GRAD" : tensor<256xf32>
    ps.send %dw0 to "localhost:6171" as "fc1.w.block0@GRAD.trainer_1" : tensor<392x256xf32>
    %b = ps.recv "fc1.b" from "127.0.0.1:6170" : tensor<256xf32>
    %w0 = ps.recv "fc1.w.block0" from "[::1]:6171" : tensor<392x256xf32>
    train.yield
  }
}
