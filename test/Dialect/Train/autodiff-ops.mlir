// Round-trip tests of the ops autodiff and the optimizer passes add:
// stop_gradient, param_grad, clip_by_global_norm, increment and the
// learning-rate schedules, and of the train.role attribute.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @autodiff
// CHECK: train.stop_gradient %{{.*}} {train.role = #train.role<forward>} : tensor<?x4xf32>
// CHECK: train.clip_by_global_norm %{{.*}}, %{{.*}} max_norm 5.000000e+00 {train.role = #train.role<backward>} : tensor<4x2xf32>, tensor<2xf32>
// CHECK: train.param_grad @w, %{{.*}} : tensor<4x2xf32>
// CHECK: train.param_grad @b, %{{.*}} : tensor<2xf32>
train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<2xf32> init #train.constant<0.0>
  train.step @autodiff(%x: tensor<?x4xf32>, %dw: tensor<4x2xf32>, %db: tensor<2xf32>) {
    %s = train.stop_gradient %x {train.role = #train.role<forward>} : tensor<?x4xf32>
    %cw, %cb = train.clip_by_global_norm %dw, %db max_norm 5.0 {train.role = #train.role<backward>}
        : tensor<4x2xf32>, tensor<2xf32>
    train.param_grad @w, %cw : tensor<4x2xf32>
    train.param_grad @b, %cb : tensor<2xf32>
    train.yield
  }
}

// -----

// CHECK-LABEL: train.step @schedules
// CHECK: train.increment %{{.*}} {train.role = #train.role<lr_schedule>} : tensor<i64>
// CHECK: train.exponential_decay %{{.*}} learning_rate 1.000000e-01 decay_rate 5.000000e-01 decay_steps 100 : tensor<i64> -> tensor<f32>
// CHECK: train.exponential_decay %{{.*}} learning_rate 1.000000e-01 decay_rate 5.000000e-01 decay_steps 100 staircase : tensor<i64> -> tensor<f64>
// CHECK: train.piecewise_decay %{{.*}} boundaries [100, 200] values [1.000000e-01, 1.000000e-02, 1.000000e-03] : tensor<i64> -> tensor<f32>
// CHECK: train.increment %{{.*}} : tensor<f32>
train.program @p {
  train.step @schedules(%step: tensor<i64>, %f: tensor<f32>) {
    %next = train.increment %step {train.role = #train.role<lr_schedule>} : tensor<i64>
    %a = train.exponential_decay %step learning_rate 0.1 decay_rate 0.5 decay_steps 100 : tensor<i64> -> tensor<f32>
    %b = train.exponential_decay %step learning_rate 0.1 decay_rate 0.5 decay_steps 100 staircase : tensor<i64> -> tensor<f64>
    %c = train.piecewise_decay %step boundaries [100, 200] values [0.1, 0.01, 0.001] : tensor<i64> -> tensor<f32>
    %g = train.increment %f : tensor<f32>
    train.yield
  }
}
