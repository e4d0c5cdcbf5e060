// Tests openks-append-backward on tables marked `sparse`: their lookups give
// row-sparse gradients (!train.rows), the lookups of one table are summed by
// one train.merge_rows, and a sparse table that is also read otherwise gets
// a dense gradient, with a warning.
// RUN: openks-opt %s -split-input-file --openks-append-backward -verify-diagnostics | FileCheck %s

// Tests a sparse table looked up three times (two embeddings, one pooled
// list) next to a dense one: one merge of the three row-sparse gradients,
// in the order the backward pass reaches the lookups; padding_idx carries
// over; the dense table keeps its dense gradient.
// CHECK-LABEL: train.program @lookups
// CHECK:      %[[P:.*]] = train.embedding_pool_grad sum %{{.*}}, %{{.*}}, %{{.*}} {padding_idx = 0 : i64, train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?xi64>, tensor<?x8xf32>) -> !train.rows<tensor<100x8xf32>>
// CHECK:      %[[T:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x8xf32>) -> !train.rows<tensor<100x8xf32>>
// CHECK:      %[[R:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x8xf32>) -> tensor<10x8xf32>
// CHECK:      %[[H:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x8xf32>) -> !train.rows<tensor<100x8xf32>>
// CHECK-NEXT: %[[SUM:.*]] = train.merge_rows %[[P]], %[[T]], %[[H]] {train.role = #train.role<backward>} : !train.rows<tensor<100x8xf32>>
// CHECK-NEXT: train.param_grad @entities, %[[SUM]] {{.*}} : !train.rows<tensor<100x8xf32>>
// CHECK-NEXT: train.param_grad @relations, %[[R]] {{.*}} : tensor<10x8xf32>
// CHECK-NOT:  train.merge_rows
train.program @lookups {
  train.param @entities : tensor<100x8xf32> init #train.xavier<seed = 1> sparse
  train.param @relations : tensor<10x8xf32> init #train.xavier<seed = 2>
  train.step @step(%h: tensor<?xi64>, %r: tensor<?xi64>, %t: tensor<?xi64>,
                   %ids: tensor<?xi64>, %lengths: tensor<?xi64>) -> tensor<f32> {
    %ent = train.read @entities : tensor<100x8xf32>
    %rel = train.read @relations : tensor<10x8xf32>
    %eh = train.embedding %ent, %h : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %er = train.embedding %rel, %r : (tensor<10x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %et = train.embedding %ent, %t : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %ctx = train.embedding_pool sum %ent, %ids, %lengths {padding_idx = 0 : i64}
        : (tensor<100x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
    %hr = train.add %eh, %er : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %d = train.sub %hr, %et : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %dc = train.mul %d, %ctx : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %loss = train.mean %dc : (tensor<?x8xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests a sparse table that a matmul reads too: its gradient is dense, the
// lookup's row-sparse gradient scattered into it.
// CHECK-LABEL: train.program @mixed
// CHECK:      %[[DX:.*]], %[[DW:.*]] = train.matmul_grad
// CHECK:      %[[E:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x4xf32>) -> !train.rows<tensor<4x4xf32>>
// CHECK-NEXT: %[[D:.*]] = train.rows_to_dense %[[E]] {train.role = #train.role<backward>} : !train.rows<tensor<4x4xf32>> -> tensor<4x4xf32>
// CHECK-NEXT: %[[SUM:.*]] = train.add %[[DW]], %[[D]] {{.*}} : (tensor<4x4xf32>, tensor<4x4xf32>) -> tensor<4x4xf32>
// CHECK-NEXT: train.param_grad @w, %[[SUM]] {{.*}} : tensor<4x4xf32>
train.program @mixed {
  // expected-warning @+1 {{@w is marked sparse, but its gradient is dense: it is read other than by lookups (train.embedding, train.embedding_pool)}}
  train.param @w : tensor<4x4xf32> init #train.xavier<seed = 1> sparse
  train.step @step(%ids: tensor<?xi64>) -> tensor<f32> {
    %w = train.read @w : tensor<4x4xf32>
    %e = train.embedding %w, %ids : (tensor<4x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    %y = train.matmul %e, %w : (tensor<?x4xf32>, tensor<4x4xf32>) -> tensor<?x4xf32>
    %loss = train.mean %y : (tensor<?x4xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
