// Tests the learning-rate schedules of openks-append-optimizer: a step
// counter named as Paddle's, the rate computed from it, the counter advanced.
// RUN: openks-opt %s --openks-append-optimizer="lr=0.1 lr-schedule=exponential decay-rate=0.5 decay-steps=100 staircase=true" | FileCheck %s --check-prefix=EXP
// RUN: openks-opt %s --openks-append-optimizer="lr-schedule=piecewise boundaries=10,20 values=1.0,0.5,0.25" | FileCheck %s --check-prefix=PIECE

// EXP:      train.param @"@LR_DECAY_COUNTER@" : tensor<i64> init #train.constant<0.000000e+00> frozen
// EXP:      %[[STEP:.*]] = train.read @"@LR_DECAY_COUNTER@" {train.role = #train.role<lr_schedule>} : tensor<i64>
// EXP-NEXT: %[[LR:.*]] = train.exponential_decay %[[STEP]] learning_rate 1.000000e-01 decay_rate 5.000000e-01 decay_steps 100 staircase {train.role = #train.role<lr_schedule>} : tensor<i64> -> tensor<f32>
// EXP-NEXT: %[[NEXT:.*]] = train.increment %[[STEP]] {train.role = #train.role<lr_schedule>}
// EXP-NEXT: train.write %[[NEXT]] to @"@LR_DECAY_COUNTER@" {train.role = #train.role<lr_schedule>}
// EXP-NEXT: train.sgd @b, %{{.*}}, %[[LR]]
// EXP-NEXT: train.sgd @w, %{{.*}}, %[[LR]]

// PIECE: train.piecewise_decay %{{.*}} boundaries [10, 20] values [1.000000e+00, 5.000000e-01, 2.500000e-01]
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @step(%dw: tensor<4x2xf32>, %db: tensor<2xf32>, %loss: tensor<f32>) -> tensor<f32> {
    train.param_grad @w, %dw : tensor<4x2xf32>
    train.param_grad @b, %db : tensor<2xf32>
    train.yield %loss : tensor<f32>
  }
}
