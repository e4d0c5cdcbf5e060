// Round-trip tests of train.adam.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests Adam with default and explicit hyper-parameters.
// CHECK-LABEL: train.program @adam
// CHECK: train.adam @w, %{{.*}}, %{{.*}} moments(@w.m1, @w.m2) beta_pows(@w.b1p, @w.b2p) : tensor<4x2xf32>, tensor<f32>
// CHECK: train.adam @w, %{{.*}}, %{{.*}} moments(@w.m1, @w.m2) beta_pows(@w.b1p, @w.b2p) {beta1 = 8.000000e-01 : f64, beta2 = 5.000000e-01 : f64, epsilon = 1.000000e-03 : f64} : tensor<4x2xf32>, tensor<f32>
train.program @adam {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @w.m1 : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.m2 : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.b1p : tensor<f32> init #train.constant<0.9> frozen
  train.param @w.b2p : tensor<f32> init #train.constant<0.999> frozen
  train.step @step(%dw: tensor<4x2xf32>, %lr: tensor<f32>) {
    train.adam @w, %dw, %lr moments(@w.m1, @w.m2) beta_pows(@w.b1p, @w.b2p)
        : tensor<4x2xf32>, tensor<f32>
    train.adam @w, %dw, %lr moments(@w.m1, @w.m2) beta_pows(@w.b1p, @w.b2p)
        {beta1 = 0.8 : f64, beta2 = 0.5 : f64, epsilon = 1.0e-3 : f64}
        : tensor<4x2xf32>, tensor<f32>
    train.yield
  }
}
