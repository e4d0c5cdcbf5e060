// Tests the preconditions of the transpile passes: a job, optimizer ops and
// slices before dispatch.
// RUN: split-file %s %t
// RUN: not openks-opt %t/no-job.mlir --openks-slice-variables 2>&1 | FileCheck %s --check-prefix=NOJOB
// RUN: not openks-opt %t/no-optimizer.mlir --openks-slice-variables 2>&1 | FileCheck %s --check-prefix=NOOPT
// RUN: not openks-opt %t/no-slices.mlir --openks-dispatch 2>&1 | FileCheck %s --check-prefix=NOSLICES
// RUN: not openks-opt %t/no-slices.mlir --openks-build-servers 2>&1 | FileCheck %s --check-prefix=UNTAGGED
// RUN: not openks-opt %t/no-placement.mlir --openks-build-servers 2>&1 | FileCheck %s --check-prefix=NOPLACEMENT
// RUN: not openks-opt %t/no-placement.mlir --openks-insert-send-recv 2>&1 | FileCheck %s --check-prefix=NOPLACEMENT2

// NOJOB: error: openks-slice-variables: the module has no 'ps.job'; run openks-configure-job first
// NOOPT: error: openks-slice-variables: no optimizer ops to distribute; run openks-minimize first
// NOSLICES: no-slices.mlir:3:5: error: 'train.param' op has no 'ps.slices'; run openks-slice-variables first
// UNTAGGED: no-slices.mlir:5:7: error: 'train.sgd' op depends on two values from outside its optimize-role ops (gradients), where the transpiler expects one
// NOPLACEMENT: no-placement.mlir:3:5: error: 'train.param' op openks-build-servers needs 'ps.slices' and 'ps.placement'; run openks-slice-variables and openks-dispatch first
// NOPLACEMENT2: error: 'train.param' op openks-insert-send-recv needs 'ps.slices' and 'ps.placement'

//--- no-job.mlir
train.program @p {
}
//--- no-optimizer.mlir
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    train.param @w : tensor<4xf32> init #train.constant<0.0>
  }
}
//--- no-slices.mlir
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    train.param @w : tensor<4xf32> init #train.constant<0.0>
    train.step @step(%g: tensor<4xf32>, %lr: tensor<f32>) {
      train.sgd @w, %g, %lr : tensor<4xf32>, tensor<f32>
      train.yield
    }
  }
}
//--- no-placement.mlir
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:1"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  train.program @p {
    train.param @w : tensor<4xf32> init #train.constant<0.0>
    train.param @lr : tensor<f32> init #train.constant<0.1> frozen
    train.step @step(%g: tensor<4xf32>) {
      %lr = train.read @lr {train.role = #train.role<optimize>} : tensor<f32>
      train.sgd @w, %g, %lr {train.role = #train.role<optimize>} : tensor<4xf32>, tensor<f32>
      train.yield
    }
  }
}
