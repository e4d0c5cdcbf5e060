// Tests openks-build-servers with the optimizers Paddle's transpiler tests
// use beyond SGD: the element-wise state of rmsprop, decayed_adagrad, ftrl
// and adamax is sliced with the parameter's blocks and named like them,
// rank-0 state (adamax's beta1 power) is copied whole to every server that
// holds a block, and each block's region runs the optimizer on the block.
// RUN: openks-opt %s -split-input-file --openks-build-servers | FileCheck %s

// Tests RMSProp, centered, as Paddle's TestRMSPropOptimizer transpiles it:
// fc_w split into two blocks of 500 rows, its mean square, moment and mean
// gradient sliced alike (Paddle slices Moment and MeanSquare), and each
// block's region averaging then running rmsprop on the block.
// CHECK-LABEL: ps.server @ps0 endpoint "127.0.0.1:6174" fan_in 2 mode sync {
// CHECK-NEXT:  ps.block @fc_b : tensor<1000xf32>
// CHECK-NEXT:  ps.block @fc_b.mean_square : tensor<1000xf32> init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.block @fc_b.moment : tensor<1000xf32> init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.block @fc_b.mean_grad : tensor<1000xf32> init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.block @learning_rate : tensor<f32>
// CHECK-NEXT:  ps.block @fc_w.block1 : tensor<500x1000xf32> of @fc_w : tensor<1000x1000xf32> rows [500, 1000)
// CHECK-NEXT:  ps.block @fc_w.mean_square.block1 : tensor<500x1000xf32> of @fc_w.mean_square : tensor<1000x1000xf32> rows [500, 1000) init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.block @fc_w.moment.block1 : tensor<500x1000xf32> of @fc_w.moment : tensor<1000x1000xf32> rows [500, 1000) init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.block @fc_w.mean_grad.block1 : tensor<500x1000xf32> of @fc_w.mean_grad : tensor<1000x1000xf32> rows [500, 1000) init #train.constant<0.000000e+00> frozen
// CHECK:       ps.update @fc_w.block1 on grad (%[[G:.*]]: tensor<500x1000xf32>) {
// CHECK-NEXT:    %[[AVG:.*]] = train.scale %[[G]] by 5.000000e-01
// CHECK-NEXT:    %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT:    train.rmsprop @fc_w.block1, %[[AVG]], %[[LR]] mean_square @fc_w.mean_square.block1 moment @fc_w.moment.block1 centered @fc_w.mean_grad.block1 {{.*}} : tensor<500x1000xf32>, tensor<f32>
// CHECK-NEXT: {{^    }$}}
// CHECK-LABEL: ps.server @ps1
// CHECK:       ps.block @fc_w.moment.block0 : tensor<500x1000xf32> of @fc_w.moment : tensor<1000x1000xf32> rows [0, 500)
// CHECK:       train.rmsprop @fc_w.block0, %{{.*}}, %{{.*}} mean_square @fc_w.mean_square.block0 moment @fc_w.moment.block0 centered @fc_w.mean_grad.block0
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6174", "127.0.0.1:6175"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @rmsprop {
    train.param @fc_b : tensor<1000xf32> init #train.constant<0.0> {ps.placement = array<i64: 0>, ps.slices = array<i64: 1000>}
    train.param @fc_w : tensor<1000x1000xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 1> {ps.placement = array<i64: 1, 0>, ps.slices = array<i64: 500, 500>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @fc_b.mean_square : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_b.moment : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_b.mean_grad : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.mean_square : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.moment : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.mean_grad : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.step @step(%db: tensor<1000xf32>, %dw: tensor<1000x1000xf32>) {
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.rmsprop @fc_b, %db, %lr mean_square @fc_b.mean_square moment @fc_b.moment centered @fc_b.mean_grad {train.role = #train.role<optimize>} : tensor<1000xf32>, tensor<f32>
      train.rmsprop @fc_w, %dw, %lr mean_square @fc_w.mean_square moment @fc_w.moment centered @fc_w.mean_grad {train.role = #train.role<optimize>} : tensor<1000x1000xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// Tests decayed Adagrad (Paddle's TestDecayedAdagrad): its moment sliced.
// CHECK-LABEL: ps.server @ps0
// CHECK:       ps.block @fc_w.moment.block1 : tensor<500x1000xf32> of @fc_w.moment : tensor<1000x1000xf32> rows [500, 1000)
// CHECK:       ps.update @fc_w.block1 on grad (%[[G:.*]]: tensor<500x1000xf32>) {
// CHECK-NEXT:    %[[AVG:.*]] = train.scale %[[G]] by 5.000000e-01
// CHECK-NEXT:    %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT:    train.decayed_adagrad @fc_w.block1, %[[AVG]], %[[LR]] moment @fc_w.moment.block1
// CHECK-LABEL: ps.server @ps1
// CHECK:       train.decayed_adagrad @fc_w.block0, %{{.*}}, %{{.*}} moment @fc_w.moment.block0
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6174", "127.0.0.1:6175"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @decayed_adagrad {
    train.param @fc_b : tensor<1000xf32> init #train.constant<0.0> {ps.placement = array<i64: 0>, ps.slices = array<i64: 1000>}
    train.param @fc_w : tensor<1000x1000xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 1> {ps.placement = array<i64: 1, 0>, ps.slices = array<i64: 500, 500>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @fc_b.moment : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.moment : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.step @step(%db: tensor<1000xf32>, %dw: tensor<1000x1000xf32>) {
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.decayed_adagrad @fc_b, %db, %lr moment @fc_b.moment {train.role = #train.role<optimize>} : tensor<1000xf32>, tensor<f32>
      train.decayed_adagrad @fc_w, %dw, %lr moment @fc_w.moment {train.role = #train.role<optimize>} : tensor<1000x1000xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// Tests FTRL: both accumulators sliced, as Paddle slices
// SquaredAccumulator and LinearAccumulator.
// CHECK-LABEL: ps.server @ps0
// CHECK:       ps.block @fc_w.squared.block1 : tensor<500x1000xf32> of @fc_w.squared : tensor<1000x1000xf32> rows [500, 1000)
// CHECK-NEXT:  ps.block @fc_w.linear.block1 : tensor<500x1000xf32> of @fc_w.linear : tensor<1000x1000xf32> rows [500, 1000)
// CHECK:       ps.update @fc_w.block1 on grad (%[[G:.*]]: tensor<500x1000xf32>) {
// CHECK-NEXT:    %[[AVG:.*]] = train.scale %[[G]] by 5.000000e-01
// CHECK-NEXT:    %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT:    train.ftrl @fc_w.block1, %[[AVG]], %[[LR]] accumulators(@fc_w.squared.block1, @fc_w.linear.block1)
// CHECK-LABEL: ps.server @ps1
// CHECK:       train.ftrl @fc_w.block0, %{{.*}}, %{{.*}} accumulators(@fc_w.squared.block0, @fc_w.linear.block0)
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6174", "127.0.0.1:6175"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @ftrl {
    train.param @fc_b : tensor<1000xf32> init #train.constant<0.0> {ps.placement = array<i64: 0>, ps.slices = array<i64: 1000>}
    train.param @fc_w : tensor<1000x1000xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 1> {ps.placement = array<i64: 1, 0>, ps.slices = array<i64: 500, 500>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @fc_b.squared : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_b.linear : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.squared : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.linear : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.step @step(%db: tensor<1000xf32>, %dw: tensor<1000x1000xf32>) {
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.ftrl @fc_b, %db, %lr accumulators(@fc_b.squared, @fc_b.linear) {train.role = #train.role<optimize>} : tensor<1000xf32>, tensor<f32>
      train.ftrl @fc_w, %dw, %lr accumulators(@fc_w.squared, @fc_w.linear) {train.role = #train.role<optimize>} : tensor<1000x1000xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// Tests Adamax: moment and infinity norm sliced, the rank-0 beta1 power
// whole, one copy on each server that holds a block (Paddle keeps Beta1Pow
// at its original shape).
// CHECK-LABEL: ps.server @ps0
// CHECK:       ps.block @fc_b.beta1_pow : tensor<f32> init #train.constant<9.000000e-01> frozen
// CHECK:       ps.block @fc_w.moment.block1 : tensor<500x1000xf32> of @fc_w.moment : tensor<1000x1000xf32> rows [500, 1000)
// CHECK-NEXT:  ps.block @fc_w.inf_norm.block1 : tensor<500x1000xf32> of @fc_w.inf_norm : tensor<1000x1000xf32> rows [500, 1000)
// CHECK-NEXT:  ps.block @fc_w.beta1_pow : tensor<f32> init #train.constant<9.000000e-01> frozen
// CHECK:       train.adamax @fc_w.block1, %{{.*}}, %{{.*}} moment @fc_w.moment.block1 inf_norm @fc_w.inf_norm.block1 beta1_pow @fc_w.beta1_pow
// CHECK-LABEL: ps.server @ps1
// CHECK:       ps.block @fc_w.beta1_pow : tensor<f32> init #train.constant<9.000000e-01> frozen
// CHECK:       train.adamax @fc_w.block0, %{{.*}}, %{{.*}} moment @fc_w.moment.block0 inf_norm @fc_w.inf_norm.block0 beta1_pow @fc_w.beta1_pow
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6174", "127.0.0.1:6175"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @adamax {
    train.param @fc_b : tensor<1000xf32> init #train.constant<0.0> {ps.placement = array<i64: 0>, ps.slices = array<i64: 1000>}
    train.param @fc_w : tensor<1000x1000xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 1> {ps.placement = array<i64: 1, 0>, ps.slices = array<i64: 500, 500>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @fc_b.moment : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_b.inf_norm : tensor<1000xf32> init #train.constant<0.0> frozen
    train.param @fc_b.beta1_pow : tensor<f32> init #train.constant<0.9> frozen
    train.param @fc_w.moment : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.inf_norm : tensor<1000x1000xf32> init #train.constant<0.0> frozen
    train.param @fc_w.beta1_pow : tensor<f32> init #train.constant<0.9> frozen
    train.step @step(%db: tensor<1000xf32>, %dw: tensor<1000x1000xf32>) {
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.adamax @fc_b, %db, %lr moment @fc_b.moment inf_norm @fc_b.inf_norm beta1_pow @fc_b.beta1_pow {train.role = #train.role<optimize>} : tensor<1000xf32>, tensor<f32>
      train.adamax @fc_w, %dw, %lr moment @fc_w.moment inf_norm @fc_w.inf_norm beta1_pow @fc_w.beta1_pow {train.role = #train.role<optimize>} : tensor<1000x1000xf32>, tensor<f32>
      train.yield
    }
  }
}
