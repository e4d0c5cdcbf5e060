// Tests openks-build-servers in sync mode: each server declares its blocks
// (row slices of their parameter, with its initializer), the momentum
// velocity sliced alike and named like the weight's blocks, the learning
// rate whole, and one update region per block that averages the two
// trainers' gradients and runs a copy of the optimize-role ops (here weight
// decay and momentum) on the block.
// RUN: openks-opt %s --openks-build-servers | FileCheck %s

// CHECK-LABEL: ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
// CHECK-NEXT:  ps.block @b : tensor<256xf32> init #train.constant<0.000000e+00>{{$}}
// CHECK-NEXT:  ps.block @b.velocity : tensor<256xf32> init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.block @learning_rate : tensor<f32> init #train.constant<1.000000e-01> frozen
// CHECK-NEXT:  ps.block @w.block1 : tensor<392x256xf32> of @w : tensor<784x256xf32> rows [392, 784) init #train.xavier<seed = 1>
// CHECK-NEXT:  ps.block @w.velocity.block1 : tensor<392x256xf32> of @w.velocity : tensor<784x256xf32> rows [392, 784) init #train.constant<0.000000e+00> frozen
// CHECK-NEXT:  ps.update @b on grad (%[[SUM:.*]]: tensor<256xf32>) {
// CHECK-NEXT:    %[[AVG:.*]] = train.scale %[[SUM]] by 5.000000e-01 {train.role = #train.role<optimize>}
// CHECK-NEXT:    %[[LR:.*]] = train.read @learning_rate
// CHECK-NEXT:    %[[P:.*]] = train.read @b
// CHECK-NEXT:    %[[D:.*]] = train.scale %[[P]] by 1.000000e-02
// CHECK-NEXT:    %[[G:.*]] = train.add %[[AVG]], %[[D]]
// CHECK-NEXT:    train.momentum @b, %[[G]], %[[LR]] velocity @b.velocity
// CHECK-NEXT: {{^    }$}}
// CHECK-NEXT:  ps.update @w.block1 on grad (%[[WSUM:.*]]: tensor<392x256xf32>) {
// CHECK-NEXT:    %[[WAVG:.*]] = train.scale %[[WSUM]] by 5.000000e-01
// CHECK-NEXT:    %[[WLR:.*]] = train.read @learning_rate
// CHECK-NEXT:    train.momentum @w.block1, %[[WAVG]], %[[WLR]] velocity @w.velocity.block1 {{.*}} : tensor<392x256xf32>, tensor<f32>
// CHECK-NEXT: {{^    }$}}
// CHECK-NEXT: {{^  }$}}
// CHECK-LABEL: ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
// CHECK-NEXT:  ps.block @w.block0 : tensor<392x256xf32> of @w : tensor<784x256xf32> rows [0, 392)
// CHECK-NEXT:  ps.block @w.velocity.block0 : tensor<392x256xf32> of @w.velocity : tensor<784x256xf32> rows [0, 392)
// CHECK-NEXT:  ps.block @learning_rate
// CHECK-NEXT:  ps.update @w.block0 on grad
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @mlp {
    train.param @w : tensor<784x256xf32> init #train.xavier<seed = 1> {ps.placement = array<i64: 1, 0>, ps.slices = array<i64: 392, 392>}
    train.param @b : tensor<256xf32> init #train.constant<0.0> {ps.placement = array<i64: 0>, ps.slices = array<i64: 256>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @w.velocity : tensor<784x256xf32> init #train.constant<0.0> frozen
    train.param @b.velocity : tensor<256xf32> init #train.constant<0.0> frozen
    train.step @step(%x: tensor<?x784xf32>) -> tensor<f32> {
      %w = train.read @w {train.role = #train.role<forward>} : tensor<784x256xf32>
      %y = train.matmul %x, %w {train.role = #train.role<forward>} : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
      %b = train.read @b {train.role = #train.role<forward>} : tensor<256xf32>
      %z = train.add %y, %b {train.role = #train.role<forward>} : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
      %loss = train.mean %z {train.role = #train.role<forward>} : (tensor<?x256xf32>) -> tensor<f32>
      %one = train.fill 1.0 {train.role = #train.role<backward>} : tensor<f32>
      %dz = train.mean_grad %z, %one {train.role = #train.role<backward>} : (tensor<?x256xf32>, tensor<f32>) -> tensor<?x256xf32>
      %dy, %db = train.add_grad %y, %b, %dz {train.role = #train.role<backward>} : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>) -> (tensor<?x256xf32>, tensor<256xf32>)
      %dx, %dw = train.matmul_grad %x, %w, %dy {train.role = #train.role<backward>} : (tensor<?x784xf32>, tensor<784x256xf32>, tensor<?x256xf32>) -> (tensor<?x784xf32>, tensor<784x256xf32>)
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      %wb = train.read @b {train.role = #train.role<optimize>} : tensor<256xf32>
      %decay = train.scale %wb by 0.01 {train.role = #train.role<optimize>} : tensor<256xf32>
      %db2 = train.add %db, %decay {train.role = #train.role<optimize>} : (tensor<256xf32>, tensor<256xf32>) -> tensor<256xf32>
      train.momentum @b, %db2, %lr velocity @b.velocity {train.role = #train.role<optimize>} : tensor<256xf32>, tensor<f32>
      train.momentum @w, %dw, %lr velocity @w.velocity {train.role = #train.role<optimize>} : tensor<784x256xf32>, tensor<f32>
      train.yield %loss : tensor<f32>
    }
  }
}
