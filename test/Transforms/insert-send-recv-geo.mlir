// Tests openks-insert-send-recv in GEO mode: the step keeps its local
// optimizer; a GEO copy of each parameter and a push step that sends
// (local - old) / trainers per block, receives the server's block and sets
// local = server + (local - old) * (1 - 1/trainers), old = server; the
// startup step fills both copies.
// RUN: openks-opt %s --openks-build-servers --openks-insert-send-recv | FileCheck %s

// CHECK-LABEL: ps.worker @mlp main @step startup @startup geo_push @geo_push {
// CHECK:       train.param @w.geo_old : tensor<784x256xf32> init #train.xavier<seed = 1> frozen
// CHECK:       train.param @b.geo_old : tensor<256xf32> init #train.constant<0.000000e+00> frozen
// CHECK:       train.param @learning_rate
// CHECK-LABEL: train.step @step
// CHECK-NOT:   ps.send
// CHECK:       train.momentum @b
// CHECK:       train.momentum @w
// CHECK-LABEL: train.step @startup
// CHECK:       train.write %[[B:.*]] to @b :
// CHECK-NEXT:  train.write %[[B]] to @b.geo_old
// CHECK-LABEL: train.step @geo_push() {
// CHECK:       %[[LOCAL:.*]] = train.read @b : tensor<256xf32>
// CHECK-NEXT:  %[[OLD:.*]] = train.read @b.geo_old
// CHECK-NEXT:  %[[NEG:.*]] = train.scale %[[OLD]] by -1.000000e+00
// CHECK-NEXT:  %[[CHANGE:.*]] = train.add %[[LOCAL]], %[[NEG]]
// CHECK-NEXT:  %[[DELTA:.*]] = train.scale %[[CHANGE]] by 5.000000e-01
// CHECK-NEXT:  ps.send delta %[[DELTA]] to @ps0::@b
// CHECK-NEXT:  %[[UNSENT:.*]] = train.scale %[[CHANGE]] by 5.000000e-01
// CHECK:       ps.send delta %{{.*}} to @ps1::@w.block0
// CHECK:       ps.send delta %{{.*}} to @ps0::@w.block1
// CHECK:       %[[SERVER:.*]] = ps.recv @ps0::@b
// CHECK-NEXT:  %[[NEW:.*]] = train.add %[[SERVER]], %[[UNSENT]]
// CHECK-NEXT:  train.write %[[NEW]] to @b
// CHECK-NEXT:  train.write %[[SERVER]] to @b.geo_old
module attributes {ps.job = #ps.job<mode = geo, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
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
