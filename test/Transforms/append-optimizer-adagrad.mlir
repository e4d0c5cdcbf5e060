// Tests openks-append-optimizer{optimizer=adagrad}: a zero moment per
// parameter and adagrad's own default epsilon.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=adagrad" | FileCheck %s

// CHECK-DAG: train.param @w.moment : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @b.moment : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// CHECK:     train.adagrad @b, %{{.*}}, %{{.*}} moment @b.moment {{{.*}}train.role = #train.role<optimize>}
// CHECK:     train.adagrad @w, %{{.*}}, %{{.*}} moment @w.moment
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
