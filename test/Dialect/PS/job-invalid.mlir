// Verifier errors of whole jobs: the checks that tie a worker to the
// servers of its module (see the ps.worker description). Each case is a
// small valid job with one thing broken.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// Tests that a worker's module must carry the job.
module {
  // expected-error @+1 {{needs the module's 'ps.job' to check its servers against}}
  ps.worker @w main @step startup @startup {
    train.step @step() {
      train.yield
    }
    train.step @startup() {
      train.yield
    }
  }
}

// -----

// Tests that every endpoint of the job has its server.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  // expected-error @+1 {{belongs to a job whose endpoint 127.0.0.1:6171 has no 'ps.server'}}
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a server listens on an endpoint of the job.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  // expected-error @+1 {{listens on 127.0.0.1:7000, which is not an endpoint of the job}}
  ps.server @ps0 endpoint "127.0.0.1:7000" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that the job's trainers are each server's fan_in.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  // expected-error @+1 {{expects 2 trainers, but the job has 1}}
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that every server synchronises in the job's mode.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  // expected-error @+1 {{synchronises in mode async, but the job's mode is sync}}
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that endpoints are compared in canonical form: two servers on one
// endpoint, written differently.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  // expected-error @+1 {{listens on 127.0.0.1:6170 like @ps0}}
  ps.server @ps1 endpoint "127.0.0.1:06170" fan_in 1 mode sync {
  }
}

// -----

// Tests that the worker's steps exist.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  // expected-error @+1 {{names @startup as its startup step, but it holds no such 'train.step'}}
  ps.worker @w main @step startup @startup {
    train.step @step() {
      train.yield
    }
  }
}

// -----

// Tests that the startup step takes no arguments.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  // expected-error @+1 {{step @startup runs between mini-batches and must take and return nothing}}
  ps.worker @w main @step startup @startup {
    train.step @step() {
      train.yield
    }
    train.step @startup(%x: tensor<2xf32>) {
      train.yield
    }
  }
}

// -----

// Tests that each role has a step of its own.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  // expected-error @+1 {{must name a different step for each role}}
  ps.worker @w main @step startup @step {
    train.step @step() {
      train.yield
    }
  }
}

// -----

// Tests that a geo worker names its push step.
module attributes {ps.job = #ps.job<mode = geo, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  // expected-error @+1 {{is a geo worker and needs a geo_push step}}
  ps.worker @w main @step startup @startup {
    train.step @step() {
      train.yield
    }
    train.step @startup() {
      train.yield
    }
  }
}

// -----

// Tests that only a geo worker has a push step.
module attributes {ps.job = #ps.job<mode = async, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  // expected-error @+1 {{has a geo_push step, but the job's mode is async}}
  ps.worker @w main @step startup @startup geo_push @push {
    train.step @step() {
      train.yield
    }
    train.step @startup() {
      train.yield
    }
    train.step @push() {
      train.yield
    }
  }
}

// -----

// Tests that communication happens in the steps the worker names.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @other() {
      // expected-error @+1 {{communicates outside the worker's main, startup and geo_push steps}}
      %b = ps.recv @ps0::@b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that the startup step only receives.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %z = train.fill 0.0 : tensor<2xf32>
      // expected-error @+1 {{sends a gradient in the startup step of a worker in sync mode, which sends nothing}}
      ps.send grad %z to @ps0::@b : tensor<2xf32>
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a sync worker sends gradients, not deltas.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      // expected-error @+1 {{sends a delta in the main step of a worker in sync mode, which sends only gradients}}
      ps.send delta %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a block is sent at most once per step: the server would
// count the trainer twice.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      // expected-error @+1 {{sends to @ps0::@b a second time in step @step}}
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a gradient goes to a block with an update region.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>, %f: tensor<f32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      // expected-error @+1 {{sends a gradient to @ps0::@lr, but server @ps0 has no update region for the block}}
      ps.send grad %f to @ps0::@lr : tensor<f32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that every update region is fed by the worker.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.block @c : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
    // expected-error @+1 {{is never run: the worker's main step sends no gradient to @ps0::@c}}
    ps.update @c on grad (%g: tensor<2xf32>) {
    }
  }
}

