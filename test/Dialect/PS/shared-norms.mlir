// Round-trip tests of norms that servers share: a sync job clipping by the
// global norm of its gradients, which two servers hold, with each server's
// `ps.norm`, its updates' `ps.clip_by_global_norm` and the worker's
// `ps.reduce_norm` between the send barrier and the receives.
// RUN: openks-opt %s | openks-opt | FileCheck %s
// RUN: openks-opt %s --mlir-print-op-generic | openks-opt | FileCheck %s

// CHECK-LABEL: train.step @step
// CHECK:       ps.send_barrier [@ps0, @ps1]
// CHECK-NEXT:  ps.reduce_norm @"@GLOBAL_NORM@" over [@ps0, @ps1]
// CHECK-NEXT:  ps.recv @ps0::@w.block0
// CHECK-LABEL: ps.server @ps0
// CHECK:       ps.norm @"@GLOBAL_NORM@"
// CHECK:       ps.update @w.block0 on grad (%[[G:.*]]: tensor<2x2xf32>) {
// CHECK-NEXT:    %[[A:.*]] = train.scale %[[G]] by 5.000000e-01
// CHECK-NEXT:    %[[C:.*]] = ps.clip_by_global_norm %[[A]] norm @"@GLOBAL_NORM@" max_norm 5.000000e+00 : tensor<2x2xf32>
// CHECK-NEXT:    %[[LR:.*]] = train.read @lr
// CHECK-NEXT:    train.sgd @w.block0, %[[C]], %[[LR]]
// CHECK-LABEL: ps.server @ps1
// CHECK:       ps.norm @"@GLOBAL_NORM@"
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
      %c = ps.clip_by_global_norm %a norm @"@GLOBAL_NORM@" max_norm 5.0 : tensor<2x2xf32>
      %lr = train.read @lr : tensor<f32>
      train.sgd @w.block1, %c, %lr : tensor<2x2xf32>, tensor<f32>
    }
  }
}
