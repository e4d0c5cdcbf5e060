// Round-trip tests of row-sparse values: the !train.rows type, the
// embedding gradients that produce it, train.merge_rows,
// train.rows_to_dense and the optimizers and gradient slots that take it;
// the rows a GEO worker finds changed, their ids, and their scatter into a
// parameter.
// RUN: openks-opt %s -split-input-file | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -split-input-file --mlir-print-op-generic | openks-opt -split-input-file | FileCheck %s
// RUN: openks-opt %s -emit-bytecode | openks-opt | FileCheck %s --check-prefix=BYTECODE

// Tests the producers and consumers of a row-sparse table gradient.
// CHECK-LABEL: train.program @rows
// CHECK: train.embedding_grad %{{.*}}, %{{.*}} : (tensor<?x3xi64>, tensor<?x3x16xf32>) -> !train.rows<tensor<1000x16xf32>>
// CHECK: train.embedding_pool_grad mean %{{.*}}, %{{.*}}, %{{.*}} {padding_idx = 0 : i64} : (tensor<?xi64>, tensor<?xi64>, tensor<?x16xf32>) -> !train.rows<tensor<1000x16xf32>>
// CHECK: %[[SUM:.*]] = train.merge_rows %{{.*}}, %{{.*}} : !train.rows<tensor<1000x16xf32>>
// CHECK: train.rows_to_dense %[[SUM]] : !train.rows<tensor<1000x16xf32>> -> tensor<1000x16xf32>
// CHECK: train.scale %[[SUM]] by 5.000000e-01 : !train.rows<tensor<1000x16xf32>>
// CHECK: train.param_grad @table, %[[SUM]] : !train.rows<tensor<1000x16xf32>>
// CHECK: train.adagrad @table, %[[SUM]], %{{.*}} moment @table.moment : !train.rows<tensor<1000x16xf32>>, tensor<f32>
// BYTECODE: train.merge_rows %{{.*}}, %{{.*}} : !train.rows<tensor<1000x16xf32>>
train.program @rows {
  train.param @table : tensor<1000x16xf32> init #train.constant<0.0> sparse
  train.param @table.moment : tensor<1000x16xf32> init #train.constant<0.0> frozen
  train.step @step(%ids: tensor<?x3xi64>, %de: tensor<?x3x16xf32>, %list: tensor<?xi64>,
                   %lengths: tensor<?xi64>, %dp: tensor<?x16xf32>, %lr: tensor<f32>)
      -> tensor<1000x16xf32> {
    %a = train.embedding_grad %ids, %de
        : (tensor<?x3xi64>, tensor<?x3x16xf32>) -> !train.rows<tensor<1000x16xf32>>
    %b = train.embedding_pool_grad mean %list, %lengths, %dp {padding_idx = 0 : i64}
        : (tensor<?xi64>, tensor<?xi64>, tensor<?x16xf32>) -> !train.rows<tensor<1000x16xf32>>
    %sum = train.merge_rows %a, %b : !train.rows<tensor<1000x16xf32>>
    %dense = train.rows_to_dense %sum
        : !train.rows<tensor<1000x16xf32>> -> tensor<1000x16xf32>
    %half = train.scale %sum by 0.5 : !train.rows<tensor<1000x16xf32>>
    train.param_grad @table, %sum : !train.rows<tensor<1000x16xf32>>
    train.adagrad @table, %sum, %lr moment @table.moment
        : !train.rows<tensor<1000x16xf32>>, tensor<f32>
    train.yield %dense : tensor<1000x16xf32>
  }
}

// -----

// CHECK-LABEL: train.program @geo
// CHECK: %[[CHANGE:.*]] = train.changed_rows %{{.*}}, %{{.*}} : tensor<100x8xf32> -> !train.rows<tensor<100x8xf32>>
// CHECK: train.row_ids %[[CHANGE]] : !train.rows<tensor<100x8xf32>> -> tensor<?xi64>
// CHECK: train.scatter_rows %[[CHANGE]] into @table : !train.rows<tensor<100x8xf32>>
// CHECK: train.scatter_rows %[[CHANGE]] into @table.old accumulate : !train.rows<tensor<100x8xf32>>
train.program @geo {
  train.param @table : tensor<100x8xf32> init #train.constant<0.0> sparse
  train.param @table.old : tensor<100x8xf32> init #train.constant<0.0> frozen
  train.step @step() -> tensor<?xi64> {
    %local = train.read @table : tensor<100x8xf32>
    %old = train.read @table.old : tensor<100x8xf32>
    %change = train.changed_rows %local, %old
        : tensor<100x8xf32> -> !train.rows<tensor<100x8xf32>>
    %ids = train.row_ids %change : !train.rows<tensor<100x8xf32>> -> tensor<?xi64>
    train.scatter_rows %change into @table : !train.rows<tensor<100x8xf32>>
    train.scatter_rows %change into @table.old accumulate
        : !train.rows<tensor<100x8xf32>>
    train.yield %ids : tensor<?xi64>
  }
}

// -----

// Tests that every optimizer takes a row-sparse gradient, of f64 rows too.
// CHECK-LABEL: train.program @optimizers
// CHECK: train.sgd @w, %{{.*}}, %{{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
// CHECK: train.momentum @w, {{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
// CHECK: train.adam @w, {{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
// CHECK: train.rmsprop @w, {{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
// CHECK: train.decayed_adagrad @w, {{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
// CHECK: train.ftrl @w, {{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
// CHECK: train.adamax @w, {{.*}} : !train.rows<tensor<8x2xf64>>, tensor<f64>
train.program @optimizers {
  train.param @w : tensor<8x2xf64> init #train.constant<0.0> sparse
  train.param @w.a : tensor<8x2xf64> init #train.constant<0.0> frozen
  train.param @w.b : tensor<8x2xf64> init #train.constant<0.0> frozen
  train.param @w.p1 : tensor<f64> init #train.constant<0.9> frozen
  train.param @w.p2 : tensor<f64> init #train.constant<0.999> frozen
  train.step @step(%ids: tensor<?xi64>, %dw: tensor<?x2xf64>, %lr: tensor<f64>) -> tensor<f64> {
    %g = train.embedding_grad %ids, %dw
        : (tensor<?xi64>, tensor<?x2xf64>) -> !train.rows<tensor<8x2xf64>>
    train.sgd @w, %g, %lr : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.momentum @w, %g, %lr velocity @w.a : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.adam @w, %g, %lr moments(@w.a, @w.b) beta_pows(@w.p1, @w.p2)
        : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.rmsprop @w, %g, %lr mean_square @w.a moment @w.b
        : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.decayed_adagrad @w, %g, %lr moment @w.a
        : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.ftrl @w, %g, %lr accumulators(@w.a, @w.b)
        : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.adamax @w, %g, %lr moment @w.a inf_norm @w.b beta1_pow @w.p1
        : !train.rows<tensor<8x2xf64>>, tensor<f64>
    train.yield %lr : tensor<f64>
  }
}
