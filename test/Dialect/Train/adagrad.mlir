// Round-trip tests of train.adagrad.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.program @adagrad
// CHECK: train.adagrad @w, %{{.*}}, %{{.*}} moment @w.moment : tensor<4x2xf32>, tensor<f32>
// CHECK: train.adagrad @w, %{{.*}}, %{{.*}} moment @w.moment {epsilon = 1.000000e-04 : f64} : tensor<4x2xf32>, tensor<f32>
train.program @adagrad {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @w.moment : tensor<4x2xf32> init #train.constant<0.0> frozen
  train.step @step(%dw: tensor<4x2xf32>, %lr: tensor<f32>) {
    train.adagrad @w, %dw, %lr moment @w.moment : tensor<4x2xf32>, tensor<f32>
    train.adagrad @w, %dw, %lr moment @w.moment {epsilon = 1.0e-4 : f64} : tensor<4x2xf32>, tensor<f32>
    train.yield
  }
}
