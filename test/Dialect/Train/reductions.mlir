// Round-trip tests of train.mean, train.reduce_sum and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @mean
// CHECK: train.mean %{{.*}} : (tensor<?x4xf32>) -> tensor<f32>
// CHECK: train.mean_grad %{{.*}}, %{{.*}} : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
train.program @p {
  train.step @mean(%x: tensor<?x4xf32>, %d: tensor<f32>) {
    %m = train.mean %x : (tensor<?x4xf32>) -> tensor<f32>
    %dx = train.mean_grad %x, %d : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

// Tests dropped, kept and all-dimension reductions.
// CHECK-LABEL: train.step @reduce_sum
// CHECK: train.reduce_sum %{{.*}} dims [1] : (tensor<?x4x8xf32>) -> tensor<?x8xf32>
// CHECK: train.reduce_sum %{{.*}} dims [1, 2] keep_dims : (tensor<?x4x8xf32>) -> tensor<?x1x1xf32>
// CHECK: train.reduce_sum %{{.*}} dims [] : (tensor<?x4x8xf32>) -> tensor<f32>
// CHECK: train.reduce_sum_grad %{{.*}}, %{{.*}} dims [1] : (tensor<?x4x8xf32>, tensor<?x8xf32>) -> tensor<?x4x8xf32>
// CHECK: train.reduce_sum_grad %{{.*}}, %{{.*}} dims [1, 2] keep_dims : (tensor<?x4x8xf32>, tensor<?x1x1xf32>) -> tensor<?x4x8xf32>
train.program @p {
  train.step @reduce_sum(%x: tensor<?x4x8xf32>) {
    %a = train.reduce_sum %x dims [1] : (tensor<?x4x8xf32>) -> tensor<?x8xf32>
    %b = train.reduce_sum %x dims [1, 2] keep_dims : (tensor<?x4x8xf32>) -> tensor<?x1x1xf32>
    %c = train.reduce_sum %x dims [] : (tensor<?x4x8xf32>) -> tensor<f32>
    %da = train.reduce_sum_grad %x, %a dims [1] : (tensor<?x4x8xf32>, tensor<?x8xf32>) -> tensor<?x4x8xf32>
    %db = train.reduce_sum_grad %x, %b dims [1, 2] keep_dims : (tensor<?x4x8xf32>, tensor<?x1x1xf32>) -> tensor<?x4x8xf32>
    train.yield
  }
}
