// Round-trip tests of train.momentum.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests the default and explicit momentum coefficients and Nesterov.
// CHECK-LABEL: train.program @momentum
// CHECK: train.momentum @w, %{{.*}}, %{{.*}} velocity @w.velocity : tensor<4x2xf32>, tensor<f32>
// CHECK: train.momentum @b, %{{.*}}, %{{.*}} velocity @b.velocity nesterov {mu = 5.000000e-01 : f64} : tensor<2xf32>, tensor<f32>
train.program @momentum {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @w.velocity : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.param @b.velocity : tensor<2xf32> init #train.constant<0.0> frozen
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %lr: tensor<f32>) {
    train.momentum @w, %dw, %lr velocity @w.velocity : tensor<4x2xf32>, tensor<f32>
    train.momentum @b, %db, %lr velocity @b.velocity nesterov {mu = 0.5 : f64} : tensor<2xf32>, tensor<f32>
    train.yield
  }
}
