// Round-trip tests of sequence_pool, embedding_pool and their grad ops.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --verify-roundtrip > /dev/null

// Tests each pool type over rows of any rank, and the grad op.
// CHECK-LABEL: train.step @sequence_pool
// CHECK: train.sequence_pool sum %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
// CHECK: train.sequence_pool mean %{{.*}}, %{{.*}} : (tensor<?x2x3xf32>, tensor<4xi64>) -> tensor<4x2x3xf32>
// CHECK: train.sequence_pool sqrt %{{.*}}, %{{.*}} : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
// CHECK: train.sequence_pool_grad sum %{{.*}}, %{{.*}}, %{{.*}} : (tensor<?x16xf32>, tensor<?xi64>, tensor<?x16xf32>) -> tensor<?x16xf32>
train.program @p {
  train.step @sequence_pool(%rows: tensor<?x16xf32>, %cube: tensor<?x2x3xf32>, %flat: tensor<?xf32>,
                            %lengths: tensor<?xi64>, %four: tensor<4xi64>, %d: tensor<?x16xf32>) {
    %a = train.sequence_pool sum %rows, %lengths : (tensor<?x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    %b = train.sequence_pool mean %cube, %four : (tensor<?x2x3xf32>, tensor<4xi64>) -> tensor<4x2x3xf32>
    %c = train.sequence_pool sqrt %flat, %lengths : (tensor<?xf32>, tensor<?xi64>) -> tensor<?xf32>
    %dr = train.sequence_pool_grad sum %rows, %lengths, %d
        : (tensor<?x16xf32>, tensor<?xi64>, tensor<?x16xf32>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

// Tests the fused pooling of embedding rows, with padding, and its grad op.
// CHECK-LABEL: train.step @embedding_pool
// CHECK: %[[P:.*]] = train.embedding_pool mean %{{.*}}, %[[IDS:.*]], %[[LEN:.*]] {padding_idx = 0 : i64} : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
// CHECK: train.embedding_pool_grad mean %[[IDS]], %[[LEN]], %[[P]] {padding_idx = 0 : i64} : (tensor<?xi64>, tensor<?xi64>, tensor<?x16xf32>) -> tensor<1000x16xf32>
train.program @p {
  train.param @table : tensor<1000x16xf32> init #train.xavier<seed = 1>
  train.step @embedding_pool(%ids: tensor<?xi64>, %lengths: tensor<?xi64>) {
    %t = train.read @table : tensor<1000x16xf32>
    %p = train.embedding_pool mean %t, %ids, %lengths {padding_idx = 0 : i64}
        : (tensor<1000x16xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x16xf32>
    %dt = train.embedding_pool_grad mean %ids, %lengths, %p {padding_idx = 0 : i64}
        : (tensor<?xi64>, tensor<?xi64>, tensor<?x16xf32>) -> tensor<1000x16xf32>
    train.yield
  }
}
