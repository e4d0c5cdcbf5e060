// Tests openks-build-servers and openks-insert-send-recv on sparse tables.
// A worker holds no copy of a table it only looks up: before the lookups
// it routes their ids to the table's blocks (deduplicated, block-local),
// prefetches exactly those rows and looks them up in the rows it got; it
// receives nothing of the table after the step. It splits its row-sparse
// gradient by the blocks' rows and sends each server only the rows it
// owns; each block's update region receives rows, which a sync server
// averages as rows, and every optimizer (the lazy ones too) updates only
// those rows. A sync startup still passes every server's fetch barrier, so
// that each opens its first step; an async one has nothing to receive. A
// table also read whole stays a whole copy on the worker. A GEO push sends
// only the rows that changed, and fetches them back.
// RUN: split-file %s %t
// RUN: openks-opt %t/adagrad.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s
// RUN: openks-opt %t/adam.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s --check-prefix=LAZY
// RUN: openks-opt %t/held.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s --check-prefix=HELD
// RUN: openks-opt %t/geo.mlir --openks-build-servers --openks-insert-send-recv | FileCheck %s --check-prefix=GEO

//--- adagrad.mlir
// CHECK-LABEL: ps.worker @p
// CHECK-NOT:     train.param @table
// CHECK:       train.step @step(%[[IDS:.*]]: tensor<?xi64>)
// CHECK-NEXT:    %[[LOCAL:.*]]:2 = ps.route_ids %[[IDS]] for @table rows [50, 50] : tensor<?xi64> -> tensor<?xi64>, tensor<?xi64>
// CHECK-NEXT:    %[[R0:.*]] = ps.prefetch %[[LOCAL]]#0 from @ps0::@table.block0 : tensor<?xi64> -> !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:    %[[R1:.*]] = ps.prefetch %[[LOCAL]]#1 from @ps1::@table.block1 : tensor<?xi64> -> !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:    %[[ROWS:.*]] = ps.concat %[[R0]], %[[R1]] : !train.rows<tensor<50x8xf32>>, !train.rows<tensor<50x8xf32>> -> !train.rows<tensor<100x8xf32>>
// CHECK-NEXT:    train.embedding %[[ROWS]], %[[IDS]] {{.*}} : (!train.rows<tensor<100x8xf32>>, tensor<?xi64>) -> tensor<?x8xf32>
// CHECK:         %[[GRAD:.*]] = train.embedding_grad %{{.*}}, %{{.*}} {{.*}} -> !train.rows<tensor<100x8xf32>>
// CHECK-NEXT:    %[[PARTS:.*]]:2 = ps.split %[[GRAD]] rows [50, 50] : !train.rows<tensor<100x8xf32>> -> !train.rows<tensor<50x8xf32>>, !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:    ps.send grad %[[PARTS]]#0 to @ps0::@table.block0 : !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:    ps.send grad %[[PARTS]]#1 to @ps1::@table.block1 : !train.rows<tensor<50x8xf32>>
// CHECK-NEXT:    ps.send_barrier [@ps0, @ps1]
// CHECK-NEXT:    ps.fetch_barrier [@ps0, @ps1]
// CHECK-NEXT:    train.yield
// CHECK-LABEL: train.step @startup()
// CHECK-NEXT:    ps.fetch_barrier [@ps0, @ps1]
// CHECK-NEXT:    train.yield
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
// LAZY-NEXT:    train.yield
// LAZY-LABEL: train.step @startup()
// LAZY-NEXT:    train.yield
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

