// Round-trip tests of the job attribute and of the slice and placement
// annotations the transpile passes leave on parameters.
// RUN: openks-opt %s | openks-opt | FileCheck %s
// RUN: openks-opt %s --mlir-print-op-generic | openks-opt | FileCheck %s

// CHECK: module attributes {ps.job = #ps.job<mode = geo, trainers = 3, endpoints = ["127.0.0.1:6170", "[::1]:6171"], slice_var_up = false, split_method = hash_name, min_block_size = 100, geo_push_steps = 7>}
// CHECK: train.param @w : tensor<8x2xf32> init #train.xavier<seed = 1> {ps.placement = array<i64: 1, 0>, ps.slices = array<i64: 5, 3>}
module attributes {ps.job = #ps.job<mode = geo, trainers = 3, endpoints = ["127.0.0.1:6170", "[::1]:6171"], slice_var_up = false, split_method = hash_name, min_block_size = 100, geo_push_steps = 7>} {
  train.program @p {
    train.param @w : tensor<8x2xf32> init #train.xavier<seed = 1> {ps.slices = array<i64: 5, 3>, ps.placement = array<i64: 1, 0>}
  }
}
