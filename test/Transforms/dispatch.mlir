// Tests openks-dispatch: round-robin with one cursor across parameters in
// optimizer-op order, and HashName on a stable hash. A placement lists each
// block's server as its index among the job's endpoints.
// RUN: openks-opt %s -split-input-file --openks-dispatch -verify-diagnostics | FileCheck %s

// The MLP of the IR sketch on two servers. In parameter-name order the
// blocks are fc1.b, fc1.w.block0, fc1.w.block1, fc2.b, fc2.w.
// CHECK-LABEL: train.program @round_robin
// CHECK-DAG: train.param @fc1.w {{.*}}ps.placement = array<i64: 1, 0>
// CHECK-DAG: train.param @fc1.b {{.*}}ps.placement = array<i64: 0>
// CHECK-DAG: train.param @fc2.w {{.*}}ps.placement = array<i64: 0>
// CHECK-DAG: train.param @fc2.b {{.*}}ps.placement = array<i64: 1>
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @round_robin {
    train.param @fc1.w : tensor<784x256xf32> init #train.xavier<seed = 1> {ps.slices = array<i64: 392, 392>}
    train.param @fc1.b : tensor<256xf32> init #train.constant<0.0> {ps.slices = array<i64: 256>}
    train.param @fc2.w : tensor<256x10xf32> init #train.xavier<seed = 2> {ps.slices = array<i64: 256>}
    train.param @fc2.b : tensor<10xf32> init #train.constant<0.0> {ps.slices = array<i64: 10>}
    train.step @step(%dw1: tensor<784x256xf32>, %db1: tensor<256xf32>, %dw2: tensor<256x10xf32>, %db2: tensor<10xf32>, %lr: tensor<f32>) {
      train.sgd @fc1.b, %db1, %lr : tensor<256xf32>, tensor<f32>
      train.sgd @fc1.w, %dw1, %lr : tensor<784x256xf32>, tensor<f32>
      train.sgd @fc2.b, %db2, %lr : tensor<10xf32>, tensor<f32>
      train.sgd @fc2.w, %dw2, %lr : tensor<256x10xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// HashName: FNV-1a of "w.block0", "w.block1", "w.block2" and "b" modulo 3
// (servers 0, 2, 2 -> 1 since 2 holds a block of w already, and 1; values
// computed independently), the same in every process.
// CHECK-LABEL: train.program @hash_name
// CHECK-DAG: train.param @w {{.*}}ps.placement = array<i64: 0, 2, 1>
// CHECK-DAG: train.param @b {{.*}}ps.placement = array<i64: 1>
module attributes {ps.job = #ps.job<mode = async, trainers = 1, endpoints = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"], slice_var_up = true, split_method = hash_name, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @hash_name {
    train.param @w : tensor<30x1000xf32> init #train.xavier<seed = 1> {ps.slices = array<i64: 10, 10, 10>}
    train.param @b : tensor<1000xf32> init #train.constant<0.0> {ps.slices = array<i64: 1000>}
    train.step @step(%dw: tensor<30x1000xf32>, %db: tensor<1000xf32>, %lr: tensor<f32>) {
      train.sgd @b, %db, %lr : tensor<1000xf32>, tensor<f32>
      train.sgd @w, %dw, %lr : tensor<30x1000xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// Tests that a parameter cut into more blocks than there are servers (by
// hand: slicing never does it) is refused, where a placement would put two
// blocks on one server.
module attributes {ps.job = #ps.job<mode = async, trainers = 1, endpoints = ["127.0.0.1:1", "127.0.0.1:2"], slice_var_up = true, split_method = hash_name, min_block_size = 1, geo_push_steps = 100>} {
  train.program @too_many_blocks {
    // expected-error @+1 {{'train.param' op openks-dispatch: has 3 blocks but the job only 2 servers; a server holds at most one block of a parameter}}
    train.param @w : tensor<3x2xf32> init #train.xavier<seed = 1> {ps.slices = array<i64: 1, 1, 1>}
    train.step @step(%dw: tensor<3x2xf32>, %lr: tensor<f32>) {
      train.sgd @w, %dw, %lr : tensor<3x2xf32>, tensor<f32>
      train.yield
    }
  }
}
