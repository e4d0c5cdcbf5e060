// Tests that parameter symbols resolve within their own role program: a
// worker parameter and a server block may share a name and a different type,
// and reads, writes and updates in each see their own.
// RUN: openks-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: ps.worker @worker
// CHECK: train.read @w : tensor<4x2xf32>
// CHECK-LABEL: ps.server @ps0
// CHECK: train.read @w : tensor<2x2xf32>
module attributes {ps.job = #ps.job<mode = async, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @worker main @step startup @startup {
    train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
    train.step @step(%g: tensor<2x2xf32>) -> tensor<4x2xf32> {
      ps.send grad %g to @ps0::@w : tensor<2x2xf32>
      %w = train.read @w : tensor<4x2xf32>
      train.yield %w : tensor<4x2xf32>
    }
    train.step @startup() {
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
    ps.block @w : tensor<2x2xf32> init #train.constant<0.0>
    ps.update @w on grad (%g: tensor<2x2xf32>) {
      %w = train.read @w : tensor<2x2xf32>
      %s = train.add %w, %g : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
      train.write %s to @w : tensor<2x2xf32>
    }
  }
}

// -----

// Tests that a server cannot see the worker's parameters.
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  ps.update @w on grad (%g: tensor<4xf32>) {
    // expected-error @+1 {{refers to @only_on_worker, which is not defined in an enclosing symbol table}}
    %v = train.read @only_on_worker : tensor<4xf32>
  }
}
