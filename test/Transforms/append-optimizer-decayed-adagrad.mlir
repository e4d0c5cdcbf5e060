// Tests openks-append-optimizer{optimizer=decayed-adagrad}: a zero moment
// per parameter, rho as the op's decay, and Paddle's default epsilon 1e-6.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=decayed-adagrad rho=0.8" | FileCheck %s

// CHECK-DAG: train.param @w.moment : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @b.moment : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// CHECK:     train.decayed_adagrad @b, %{{.*}}, %{{.*}} moment @b.moment {decay = 8.000000e-01 : f64, train.role = #train.role<optimize>} : tensor<2xf32>, tensor<f32>
// CHECK:     train.decayed_adagrad @w, %{{.*}}, %{{.*}} moment @w.moment {decay = 8.000000e-01 : f64, train.role = #train.role<optimize>} : tensor<4x2xf32>, tensor<f32>
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
