// Tests that train programs survive the bytecode writer and reader, and that
// printing, parsing and bytecode agree (--verify-roundtrip checks both).
// RUN: openks-opt %s --verify-roundtrip | FileCheck %s
// RUN: openks-opt %s --emit-bytecode | openks-opt | FileCheck %s

// CHECK-LABEL: train.program @bytecode
// CHECK: train.param @w : tensor<4x2xf32> init #train.uniform<min = -5.000000e-01, max = 5.000000e-01, seed = 11>
// CHECK: train.param @m : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK: train.step @step(%{{.*}}: tensor<?x4xf32>) -> (tensor<f32> {train.name = "loss"})
// CHECK: train.reduce_sum %{{.*}} dims [1] keep_dims
// CHECK: train.adagrad @w, %{{.*}}, %{{.*}} moment @m {epsilon = 1.000000e-03 : f64}
train.program @bytecode {
  train.param @w : tensor<4x2xf32> init #train.uniform<min = -0.5, max = 0.5, seed = 11>
  train.param @m : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @lr : tensor<f32> init #train.constant<0.1> frozen
  train.step @step(%x: tensor<?x4xf32>) -> (tensor<f32> {train.name = "loss"}) {
    %w = train.read @w : tensor<4x2xf32>
    %y = train.matmul %x, %w : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
    %s = train.reduce_sum %y dims [1] keep_dims : (tensor<?x2xf32>) -> tensor<?x1xf32>
    %l = train.mean %s : (tensor<?x1xf32>) -> tensor<f32>
    %dy = train.mean_grad %s, %l : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
    %dr = train.reduce_sum_grad %y, %dy dims [1] keep_dims : (tensor<?x2xf32>, tensor<?x1xf32>) -> tensor<?x2xf32>
    %dx, %dw = train.matmul_grad %x, %w, %dr
        : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
    %lr = train.read @lr : tensor<f32>
    train.adagrad @w, %dw, %lr moment @m {epsilon = 1.0e-3 : f64} : tensor<4x2xf32>, tensor<f32>
    train.yield %l : tensor<f32>
  }
}
