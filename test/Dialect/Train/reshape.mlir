// Round-trip tests of train.reshape and train.reshape_grad.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @reshape
// CHECK: train.reshape %{{.*}} : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
// CHECK: train.reshape %{{.*}} : (tensor<6x4xf32>) -> tensor<24xf32>
// CHECK: train.reshape_grad %{{.*}}, %{{.*}} : (tensor<?x4x8xf32>, tensor<?x32xf32>) -> tensor<?x4x8xf32>
train.program @p {
  train.step @reshape(%x: tensor<?x4x8xf32>, %s: tensor<6x4xf32>) {
    %f = train.reshape %x : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
    %g = train.reshape %s : (tensor<6x4xf32>) -> tensor<24xf32>
    %dx = train.reshape_grad %x, %f : (tensor<?x4x8xf32>, tensor<?x32xf32>) -> tensor<?x4x8xf32>
    train.yield
  }
}
