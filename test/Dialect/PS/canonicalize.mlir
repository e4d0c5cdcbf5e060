// Tests that canonicalize and CSE never drop, merge or reorder communication:
// sends, receives and barriers read and write the channel resource.
// RUN: openks-opt %s -split-input-file -canonicalize -cse | FileCheck %s

// Tests that an unused receive survives, identical receives are not merged,
// the pure slicing ops fold away when unused or duplicated while the sends
// of their results stay, and the sync-mode order send -> barrier -> recv ->
// barrier holds.
// CHECK-LABEL: train.step @step
// CHECK-NEXT: %[[S:.*]]:2 = ps.split
// CHECK-NEXT: ps.send grad %[[S]]#0 to @ps0::@w.block0
// CHECK-NEXT: ps.send grad %[[S]]#1 to @ps0::@w.block1
// CHECK-NEXT: ps.send_barrier [@ps0]
// CHECK-NEXT: %[[A:.*]] = ps.recv @ps0::@w.block0
// CHECK-NEXT: %[[B:.*]] = ps.recv @ps0::@w.block0
// CHECK-NEXT: ps.recv @ps0::@w.block1
// CHECK-NEXT: ps.fetch_barrier [@ps0]
// CHECK-NEXT: train.yield %[[A]], %[[B]]
module attributes {ps.job = #ps.job<mode = sync, trainers = 1, endpoints = ["127.0.0.1:6170"], slice_var_up = true, split_method = round_robin, min_block_size = 8192, geo_push_steps = 100>} {
  ps.worker @w main @step startup @startup {
    train.step @step(%g: tensor<4x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>) {
      %a0, %a1 = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      %b0, %b1 = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
      %dead = ps.concat %a0, %b1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
      ps.send grad %a0 to @ps0::@w.block0 : tensor<2x2xf32>
      ps.send grad %b1 to @ps0::@w.block1 : tensor<2x2xf32>
      ps.send_barrier [@ps0]
      %a = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %b = ps.recv @ps0::@w.block0 : tensor<2x2xf32>
      %unused = ps.recv @ps0::@w.block1 : tensor<2x2xf32>
      ps.fetch_barrier [@ps0]
      train.yield %a, %b : tensor<2x2xf32>, tensor<2x2xf32>
    }
    train.step @startup() {
      ps.fetch_barrier [@ps0]
      train.yield
    }
  }
  ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
    ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.constant<0.0>
    ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32> rows [2, 4) init #train.constant<0.0>
    ps.update @w.block0 on grad (%g: tensor<2x2xf32>) {
      train.write %g to @w.block0 : tensor<2x2xf32>
    }
    ps.update @w.block1 on grad (%g: tensor<2x2xf32>) {
      train.write %g to @w.block1 : tensor<2x2xf32>
    }
  }
}