// -----

// Tests that a sync step ends its sends with a send barrier.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    // expected-error @+1 {{is the main step of a worker in sync mode and sends to @ps0, so it needs a 'ps.send_barrier' over them}}
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that an async step has no barriers.
module attributes {ps.job = #ps.job<mode = async, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      // expected-error @+1 {{has no place in the main step of a worker in async mode}}
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a barrier lists no server the step does not talk to: that
// server would wait for messages that never come.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      // expected-error @+1 {{lists @ps1, which the step never sends to}}
      ps.send_barrier [@ps0, @ps1]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
  }
}

// -----

// Tests that a barrier lists every server the step talks to.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      %lr = ps.recv @ps1::@lr : tensor<f32>
      // expected-error @+1 {{does not list @ps1, which the step receives from}}
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
  }
}

// -----

// Tests that no send follows the send barrier.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>, %h: tensor<2xf32>) {
      ps.send_barrier [@ps0]
      // expected-error @+1 {{comes after the step's 'ps.send_barrier', which must follow every send}}
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a sync step receives after its send barrier.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      // expected-error @+1 {{comes before the step's 'ps.send_barrier', so it would read the block before the step's update}}
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that the fetch barrier follows every receive.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      ps.fetch_barrier [@ps0]
      // expected-error @+1 {{comes after the step's 'ps.fetch_barrier', which must follow every receive}}
      %b = ps.recv @ps0::@b : tensor<2xf32>
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a step has one barrier of each kind.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      // expected-error @+1 {{is the second 'ps.send_barrier' of step @step}}
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that the startup step ends with a fetch barrier: sync servers wait
// for it before the first step.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    // expected-error @+1 {{is the startup step of a worker in sync mode and receives from @ps0, so it needs a 'ps.fetch_barrier' over them}}
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
}

// -----

// Tests that a trained block has one owner: a second server holding the
// same block would train a copy that no worker reads.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
    // expected-error @+1 {{is also held by @ps0; only whole frozen blocks of one type and initializer may be kept by several servers}}
    ps.block @b : tensor<2xf32> init #train.constant<0.0> frozen
  }
}

// -----

// Tests that copies of a frozen block agree.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.block @lr : tensor<f32> init #train.constant<0.1> frozen
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
    // expected-error @+1 {{is also held by @ps0; only whole frozen blocks of one type and initializer may be kept by several servers}}
    ps.block @lr : tensor<f32> init #train.constant<0.2> frozen
  }
}

// -----

// Tests that row slices of one parameter do not overlap across servers.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.block @v.block0 : tensor<3x2xf32> of @v : tensor<4x2xf32> rows [0, 3) init #train.constant<0.0> frozen
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
    // expected-error @+1 {{holds rows [2, 4) of @v, which overlap rows [0, 3) held by @ps0 as @v.block0}}
    ps.block @v.block1 : tensor<2x2xf32> of @v : tensor<4x2xf32> rows [2, 4) init #train.constant<0.0> frozen
  }
}

// -----

// Tests that a parameter is either whole on one server or sliced.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<2xf32>) {
      ps.send grad %g to @ps0::@b : tensor<2xf32>
      ps.send_barrier [@ps0]
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
    train.step @startup() {
      %b = ps.recv @ps0::@b : tensor<2xf32>
      ps.fetch_barrier [@ps0]
      train.write %b to @b : tensor<2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @b : tensor<2xf32> init #train.constant<0.0>
    ps.block @v : tensor<4x2xf32> init #train.constant<0.0> frozen
    ps.update @b on grad (%g: tensor<2xf32>) {
      %p = train.read @b : tensor<2xf32>
      %q = train.add %p, %g : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      train.write %q to @b : tensor<2xf32>
    }
  }
  ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
    // expected-error @+1 {{is a slice of @v, which @ps0 holds whole}}
    ps.block @v.block1 : tensor<2x2xf32> of @v : tensor<4x2xf32> rows [2, 4) init #train.constant<0.0> frozen
  }
}

