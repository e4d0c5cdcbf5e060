// Tests openks-append-optimizer on row-sparse gradients: an optimizer takes
// one as it is, and a clip or a regularizer, which act on the whole table,
// first scatter it into a dense tensor, with a warning.
// RUN: split-file %s %t
// RUN: openks-opt %t/plain.mlir --openks-append-optimizer="optimizer=adam" | FileCheck %s --check-prefix=PLAIN
// RUN: openks-opt %t/plain.mlir --openks-append-optimizer="optimizer=ftrl" | FileCheck %s --check-prefix=FTRL
// RUN: openks-opt %t/plain.mlir --openks-append-optimizer="weight-decay=0.01" 2>&1 | FileCheck %s --check-prefix=DECAY
// RUN: openks-opt %t/plain.mlir --openks-append-optimizer="clip-global-norm=1.0" 2>&1 | FileCheck %s --check-prefix=GLOBAL
// RUN: openks-opt %t/clip.mlir --openks-append-optimizer -verify-diagnostics | FileCheck %s --check-prefix=CLIP

//--- plain.mlir
// PLAIN:      train.step @step(%[[IDS:.*]]: tensor<?xi64>, %[[DE:.*]]: tensor<?x4xf32>
// PLAIN-NEXT: %[[G:.*]] = train.embedding_grad %[[IDS]], %[[DE]] : (tensor<?xi64>, tensor<?x4xf32>) -> !train.rows<tensor<10x4xf32>>
// PLAIN-NEXT: %[[LR:.*]] = train.read @learning_rate
// PLAIN-NEXT: train.adam @table, %[[G]], %[[LR]] moments(@table.moment1, @table.moment2) beta_pows(@table.beta1_pow, @table.beta2_pow) {{.*}} : !train.rows<tensor<10x4xf32>>, tensor<f32>
// FTRL:       train.ftrl @table, %{{.*}}, %{{.*}} accumulators(@table.squared, @table.linear) {{.*}} : !train.rows<tensor<10x4xf32>>, tensor<f32>
// DECAY:      warning: @table is marked sparse, but its update is dense: regularization decays every row of the table
// DECAY:      %[[G:.*]] = train.embedding_grad
// DECAY:      %[[D:.*]] = train.rows_to_dense %[[G]] {train.role = #train.role<optimize>} : !train.rows<tensor<10x4xf32>> -> tensor<10x4xf32>
// DECAY-NEXT: %[[W:.*]] = train.read @table
// DECAY-NEXT: %[[S:.*]] = train.scale %[[W]] by 1.000000e-02
// DECAY-NEXT: %[[SUM:.*]] = train.add %[[D]], %[[S]]
// DECAY-NEXT: train.sgd @table, %[[SUM]], %{{.*}} {{.*}} : tensor<10x4xf32>, tensor<f32>
// GLOBAL:     warning: @table is marked sparse, but its update is dense: the global norm clip scales every row
// GLOBAL:     %[[D:.*]] = train.rows_to_dense %{{.*}} {train.role = #train.role<backward>}
// GLOBAL-NEXT: train.clip_by_global_norm %[[D]] max_norm 1.000000e+00
train.program @p {
  train.param @table : tensor<10x4xf32> init #train.xavier<seed = 1> sparse
  train.step @step(%ids: tensor<?xi64>, %de: tensor<?x4xf32>, %loss: tensor<f32>) -> tensor<f32> {
    %g = train.embedding_grad %ids, %de : (tensor<?xi64>, tensor<?x4xf32>) -> !train.rows<tensor<10x4xf32>>
    train.param_grad @table, %g : !train.rows<tensor<10x4xf32>>
    train.yield %loss : tensor<f32>
  }
}

//--- clip.mlir
// CLIP:      %[[D:.*]] = train.rows_to_dense %{{.*}} {train.role = #train.role<optimize>}
// CLIP-NEXT: train.clip_by_norm %[[D]] max_norm 5.000000e-01
train.program @p {
  // expected-warning @+1 {{is marked sparse, but its update is dense: clipping acts on the whole gradient}}
  train.param @table : tensor<10x4xf32> init #train.xavier<seed = 1> sparse clip_norm 0.5
  train.step @step(%ids: tensor<?xi64>, %de: tensor<?x4xf32>, %loss: tensor<f32>) -> tensor<f32> {
    %g = train.embedding_grad %ids, %de : (tensor<?xi64>, tensor<?x4xf32>) -> !train.rows<tensor<10x4xf32>>
    train.param_grad @table, %g : !train.rows<tensor<10x4xf32>>
    train.yield %loss : tensor<f32>
  }
}
