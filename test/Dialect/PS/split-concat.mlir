// Round-trip tests of ps.split and ps.concat.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @split_concat
// CHECK: %[[S:.*]]:2 = ps.split %{{.*}} rows [392, 392] : tensor<784x256xf32> -> tensor<392x256xf32>, tensor<392x256xf32>
// CHECK: ps.concat %[[S]]#0, %[[S]]#1 : tensor<392x256xf32>, tensor<392x256xf32> -> tensor<784x256xf32>
// CHECK: ps.split %{{.*}} rows [2501, 2501, 2501, 2498] : tensor<10001x7xf32> -> tensor<2501x7xf32>, tensor<2501x7xf32>, tensor<2501x7xf32>, tensor<2498x7xf32>
// CHECK: ps.split %{{.*}} rows [33334, 33334, 33332] : tensor<100000xf32> -> tensor<33334xf32>, tensor<33334xf32>, tensor<33332xf32>
// CHECK: ps.split %{{.*}} rows [3] : tensor<?x4xf32> -> tensor<3x4xf32>
// CHECK: ps.split %{{.*}} rows [6, 4] : !train.rows<tensor<10x3xf32>> -> !train.rows<tensor<6x3xf32>>, !train.rows<tensor<4x3xf32>>
train.program @p {
  train.step @split_concat(%g: tensor<784x256xf32>, %e: tensor<10001x7xf32>, %v: tensor<100000xf32>, %d: tensor<?x4xf32>) {
    %g0, %g1 = ps.split %g rows [392, 392] : tensor<784x256xf32> -> tensor<392x256xf32>, tensor<392x256xf32>
    %w = ps.concat %g0, %g1 : tensor<392x256xf32>, tensor<392x256xf32> -> tensor<784x256xf32>
    %e0, %e1, %e2, %e3 = ps.split %e rows [2501, 2501, 2501, 2498]
        : tensor<10001x7xf32> -> tensor<2501x7xf32>, tensor<2501x7xf32>, tensor<2501x7xf32>, tensor<2498x7xf32>
    %v0, %v1, %v2 = ps.split %v rows [33334, 33334, 33332]
        : tensor<100000xf32> -> tensor<33334xf32>, tensor<33334xf32>, tensor<33332xf32>
    %d0 = ps.split %d rows [3] : tensor<?x4xf32> -> tensor<3x4xf32>
    train.yield
  }
  train.step @split_rows(%ids: tensor<?xi64>, %d: tensor<?x3xf32>) {
    %r = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x3xf32>) -> !train.rows<tensor<10x3xf32>>
    %r0, %r1 = ps.split %r rows [6, 4]
        : !train.rows<tensor<10x3xf32>> -> !train.rows<tensor<6x3xf32>>, !train.rows<tensor<4x3xf32>>
    train.yield
  }
}
