// Tests openks-slice-variables against the worked examples of Paddle's
// slice_variable (min_block_size 8192): block size from the element count,
// at most one block per server, rounded up to whole rows, then recounted.
// RUN: openks-opt %s -split-input-file --openks-slice-variables | FileCheck %s

// CHECK-LABEL: train.program @two_servers
// CHECK: train.param @w {{.*}} {ps.slices = array<i64: 392, 392>}
// CHECK: train.param @b {{.*}} {ps.slices = array<i64: 512>}
// CHECK: train.param @lr
// CHECK-NOT: ps.slices
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @two_servers {
    train.param @w : tensor<784x512xf32> init #train.xavier<seed = 1>
    train.param @b : tensor<512xf32> init #train.constant<0.0>
    train.param @lr : tensor<f32> init #train.constant<0.1> frozen
    train.step @step(%dw: tensor<784x512xf32>, %db: tensor<512xf32>) {
      %lr = train.read @lr : tensor<f32>
      train.sgd @b, %db, %lr : tensor<512xf32>, tensor<f32>
      train.sgd @w, %dw, %lr : tensor<784x512xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// 70007 elements over 4 servers: 17502 rounds up to 17507 (2501 rows of 7);
// 100000 elements over the same 4 servers: 25000 each; 3000 elements stay
// whole (fewer than one minimum block).
// CHECK-LABEL: train.program @four_servers
// CHECK: train.param @e {{.*}} {ps.slices = array<i64: 2501, 2501, 2501, 2498>}
// CHECK: train.param @v {{.*}} {ps.slices = array<i64: 25000, 25000, 25000, 25000>}
// CHECK: train.param @s {{.*}} {ps.slices = array<i64: 1000>}
module attributes {ps.job = #ps.job<mode = async, trainers = 1, endpoints = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3", "127.0.0.1:4"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @four_servers {
    train.param @e : tensor<10001x7xf32> init #train.xavier<seed = 1>
    train.param @v : tensor<100000xf32> init #train.constant<0.0>
    train.param @s : tensor<1000x3xf32> init #train.constant<0.0>
    train.step @step(%de: tensor<10001x7xf32>, %dv: tensor<100000xf32>, %ds: tensor<1000x3xf32>, %lr: tensor<f32>) {
      train.sgd @e, %de, %lr : tensor<10001x7xf32>, tensor<f32>
      train.sgd @v, %dv, %lr : tensor<100000xf32>, tensor<f32>
      train.sgd @s, %ds, %lr : tensor<1000x3xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// 100000 elements over 3 servers: 33334, 33334, 33332. With slice_var_up
// off every variable is one block; a larger minimum block splits less.
// CHECK-LABEL: train.program @three_servers
// CHECK: train.param @v {{.*}} {ps.slices = array<i64: 33334, 33334, 33332>}
// CHECK-LABEL: train.program @unsliced
// CHECK: train.param @w {{.*}} {ps.slices = array<i64: 784>}
// CHECK-LABEL: train.program @big_blocks
// CHECK: train.param @w {{.*}} {ps.slices = array<i64: 392, 392>}
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @three_servers {
    train.param @v : tensor<100000xf32> init #train.constant<0.0>
    train.step @step(%dv: tensor<100000xf32>, %lr: tensor<f32>) {
      train.sgd @v, %dv, %lr : tensor<100000xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"], slice_var_up = false, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @unsliced {
    train.param @w : tensor<784x512xf32> init #train.xavier<seed = 1>
    train.step @step(%dw: tensor<784x512xf32>, %lr: tensor<f32>) {
      train.sgd @w, %dw, %lr : tensor<784x512xf32>, tensor<f32>
      train.yield
    }
  }
}

// -----

// 401408 elements with blocks of at least 200000: at most 2 blocks.
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:1", "127.0.0.1:2", "127.0.0.1:3"], slice_var_up = true, split_method = round_robin, min_block_size = 200000, geo_push_steps = 100>} {
  train.program @big_blocks {
    train.param @w : tensor<784x512xf32> init #train.xavier<seed = 1>
    train.step @step(%dw: tensor<784x512xf32>, %lr: tensor<f32>) {
      train.sgd @w, %dw, %lr : tensor<784x512xf32>, tensor<f32>
      train.yield
    }
  }
}
