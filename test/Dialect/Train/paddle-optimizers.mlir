// Round-trip tests of train.rmsprop, train.decayed_adagrad, train.ftrl and
// train.adamax.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests RMSProp plain and centered, with default and explicit coefficients.
// CHECK-LABEL: train.program @rmsprop
// CHECK: train.rmsprop @w, %{{.*}}, %{{.*}} mean_square @w.ms moment @w.mom : tensor<4x2xf32>, tensor<f32>
// CHECK: train.rmsprop @w, %{{.*}}, %{{.*}} mean_square @w.ms moment @w.mom centered @w.mg {decay = 9.000000e-01 : f64, epsilon = 1.000000e-04 : f64, momentum = 5.000000e-01 : f64} : tensor<4x2xf32>, tensor<f32>
train.program @rmsprop {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @w.ms : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.mom : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.mg : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.step @step(%dw: tensor<4x2xf32>, %lr: tensor<f32>) {
    train.rmsprop @w, %dw, %lr mean_square @w.ms moment @w.mom
        : tensor<4x2xf32>, tensor<f32>
    train.rmsprop @w, %dw, %lr mean_square @w.ms moment @w.mom centered @w.mg
        {decay = 0.9 : f64, epsilon = 1.0e-4 : f64, momentum = 0.5 : f64}
        : tensor<4x2xf32>, tensor<f32>
    train.yield
  }
}

// -----

// Tests decayed Adagrad.
// CHECK-LABEL: train.program @decayed_adagrad
// CHECK: train.decayed_adagrad @w, %{{.*}}, %{{.*}} moment @w.m : tensor<3xf64>, tensor<f64>
// CHECK: train.decayed_adagrad @w, %{{.*}}, %{{.*}} moment @w.m {decay = 5.000000e-01 : f64, epsilon = 1.000000e-03 : f64} : tensor<3xf64>, tensor<f64>
train.program @decayed_adagrad {
  train.param @w : tensor<3xf64> init #train.constant<0.0>
  train.param @w.m : tensor<3xf64> init #train.constant<0.0> frozen
  train.step @step(%dw: tensor<3xf64>, %lr: tensor<f64>) {
    train.decayed_adagrad @w, %dw, %lr moment @w.m : tensor<3xf64>, tensor<f64>
    train.decayed_adagrad @w, %dw, %lr moment @w.m
        {decay = 0.5 : f64, epsilon = 1.0e-3 : f64} : tensor<3xf64>, tensor<f64>
    train.yield
  }
}

// -----

// Tests FTRL.
// CHECK-LABEL: train.program @ftrl
// CHECK: train.ftrl @w, %{{.*}}, %{{.*}} accumulators(@w.squared, @w.linear) : tensor<4x2xf32>, tensor<f32>
// CHECK: train.ftrl @w, %{{.*}}, %{{.*}} accumulators(@w.squared, @w.linear) {l1 = 1.000000e-02 : f64, l2 = 2.000000e-02 : f64, lr_power = -3.000000e-01 : f64} : tensor<4x2xf32>, tensor<f32>
train.program @ftrl {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @w.squared : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.linear : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.step @step(%dw: tensor<4x2xf32>, %lr: tensor<f32>) {
    train.ftrl @w, %dw, %lr accumulators(@w.squared, @w.linear)
        : tensor<4x2xf32>, tensor<f32>
    train.ftrl @w, %dw, %lr accumulators(@w.squared, @w.linear)
        {l1 = 0.01 : f64, l2 = 0.02 : f64, lr_power = -0.3 : f64}
        : tensor<4x2xf32>, tensor<f32>
    train.yield
  }
}

// -----

// Tests Adamax.
// CHECK-LABEL: train.program @adamax
// CHECK: train.adamax @w, %{{.*}}, %{{.*}} moment @w.m inf_norm @w.u beta1_pow @w.b1p : tensor<4x2xf32>, tensor<f32>
// CHECK: train.adamax @w, %{{.*}}, %{{.*}} moment @w.m inf_norm @w.u beta1_pow @w.b1p {beta1 = 8.000000e-01 : f64, beta2 = 5.000000e-01 : f64, epsilon = 1.000000e-03 : f64} : tensor<4x2xf32>, tensor<f32>
train.program @adamax {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @w.m : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.u : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.param @w.b1p : tensor<f32> init #train.constant<0.9> frozen
  train.step @step(%dw: tensor<4x2xf32>, %lr: tensor<f32>) {
    train.adamax @w, %dw, %lr moment @w.m inf_norm @w.u beta1_pow @w.b1p
        : tensor<4x2xf32>, tensor<f32>
    train.adamax @w, %dw, %lr moment @w.m inf_norm @w.u beta1_pow @w.b1p
        {beta1 = 0.8 : f64, beta2 = 0.5 : f64, epsilon = 1.0e-3 : f64}
        : tensor<4x2xf32>, tensor<f32>
    train.yield
  }
}
