// Tests openks-append-optimizer{optimizer=adam}: two zero moments and two
// rank-0 beta powers per parameter, the powers starting at beta1 and beta2.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=adam beta1=0.8 beta2=0.5 epsilon=1e-4" | FileCheck %s

// CHECK-DAG: train.param @w.moment1 : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @w.moment2 : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @w.beta1_pow : tensor<f32> init #train.constant<8.000000e-01> frozen
// CHECK-DAG: train.param @w.beta2_pow : tensor<f32> init #train.constant<5.000000e-01> frozen
// CHECK-DAG: train.param @b.moment1 : tensor<2xf32>
// CHECK:     train.adam @b, %{{.*}}, %{{.*}} moments(@b.moment1, @b.moment2) beta_pows(@b.beta1_pow, @b.beta2_pow) {beta1 = 8.000000e-01 : f64, beta2 = 5.000000e-01 : f64, epsilon = 1.000000e-04 : f64
// CHECK:     train.adam @w, %{{.*}}, %{{.*}} moments(@w.moment1, @w.moment2) beta_pows(@w.beta1_pow, @w.beta2_pow)
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
