// Tests that a job survives the bytecode writer and reader: the worker's
// step names, symbol references to servers and blocks, message kinds, the
// mode enum and optional slice attributes.
// RUN: openks-opt %s --verify-roundtrip | FileCheck %s
// RUN: openks-opt %s --emit-bytecode | openks-opt | FileCheck %s

// CHECK: ps.worker @w main @step startup @startup
// CHECK: ps.split %{{.*}} rows [2, 2]
// CHECK: ps.send grad %{{.*}} to @ps1::@w.block1
// CHECK: ps.send_barrier [@ps0, @ps1]
// CHECK: ps.recv @ps1::@w.block1
// CHECK: ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 3 mode half_async
// CHECK: ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 4>
// CHECK: ps.update @w.block1 on grad
module attributes {ps.job = #ps.job<mode = half_async, trainers = 3, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 4>
    train.step @step(%g: tensor<4x2xf32>) {
      %g0, %g1 = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      %w = ps.concat %p0, %p1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      train.write %w to @w : tensor<4x2xf32>
      train.yield
    }
    train.step @startup() {
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
      %w = ps.concat %p0, %p1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      train.write %w to @w : tensor<4x2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 3 mode half_async {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 4>
    ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %g, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 3 mode half_async {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 4>
    ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %g, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}
