// Tests that a step with the model ops minimizes and transpiles: the frozen
// step counter of dropout and nce stays on the trainer, which advances it and
// draws with it, and the servers hold and update the trained parameters.
// RUN: openks-opt %s --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2})' | FileCheck %s

// CHECK-LABEL: ps.worker @word2vec
// CHECK:       train.param @step : tensor<i64> init #train.constant<0.000000e+00> frozen
// CHECK:       %[[STEP:.*]] = train.read @step
// CHECK:       train.increment %[[STEP]]
// CHECK:       train.dropout %{{.*}} step %[[STEP]] prob 1.000000e-01 seed 3
// CHECK:       train.nce %{{.*}}, %[[STEP]] num_neg_samples 5
// CHECK:       train.nce_grad %{{.*}}, %[[STEP]], %{{.*}} num_neg_samples 5
// CHECK:       train.dropout_grad %{{.*}} step %[[STEP]]
// CHECK:       ps.send grad
// CHECK-LABEL: ps.server @ps0
// CHECK-NOT:   ps.block @step
// CHECK:       ps.update
// CHECK-LABEL: ps.server @ps1
// CHECK-NOT:   ps.block @step
// CHECK:       ps.update
train.program @word2vec {
  train.param @emb : tensor<100x8xf32> init #train.uniform<min = -0.01, max = 0.01, seed = 1>
  train.param @nce.w : tensor<100x8xf32> init #train.constant<0.0>
  train.param @nce.b : tensor<100xf32> init #train.constant<0.0>
  train.param @step : tensor<i64> init #train.constant<0.0> frozen
  train.step @step_fn(%center: tensor<?xi64>, %context: tensor<?xi64>) -> tensor<f32> {
    %step = train.read @step : tensor<i64>
    %next = train.increment %step : tensor<i64>
    train.write %next to @step : tensor<i64>
    %emb = train.read @emb : tensor<100x8xf32>
    %e = train.embedding %emb, %center : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %h = train.dropout %e step %step prob 0.1 seed 3 : tensor<?x8xf32>
    %w = train.read @nce.w : tensor<100x8xf32>
    %b = train.read @nce.b : tensor<100xf32>
    %cost = train.nce %h, %context, %w, %b, %step num_neg_samples 5 sampler log_uniform seed 1
        : (tensor<?x8xf32>, tensor<?xi64>, tensor<100x8xf32>, tensor<100xf32>, tensor<i64>) -> tensor<?xf32>
    %loss = train.mean %cost : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
