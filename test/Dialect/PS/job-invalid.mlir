// Verifier errors of the job attribute and of the slice and placement
// annotations.
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

train.program @p {
  // expected-error @+1 {{'ps.placement' must list one endpoint per block of 'ps.slices'}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 4, 4>, ps.placement = ["127.0.0.1:1"]}
}

// -----

train.program @p {
  // expected-error @+1 {{endpoint 'nowhere' must have the form host:port}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slices = array<i64: 8>, ps.placement = ["nowhere"]}
}

// -----

train.program @p {
  // expected-error @+1 {{unknown ps dialect attribute 'ps.slice'}}
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> {ps.slice = array<i64: 8>}
}
