// Verifier errors of norms that servers share: each case is the valid job
// of shared-norms.mlir (a sync job clipping by the global norm of gradients
// that two servers hold) with one thing broken.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// Tests that the main step of a sync worker reduces every norm its servers clip by.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    // expected-error @+1 {{is the main step of a sync worker whose servers @ps0, @ps1 clip by the shared norm @@GLOBAL_NORM@, so it needs a 'ps.reduce_norm' of it}}
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a norm is reduced after the send barrier, once the gradients are in.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      // expected-error @+1 {{must follow the step's 'ps.send_barrier'}}
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      ps.send_barrier [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that the servers are read after the norm is reduced.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      // expected-error @+1 {{comes before the step's 'ps.reduce_norm' of @"@GLOBAL_NORM@"}}
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a reduction lists every server that declares the norm.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      // expected-error @+1 {{does not list @ps1, which declares @"@GLOBAL_NORM@"}}
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a reduction lists only servers that declare the norm.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      // expected-error @+1 {{lists @ps1, which declares no 'ps.norm' @"@GLOBAL_NORM@"}}
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %c = train.scale %g by 0.5 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a norm is reduced once per step.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      // expected-error @+1 {{reduces @"@GLOBAL_NORM@" a second time in step @step}}
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that only the main step reduces norms.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
      %w = ps.concat %p0, %p1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      train.write %w to @w : tensor<4x2xf32>
      train.yield
    }
    train.step @startup() {
      // expected-error @+1 {{has no place in the startup step of a worker in sync mode: norms are shared within a sync step}}
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
      %w = ps.concat %p0, %p1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      train.write %w to @w : tensor<4x2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a reduction lists each server once.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      // expected-error @+1 {{lists @ps0 twice}}
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps0]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a server clips by every norm it declares.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    // expected-error @+1 {{is never clipped by: no update region of @ps1 has a 'ps.clip_by_global_norm' by it}}
    ps.norm @other
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a clip names a norm its server declares.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      // expected-error @+1 {{clips by @missing, which its server does not declare with 'ps.norm'}}
      %c = ps.clip_by_global_norm %a norm @missing max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that an update region clips by one shared norm at most.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %b = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      // expected-error @+1 {{is the second clip by a shared norm of the update of @w.block1; a region clips by one at most}}
      %c = ps.clip_by_global_norm %b norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that a clip bounds the norm by a positive value.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0, @ps1]
      ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
      %p0 = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %p1 = ps.recv @ps1::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0, @ps1]
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode sync {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      // expected-error @+1 {{max_norm must be positive, got 0}}
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 0.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}

// -----

// Tests that only sync servers share norms: an async server has no steps.
module attributes {ps.job = #ps.job<mode = async, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 4, geo_push_steps = 100>} {
  ps.worker @linreg main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%gw: tensor<4x2xf32>) {
      %g:2 = ps.split %gw rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      ps.send grad %g#0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %g#1 to @ps1::@w.block1 : tensor<2x2xf32>
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
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode async {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    // expected-error @+1 {{needs a sync server: a norm is shared within a step, and a server in async mode has no steps}}
    ps.norm @"@GLOBAL_NORM@"
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      %a = train.scale %g by 0.5 : tensor<2x2xf32>
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block0, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 2 mode async {
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.xavier<seed = 1>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      %c = train.scale %g by 0.5 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}
