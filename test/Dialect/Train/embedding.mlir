// Round-trip tests of train.embedding and train.embedding_grad.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s

// CHECK-LABEL: train.step @embedding
// CHECK: train.embedding %{{.*}}, %{{.*}} : (tensor<1000x16xf32>, tensor<?x3xi64>) -> tensor<?x3x16xf32>
// CHECK: train.embedding %{{.*}}, %{{.*}} {padding_idx = 0 : i64} : (tensor<1000x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
// CHECK: train.embedding_grad %{{.*}}, %{{.*}} : (tensor<?x3xi64>, tensor<?x3x16xf32>) -> tensor<1000x16xf32>
// CHECK: train.embedding_grad %{{.*}}, %{{.*}} {padding_idx = 0 : i64} : (tensor<?xi64>, tensor<?x16xf32>) -> tensor<1000x16xf32>
train.program @p {
  train.param @table : tensor<1000x16xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 5>
  train.step @embedding(%ids: tensor<?x3xi64>, %slot: tensor<?xi64>) {
    %table = train.read @table : tensor<1000x16xf32>
    %e = train.embedding %table, %ids : (tensor<1000x16xf32>, tensor<?x3xi64>) -> tensor<?x3x16xf32>
    %p = train.embedding %table, %slot {padding_idx = 0 : i64} : (tensor<1000x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    %dt = train.embedding_grad %ids, %e : (tensor<?x3xi64>, tensor<?x3x16xf32>) -> tensor<1000x16xf32>
    %dp = train.embedding_grad %slot, %p {padding_idx = 0 : i64} : (tensor<?xi64>, tensor<?x16xf32>) -> tensor<1000x16xf32>
    train.yield
  }
}
