// Round-trip tests of train.sgd.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// Tests SGD on f32 and f64 parameters with a learning rate read from a
// frozen parameter.
// CHECK-LABEL: train.program @sgd
// CHECK: %[[LR:.*]] = train.read @lr : tensor<f32>
// CHECK: train.sgd @w, %{{.*}}, %[[LR]] : tensor<4x2xf32>, tensor<f32>
// CHECK: train.sgd @d, %{{.*}}, %{{.*}} : tensor<3xf64>, tensor<f64>
train.program @sgd {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @d : tensor<3xf64> init #train.constant<0.0>
  train.param @lr : tensor<f32> init #train.constant<0.1> frozen
  train.step @step(%dw: tensor<4x2xf32>, %dd: tensor<3xf64>, %lr64: tensor<f64>) {
    %lr = train.read @lr : tensor<f32>
    train.sgd @w, %dw, %lr : tensor<4x2xf32>, tensor<f32>
    train.sgd @d, %dd, %lr64 : tensor<3xf64>, tensor<f64>
    train.yield
  }
}
