// Tests openks-append-optimizer{optimizer=rmsprop}: a zero mean square and
// moment per parameter, and a zero mean gradient when centered; Paddle's
// defaults (decay 0.95, epsilon 1e-6, momentum 0) unless set.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=rmsprop" | FileCheck %s --check-prefix=PLAIN
// RUN: openks-opt %s --openks-append-optimizer="optimizer=rmsprop centered=true rho=0.9 rmsprop-momentum=0.5 epsilon=1e-4" | FileCheck %s --check-prefix=CENTERED

// PLAIN-DAG: train.param @w.mean_square : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// PLAIN-DAG: train.param @w.moment : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// PLAIN-DAG: train.param @b.mean_square : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// PLAIN-NOT: mean_grad
// PLAIN:     train.rmsprop @b, %{{.*}}, %{{.*}} mean_square @b.mean_square moment @b.moment {train.role = #train.role<optimize>} : tensor<2xf32>, tensor<f32>
// PLAIN:     train.rmsprop @w, %{{.*}}, %{{.*}} mean_square @w.mean_square moment @w.moment {train.role = #train.role<optimize>}

// CENTERED-DAG: train.param @w.mean_grad : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CENTERED-DAG: train.param @b.mean_grad : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// CENTERED:     train.rmsprop @b, %{{.*}}, %{{.*}} mean_square @b.mean_square moment @b.moment centered @b.mean_grad {decay = 9.000000e-01 : f64, epsilon = 1.000000e-04 : f64, momentum = 5.000000e-01 : f64, train.role = #train.role<optimize>}
// CENTERED:     train.rmsprop @w, %{{.*}}, %{{.*}} mean_square @w.mean_square moment @w.moment centered @w.mean_grad
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
