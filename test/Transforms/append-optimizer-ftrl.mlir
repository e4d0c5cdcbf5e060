// Tests openks-append-optimizer{optimizer=ftrl}: zero squared and linear
// accumulators per parameter (Paddle's), and the L1, L2 and power options
// on the op.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=ftrl ftrl-l1=0.01 ftrl-l2=0.001 lr-power=-0.25" | FileCheck %s
// RUN: openks-opt %s --openks-append-optimizer="optimizer=ftrl" | FileCheck %s --check-prefix=DEFAULTS

// CHECK-DAG: train.param @w.squared : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @w.linear : tensor<4x2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @b.squared : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// CHECK-DAG: train.param @b.linear : tensor<2xf32> init #train.constant<0.000000e+00> frozen
// CHECK:     train.ftrl @b, %{{.*}}, %{{.*}} accumulators(@b.squared, @b.linear) {l1 = 1.000000e-02 : f64, l2 = 1.000000e-03 : f64, lr_power = -2.500000e-01 : f64, train.role = #train.role<optimize>}
// CHECK:     train.ftrl @w, %{{.*}}, %{{.*}} accumulators(@w.squared, @w.linear)

// DEFAULTS: train.ftrl @b, %{{.*}}, %{{.*}} accumulators(@b.squared, @b.linear) {train.role = #train.role<optimize>}
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
