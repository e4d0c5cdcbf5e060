// Tests openks-append-optimizer{optimizer=sgd}: a frozen learning-rate
// parameter, one update per parameter in name order, the gradient slots gone.
// RUN: openks-opt %s --openks-append-optimizer="optimizer=sgd lr=0.25" | FileCheck %s
// RUN: openks-opt %s --openks-append-optimizer | FileCheck %s --check-prefix=DEFAULT

// CHECK:      train.param @learning_rate : tensor<f32> init #train.constant<2.500000e-01> frozen
// CHECK:      train.step @step(%[[DW:.*]]: tensor<4x2xf32>, %[[DB:.*]]: tensor<2xf32>
// CHECK-NEXT: %[[LR:.*]] = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
// CHECK-NEXT: train.sgd @b, %[[DB]], %[[LR]] {train.role = #train.role<optimize>}
// CHECK-NEXT: train.sgd @w, %[[DW]], %[[LR]] {train.role = #train.role<optimize>}
// CHECK-NEXT: train.yield
// CHECK-NOT:  train.param_grad

// DEFAULT: train.param @learning_rate : tensor<f32> init #train.constant<1.000000e-02> frozen
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
