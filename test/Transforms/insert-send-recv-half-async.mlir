// Tests openks-insert-send-recv in half-async mode: the trainer waits at the
// send barrier, but there is no fetch barrier (servers apply on arrival).
// RUN: openks-opt %s --openks-build-servers --openks-insert-send-recv | FileCheck %s

// CHECK-LABEL: train.step @step
// CHECK:       ps.send_barrier [@ps0, @ps1]
// CHECK-NEXT:  ps.recv @ps0::@b
// CHECK-NEXT:  ps.recv @ps1::@w.block0
// CHECK-NEXT:  ps.recv @ps0::@w.block1
// CHECK-NEXT:  train.write
// CHECK-LABEL: train.step @startup
module attributes {ps.job = #ps.job<mode = half_async, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
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
