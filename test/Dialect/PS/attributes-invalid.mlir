// Verifier errors of the job attribute and of the slice and placement
// annotations: endpoints are compared in canonical form, placements index
// the job's servers.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{a job needs at least one trainer, got 0}}
module attributes {ps.job = #ps.job<mode = sync, trainers = 0, endpoints = ["127.0.0.1:1"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
}

// -----

// expected-error @+1 {{server endpoints must not be empty}}
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = [], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
}

// -----

// expected-error @+1 {{server endpoints must be strings, got 1 : i64}}
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = [1], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
}

// -----

// expected-error @+1 {{'ps.job' must be a #ps.job on a module}}
module attributes {ps.job = 3} {
}

// -----

train.program @p {
  // expected-error @+1 {{'ps.slices' covers 7 rows of a parameter with 8}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 4, 3>}
}

// -----

train.program @p {
  // expected-error @+1 {{'ps.slices' has a block of 0 rows}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 8, 0>}
}

// -----

// expected-error @+1 {{server endpoints list '127.0.0.1:6170' twice (as '127.0.0.1:06170')}}
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170", "127.0.0.1:06170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
}

// -----

// expected-error @+1 {{endpoint '[:]:6170' has an invalid host ':' (expected an IPv6 address)}}
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["[:]:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
}

// -----

module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    // expected-error @+1 {{'ps.placement' must be an array<i64> with one server index per block of 'ps.slices'}}
    train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 4, 4>, ps.placement = array<i64: 0>}
  }
}

// -----

module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    // expected-error @+1 {{'ps.placement' must be an array<i64> with one server index per block of 'ps.slices'}}
    train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 8>, ps.placement = ["127.0.0.1:1"]}
  }
}

// -----

module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1", "127.0.0.1:2"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    // expected-error @+1 {{'ps.placement' names server 2, but the job has 2}}
    train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 4, 4>, ps.placement = array<i64: 0, 2>}
  }
}

// -----

module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1", "127.0.0.1:2"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    // expected-error @+1 {{'ps.placement' names server -1, but the job has 2}}
    train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 8>, ps.placement = array<i64: -1>}
  }
}

// -----

module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1", "127.0.0.1:2"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    // expected-error @+1 {{'ps.placement' puts two blocks on server 1}}
    train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 4, 4>, ps.placement = array<i64: 1, 1>}
  }
}

// -----

train.program @p {
  // expected-error @+1 {{'ps.placement' indexes the servers of the module's 'ps.job', which is missing}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 8>, ps.placement = array<i64: 0>}
}

// -----

train.program @p {
  // expected-error @+1 {{unknown ps dialect attribute 'ps.slice'}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slice = array<i64: 8>}
}

// -----

// Tests that slice annotations on a parameter whose type is not a tensor
// are refused before anything reads the type.
train.program @p {
  // expected-error @+1 {{'ps.slices' needs a parameter of static tensor type}}
  "train.param"() <{sym_name = "w", type = i32, initializer = #train.constant<0.0>}> {ps.slices = array<i64: 1>} : () -> ()
}

// -----

// Tests rows whose sum overflows int64 and wraps back to the parameter's.
train.program @p {
  // expected-error @+1 {{'ps.slices' has a block of 9223372036854775807 rows}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 9223372036854775807, 9223372036854775807, 10>}
}