// -----

// Tests that a block's update takes the kind of value the worker sends it:
// the rows of a sparse table here, but a whole block on the server.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.param @t : tensor<10x2xf32> init #train.constant<0.0>
    train.step @step(%ids: tensor<?xi64>, %d: tensor<?x2xf32>) {
      %g = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x2xf32>) -> !train.rows<tensor<10x2xf32>>
      // expected-error @+1 {{sends '!train.rows<tensor<10x2xf32>>' to @ps0::@t, whose update region receives 'tensor<10x2xf32>'}}
      ps.send grad %g to @ps0::@t : !train.rows<tensor<10x2xf32>>
      ps.send_barrier [@ps0]
      %t = ps.recv @ps0::@t : tensor<10x2xf32>
      ps.fetch_barrier [@ps0]
      train.write %t to @t : tensor<10x2xf32>
      train.yield
    }
    train.step @startup() {
      %t = ps.recv @ps0::@t : tensor<10x2xf32>
      ps.fetch_barrier [@ps0]
      train.write %t to @t : tensor<10x2xf32>
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @t : tensor<10x2xf32> init #train.constant<0.0>
    ps.update @t on grad (%g: tensor<10x2xf32>) {
      train.write %g to @t : tensor<10x2xf32>
    }
  }
}

// -----

// Tests that a sync startup passes the fetch barrier of every server the
// main step sends to, though it pulls nothing from it: the server opens
// its first step once every trainer has.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.step @step(%ids: tensor<?xi64>, %d: tensor<?x2xf32>) {
      %need = ps.route_ids %ids for @t rows [10] : tensor<?xi64> -> tensor<?xi64>
      %rows = ps.prefetch %need from @ps0::@t : tensor<?xi64> -> !train.rows<tensor<10x2xf32>>
      %e = train.embedding %rows, %ids : (!train.rows<tensor<10x2xf32>>, tensor<?xi64>) -> tensor<?x2xf32>
      %g = train.embedding_grad %ids, %e : (tensor<?xi64>, tensor<?x2xf32>) -> !train.rows<tensor<10x2xf32>>
      ps.send grad %g to @ps0::@t : !train.rows<tensor<10x2xf32>>
      ps.send_barrier [@ps0]
      ps.fetch_barrier [@ps0]
      train.yield
    }
    // expected-error @+1 {{is the startup step of a worker in sync mode and receives from @ps0, so it needs a 'ps.fetch_barrier' over them}}
    train.step @startup() {
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @t : tensor<10x2xf32> init #train.constant<0.0>
    ps.update @t on grad (%g: !train.rows<tensor<10x2xf32>>) {
      %lr = train.fill 0.1 : tensor<f32>
      train.sgd @t, %g, %lr : !train.rows<tensor<10x2xf32>>, tensor<f32>
    }
  }
}

// -----

// Tests that a prefetch reads before the step's send barrier, while no
// server updates.
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.step @step(%ids: tensor<?xi64>, %d: tensor<?x2xf32>) {
      %g = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x2xf32>) -> !train.rows<tensor<10x2xf32>>
      ps.send grad %g to @ps0::@t : !train.rows<tensor<10x2xf32>>
      ps.send_barrier [@ps0]
      %need = ps.route_ids %ids for @t rows [10] : tensor<?xi64> -> tensor<?xi64>
      // expected-error @+1 {{comes after the step's 'ps.send_barrier', so it could read rows in the middle of the step's update}}
      %rows = ps.prefetch %need from @ps0::@t : tensor<?xi64> -> !train.rows<tensor<10x2xf32>>
      ps.fetch_barrier [@ps0]
      train.yield
    }
    train.step @startup() {
      ps.fetch_barrier [@ps0]
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @t : tensor<10x2xf32> init #train.constant<0.0>
    ps.update @t on grad (%g: !train.rows<tensor<10x2xf32>>) {
      %lr = train.fill 0.1 : tensor<f32>
      train.sgd @t, %g, %lr : !train.rows<tensor<10x2xf32>>, tensor<f32>
    }
  }
}
