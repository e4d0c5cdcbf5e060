// Tests that parameter symbols resolve within their own role program: a
// worker parameter and a server block may share a name and a different type,
// and reads, writes and updates in each see their own.
// RUN: openks-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// CHECK-LABEL: ps.worker @worker
// CHECK: train.read @w : tensor<4x2xf32>
// CHECK-LABEL: ps.server @ps0
// CHECK: train.read @w : tensor<2x2xf32>
ps.worker @worker {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step() -> tensor<4x2xf32> {
    %w = train.read @w : tensor<4x2xf32>
    train.yield %w : tensor<4x2xf32>
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
  ps.block @w : tensor<2x2xf32> init #train.constant<0.0>
  ps.update @w on "w@GRAD" (%g: tensor<2x2xf32>) {
    %w = train.read @w : tensor<2x2xf32>
    %s = train.add %w, %g : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
    train.write %s to @w : tensor<2x2xf32>
  }
}

// -----

// Tests that a server cannot see the worker's parameters.
ps.worker @worker {
  train.param @only_on_worker : tensor<4xf32> init #train.constant<0.0>
  train.step @step() {
    train.yield
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  ps.update @w on "w@GRAD" (%g: tensor<4xf32>) {
    // expected-error @+1 {{refers to @only_on_worker, which is not defined in an enclosing symbol table}}
    %v = train.read @only_on_worker : tensor<4xf32>
  }
}
