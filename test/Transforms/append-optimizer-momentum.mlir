// Tests openks-append-optimizer{optimizer=momentum}: a frozen zero velocity
// per parameter, shaped like it.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=momentum momentum=0.5 nesterov=true" | FileCheck %s

// CHECK-DAG: train.param @w.velocity : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @b.velocity : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// CHECK:     train.momentum @b, %{{.*}}, %{{.*}} velocity @b.velocity nesterov {mu = 5.000000e-01 : f64, train.role = #train.role<optimize>}
// CHECK:     train.momentum @w, %{{.*}}, %{{.*}} velocity @w.velocity nesterov
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
