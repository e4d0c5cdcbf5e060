// Round-trip tests of train.matmul and train.matmul_grad.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests a matmul with a dynamic batch and its gradient.
// CHECK-LABEL: train.step @dynamic_batch
// CHECK: %[[Y:.*]] = train.matmul %[[X:.*]], %[[W:.*]] : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
// CHECK: %{{.*}}, %{{.*}} = train.matmul_grad %[[X]], %[[W]], %{{.*}} : (tensor<?x784xf32>, tensor<784x256xf32>, tensor<?x256xf32>) -> (tensor<?x784xf32>, tensor<784x256xf32>)
train.program @p {
  train.step @dynamic_batch(%x: tensor<?x784xf32>, %w: tensor<784x256xf32>, %dy: tensor<?x256xf32>) {
    %y = train.matmul %x, %w : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
    %dx, %dw = train.matmul_grad %x, %w, %dy
        : (tensor<?x784xf32>, tensor<784x256xf32>, tensor<?x256xf32>) -> (tensor<?x784xf32>, tensor<784x256xf32>)
    train.yield
  }
}

// -----

// Tests a fully static f64 matmul.
// CHECK-LABEL: train.step @static_f64
// CHECK: train.matmul %{{.*}}, %{{.*}} : (tensor<3x5xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
train.program @p {
  train.step @static_f64(%a: tensor<3x5xf64>, %b: tensor<5x2xf64>) -> tensor<3x2xf64> {
    %c = train.matmul %a, %b : (tensor<3x5xf64>, tensor<5x2xf64>) -> tensor<3x2xf64>
    train.yield %c : tensor<3x2xf64>
  }
}