//--- held.mlir
// The step also fetches the whole table: the worker keeps its copy.
// HELD-LABEL: ps.worker @p
// HELD:         train.param @table : tensor<100x8xf32>
// HELD-NOT:     ps.prefetch
// HELD:         train.embedding %{{.*}}, %{{.*}} {{.*}} : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
// HELD:         ps.send_barrier [@ps0, @ps1]
// HELD-NEXT:    ps.recv @ps0::@table.block0 : tensor<50x8xf32>
// HELD-NEXT:    ps.recv @ps1::@table.block1 : tensor<50x8xf32>
module attributes {ps.job = #ps.job<mode = sync, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8, geo_push_steps = 100>} {
  train.program @p {
    train.param @table : tensor<100x8xf32> init #train.xavier<seed = 1> sparse {ps.placement = array<i64: 0, 1>, ps.slices = array<i64: 50, 50>}
    train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen
    train.param @table.moment : tensor<100x8xf32> init #train.constant<0.0> frozen
    train.step @step(%ids: tensor<?xi64>) -> (tensor<f32>, tensor<100x8xf32>) {
      %t = train.read @table {train.role = #train.role<forward>} : tensor<100x8xf32>
      %e = train.embedding %t, %ids {train.role = #train.role<forward>} : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
      %loss = train.mean %e {train.role = #train.role<forward>} : (tensor<?x8xf32>) -> tensor<f32>
      %one = train.fill 1.0 {train.role = #train.role<backward>} : tensor<f32>
      %de = train.mean_grad %e, %one {train.role = #train.role<backward>} : (tensor<?x8xf32>, tensor<f32>) -> tensor<?x8xf32>
      %dt = train.embedding_grad %ids, %de {train.role = #train.role<backward>} : (tensor<?xi64>, tensor<?x8xf32>) -> !train.rows<tensor<100x8xf32>>
      %lr = train.read @learning_rate {train.role = #train.role<optimize>} : tensor<f32>
      train.adagrad @table, %dt, %lr moment @table.moment {train.role = #train.role<optimize>} : !train.rows<tensor<100x8xf32>>, tensor<f32>
      train.yield %loss, %t : tensor<f32>, tensor<100x8xf32>
    }
  }
}

//--- geo.mlir
// A GEO worker trains its own copy of the table; a push sends, of the rows
// that changed since the last one, the trainer's share of the change, and
// fetches the same rows back from the servers, which add the deltas row by
// row.
// GEO-LABEL: train.step @geo_push() {
// GEO-NEXT:    %[[LOCAL:.*]] = train.read @table : tensor<100x8xf32>
// GEO-NEXT:    %[[OLD:.*]] = train.read @table.geo_old : tensor<100x8xf32>
// GEO-NEXT:    %[[CHANGE:.*]] = train.changed_rows %[[LOCAL]], %[[OLD]] : tensor<100x8xf32> -> !train.rows<tensor<100x8xf32>>
// GEO-NEXT:    %[[DELTA:.*]] = train.scale %[[CHANGE]] by 5.000000e-01 : !train.rows<tensor<100x8xf32>>
// GEO-NEXT:    %[[PARTS:.*]]:2 = ps.split %[[DELTA]] rows [50, 50]
// GEO-NEXT:    ps.send delta %[[PARTS]]#0 to @ps0::@table.block0 : !train.rows<tensor<50x8xf32>>
// GEO-NEXT:    ps.send delta %[[PARTS]]#1 to @ps1::@table.block1 : !train.rows<tensor<50x8xf32>>
// GEO-NEXT:    %[[UNSENT:.*]] = train.scale %[[CHANGE]] by 5.000000e-01 : !train.rows<tensor<100x8xf32>>
// GEO-NEXT:    %[[IDS:.*]] = train.row_ids %[[CHANGE]] : !train.rows<tensor<100x8xf32>> -> tensor<?xi64>
// GEO-NEXT:    %[[LOCALIDS:.*]]:2 = ps.route_ids %[[IDS]] for @table rows [50, 50]
// GEO-NEXT:    %[[R0:.*]] = ps.prefetch %[[LOCALIDS]]#0 from @ps0::@table.block0
// GEO-NEXT:    %[[R1:.*]] = ps.prefetch %[[LOCALIDS]]#1 from @ps1::@table.block1
// GEO-NEXT:    %[[SERVER:.*]] = ps.concat %[[R0]], %[[R1]]
// GEO-NEXT:    %[[NEW:.*]] = train.merge_rows %[[SERVER]], %[[UNSENT]] : !train.rows<tensor<100x8xf32>>
// GEO-NEXT:    train.scatter_rows %[[NEW]] into @table : !train.rows<tensor<100x8xf32>>
// GEO-NEXT:    train.scatter_rows %[[SERVER]] into @table.geo_old : !train.rows<tensor<100x8xf32>>
// GEO-NEXT:    train.yield
// GEO:       ps.update @table.block0 on delta (%[[D:.*]]: !train.rows<tensor<50x8xf32>>) {
// GEO-NEXT:    train.scatter_rows %[[D]] into @table.block0 accumulate : !train.rows<tensor<50x8xf32>>
// GEO-NEXT:  }
module attributes {ps.job = #ps.job<mode = geo, trainers = 2, endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"], slice_var_up = true, split_method = round_robin, min_block_size = 8, geo_push_steps = 5>} {
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
