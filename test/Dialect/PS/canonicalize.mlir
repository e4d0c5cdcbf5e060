// Tests that canonicalize and CSE never drop, merge or reorder communication:
// sends, receives and barriers read and write the channel resource.
// RUN: openks-opt %s -split-input-file -canonicalize -cse | FileCheck %s

// Tests that unused receives and sends survive, identical receives are not
// merged, and the sync-mode order send -> barrier -> recv -> barrier stays.
// CHECK-LABEL: train.step @sync_step
// CHECK-NEXT: ps.send %{{.*}} to "127.0.0.1:6170" as "w@GRAD"
// CHECK-NEXT: ps.send %{{.*}} to "127.0.0.1:6170" as "w@GRAD"
// CHECK-NEXT: ps.send_barrier ["127.0.0.1:6170"]
// CHECK-NEXT: %[[A:.*]] = ps.recv "w" from "127.0.0.1:6170"
// CHECK-NEXT: %[[B:.*]] = ps.recv "w" from "127.0.0.1:6170"
// CHECK-NEXT: ps.recv "unused" from "127.0.0.1:6170"
// CHECK-NEXT: ps.fetch_barrier ["127.0.0.1:6170"]
// CHECK-NEXT: train.yield %[[A]], %[[B]]
train.program @p {
  train.step @sync_step(%g: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    ps.send %g to "127.0.0.1:6170" as "w@GRAD" : tensor<4xf32>
    ps.send %g to "127.0.0.1:6170" as "w@GRAD" : tensor<4xf32>
    ps.send_barrier ["127.0.0.1:6170"]
    %a = ps.recv "w" from "127.0.0.1:6170" : tensor<4xf32>
    %b = ps.recv "w" from "127.0.0.1:6170" : tensor<4xf32>
    %unused = ps.recv "unused" from "127.0.0.1:6170" : tensor<4xf32>
    ps.fetch_barrier ["127.0.0.1:6170"]
    train.yield %a, %b : tensor<4xf32>, tensor<4xf32>
  }
}

// -----

// Tests that the pure slicing ops do fold away when unused or duplicated,
// while the sends of their results stay.
// CHECK-LABEL: train.step @slicing
// CHECK-NEXT: %[[S:.*]]:2 = ps.split
// CHECK-NEXT: ps.send %[[S]]#0 to "127.0.0.1:6170" as "w.block0@GRAD"
// CHECK-NEXT: ps.send %[[S]]#1 to "127.0.0.1:6171" as "w.block1@GRAD"
// CHECK-NEXT: train.yield
train.program @p {
  train.step @slicing(%g: tensor<4x2xf32>) {
    %a0, %a1 = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
    %b0, %b1 = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x2xf32>
    %dead = ps.concat %a0, %b1 : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
    ps.send %a0 to "127.0.0.1:6170" as "w.block0@GRAD" : tensor<2x2xf32>
    ps.send %b1 to "127.0.0.1:6171" as "w.block1@GRAD" : tensor<2x2xf32>
    train.yield
  }
}
