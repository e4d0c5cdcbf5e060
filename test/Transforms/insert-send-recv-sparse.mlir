// Tests openks-insert-send-recv on a sparse table: for now its row-sparse
// gradient is scattered dense before the split and the sends, which gives
// the servers the row-sparse update only for optimizers that leave zero
// rows alone (sgd, adagrad); a lazy optimizer is refused, naming the table.
// RUN: split-file %s %t
// RUN: openks-opt %t/adagrad.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s
// RUN: not openks-opt %t/adam.mlir --openks-build-servers --openks-insert-send-recv 2>&1 | FileCheck %s --check-prefix=LAZY

//--- adagrad.mlir
// CHECK-LABEL: train.step @step
// CHECK:       %[[ROWS:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {{.*}} -> !train.rows<tensor<100x8xf32>>
// CHECK-NEXT:  %[[DENSE:.*]] = train.rows_to_dense %[[ROWS]] : !train.rows<tensor<100x8xf32>> -> tensor<100x8xf32>
// CHECK-NEXT:  %[[PARTS:.*]]:2 = ps.split %[[DENSE]] rows [50, 50]
// CHECK-NEXT:  ps.send grad %[[PARTS]]#0 to @ps0::@table.block0 : tensor<50x8xf32>
// CHECK-NEXT:  ps.send grad %[[PARTS]]#1 to @ps1::@table.block1 : tensor<50x8xf32>
// CHECK-NEXT:  ps.send_barrier [@ps0, @ps1]
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8, geo_push_steps = 100>} {
  train.program @p {
    train.param @table : tensor<100x8xf32> init #train.xavier<seed = 1> sparse {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 50, 50>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @table.moment : tensor<100x8xf32> init #train.constant<0.0> frozen
    train.step @step(%ids: tensor<?xi64>) -> tensor<f32> {
      %t = train.read @table {train.role = #train.role<forward>} : tensor<100x8xf32>
      %e = train.embedding %t, %ids {train.role = #train.role<forward>} : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
      %loss = train.mean %e {train.role = #train.role<forward>} : (tensor<?x8xf32>) -> tensor<f32>
      %one = train.fill 1.0 {train.role = #train.role<backward>} : tensor<f32>
      %de = train.mean_grad %e, %one {train.role = #train.role<backward>} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
      %dt = train.embedding_grad %ids, %de {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x8xf32>) -> !train.rows<tensor<100x8xf32>>
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.adagrad @table, %dt, %lr moment @table.moment {train.role = #train.role<optimize>} : !train.rows<tensor<100x8xf32>>, tensor<f32>
      train.yield %loss : tensor<f32>
    }
  }
}

//--- adam.mlir
// LAZY: adam.mlir:4:5: error: sparse table @table is updated lazily by 'train.adam' (only the rows a step looks up), which parameter servers cannot do yet in async mode: use sgd or adagrad, geo mode, or a dense table
module attributes {ps.job = #ps.job<mode = async, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8, geo_push_steps = 100>} {
  train.program @p {
    train.param @table : tensor<100x8xf32> init #train.xavier<seed = 1> sparse {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 50, 50>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @table.m1 : tensor<100x8xf32> init #train.constant<0.0> frozen
    train.param @table.m2 : tensor<100x8xf32> init #train.constant<0.0> frozen
    train.param @table.p1 : tensor<f32> init #train.constant<0.9> frozen
    train.param @table.p2 : tensor<f32> init #train.constant<0.999> frozen
    train.step @step(%ids: tensor<?xi64>) -> tensor<f32> {
      %t = train.read @table {train.role = #train.role<forward>} : tensor<100x8xf32>
      %e = train.embedding %t, %ids {train.role = #train.role<forward>} : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
      %loss = train.mean %e {train.role = #train.role<forward>} : (tensor<?x8xf32>) -> tensor<f32>
      %one = train.fill 1.0 {train.role = #train.role<backward>} : tensor<f32>
      %de = train.mean_grad %e, %one {train.role = #train.role<backward>} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
      %dt = train.embedding_grad %ids, %de {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x8xf32>) -> !train.rows<tensor<100x8xf32>>
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.adam @table, %dt, %lr moments(@table.m1, @table.m2) beta_pows(@table.p1, @table.p2) {train.role = #train.role<optimize>} : !train.rows<tensor<100x8xf32>>, tensor<f32>
      train.yield %loss : tensor<f32>
    }
  }
}
