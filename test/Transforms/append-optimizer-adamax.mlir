// Tests openks-append-optimizer{optimizer=adamax}: a zero moment and
// infinity norm per parameter and a rank-0 beta1 power starting at beta1.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=adamax beta1=0.8 beta2=0.5 epsilon=1e-4" | FileCheck %s

// CHECK-DAG: train.param @w.moment : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @w.inf_norm : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @w.beta1_pow : tensor<f32> init #train.constant<8.000000e-01> frozen
// CHECK-DAG: train.param @b.beta1_pow : tensor<f32> init #train.constant<8.000000e-01> frozen
// CHECK:     train.adamax @b, %{{.*}}, %{{.*}} moment @b.moment inf_norm @b.inf_norm beta1_pow @b.beta1_pow {beta1 = 8.000000e-01 : f64, beta2 = 5.000000e-01 : f64, epsilon = 1.000000e-04 : f64, train.role = #train.role<optimize>}
// CHECK:     train.adamax @w, %{{.*}}, %{{.*}} moment @w.moment inf_norm @w.inf_norm beta1_pow @w.beta1_pow
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
