// Tests openks-build-servers and openks-insert-send-recv on a sparse table:
// the worker splits its row-sparse gradient by the blocks' rows and sends
// each server only the rows it owns; each block's update region receives
// rows, which a sync server averages as rows, and every optimizer (the lazy
// ones too) updates only those rows.
// RUN: split-file %s %t
// RUN: openks-opt %t/adagrad.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s
// RUN: openks-opt %t/adam.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s --check-prefix=LAZY

//--- adagrad.mlir
// CHECK-LABEL: train.step @step
// CHECK:       %[[ROWS:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {{.*}} -> !train.rows<tensor<100x8xf32>>
// CHECK-NEXT:  %[[PARTS:.*]]:2 = ps.split %[[ROWS]] rows [50, 50] : !train.rows<tensor<100x8xf32>> -> !train.rows<tensor<50x8xf32>>, !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:  ps.send grad %[[PARTS]]#0 to @ps0::@table.block0 : !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:  ps.send grad %[[PARTS]]#1 to @ps1::@table.block1 : !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:  ps.send_barrier [@ps0, @ps1]
// CHECK-LABEL: ps.update @table.block0 on grad (%{{.*}}: !train.rows<tensor<50x8xf32>>)
// CHECK-NEXT:    %[[AVG:.*]] = train.scale %{{.*}} by 5.000000e-01 {{.*}} : !train.rows<tensor<50x8xf32>>
// CHECK:         train.adagrad @table.block0, %[[AVG]], %{{.*}} moment @table.moment.block0 {{.*}} : !train.rows<tensor<50x8xf32>>, tensor<f32>
// CHECK-LABEL: ps.update @table.block1 on grad (%{{.*}}: !train.rows<tensor<50x8xf32>>)
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
// An async server applies each trainer's rows as they come, unaveraged.
// LAZY-LABEL: train.step @step
// LAZY:         ps.split %{{.*}} rows [50, 50] : !train.rows<tensor<100x8xf32>>
// LAZY-NEXT:    ps.send grad %{{.*}}#0 to @ps0::@table.block0 : !train.rows<tensor<50x8xf32>>
// LAZY-NEXT:    ps.send grad %{{.*}}#1 to @ps1::@table.block1 : !train.rows<tensor<50x8xf32>>
// LAZY-NEXT:    ps.recv @ps0::@table.block0
// LAZY:       ps.update @table.block0 on grad (%[[G:.*]]: !train.rows<tensor<50x8xf32>>)
// LAZY-NOT:     train.scale
// LAZY:         train.adam @table.block0, %[[G]], %{{.*}} moments(@table.m1.block0, @table.m2.block0) beta_pows(@table.p1, @table.p2) {{.*}} : !train.rows<tensor<50x8xf32>>, tensor<f32>
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
