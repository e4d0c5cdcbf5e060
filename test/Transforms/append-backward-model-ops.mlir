// Tests of openks-append-backward on the ops of knowledge-graph, click and
// word2vec models: the grad op each emits, and that ids, lengths, labels and
// step counters take no gradient.
// RUN: openks-opt %s -split-input-file --openks-append-backward | FileCheck %s

// Tests a TransE-style step: the L1 distance of head + relation - tail for a
// positive and a corrupted triple, under a margin loss.
// CHECK-LABEL: train.step @transe
// CHECK:      %[[ONE:.*]] = train.fill 1.000000e+00
// CHECK-NEXT: %[[DL:.*]] = train.mean_grad %[[L:.*]], %[[ONE]]
// CHECK-NEXT: %[[DP:.*]], %[[DN:.*]] = train.margin_loss_grad %[[P:.*]], %[[N:.*]], %[[DL]] margin 1.000000e+00
// CHECK-NEXT: %[[DDN:.*]] = train.p_norm_grad %{{.*}}, %[[N]], %[[DN]] p 1 axis 1
// CHECK-NEXT: %[[DDP:.*]] = train.p_norm_grad %{{.*}}, %[[P]], %[[DP]] p 1 axis 1
// CHECK-NEXT: train.sub_grad %{{.*}}, %{{.*}}, %[[DDN]]
// CHECK-NEXT: train.sub_grad %{{.*}}, %{{.*}}, %[[DDP]]
// CHECK:      train.add_grad
// CHECK:      train.embedding_grad
// CHECK:      train.param_grad @entities
// CHECK-NEXT: train.param_grad @relations
// CHECK-NEXT: train.yield
train.program @p {
  train.param @entities : tensor<100x8xf32> init #train.xavier<seed = 1>
  train.param @relations : tensor<10x8xf32> init #train.xavier<seed = 2>
  train.step @transe(%h: tensor<?xi64>, %r: tensor<?xi64>, %t: tensor<?xi64>, %tc: tensor<?xi64>) -> tensor<f32> {
    %ent = train.read @entities : tensor<100x8xf32>
    %rel = train.read @relations : tensor<10x8xf32>
    %eh = train.embedding %ent, %h : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %er = train.embedding %rel, %r : (tensor<10x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %et = train.embedding %ent, %t : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %ec = train.embedding %ent, %tc : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %hr = train.add %eh, %er : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %dp = train.sub %hr, %et : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %dn = train.sub %hr, %ec : (tensor<?x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
    %pos = train.p_norm %dp p 1 axis 1 : (tensor<?x8xf32>) -> tensor<?xf32>
    %neg = train.p_norm %dn p 1 axis 1 : (tensor<?x8xf32>) -> tensor<?xf32>
    %l = train.margin_loss %pos, %neg margin 1.0 : tensor<?xf32>
    %loss = train.mean %l : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests the unary ops, div, cos_sim and square_error: sqrt and exp get
// their result, the others their input.
// CHECK-LABEL: train.step @unary
// CHECK:      %[[DIN:.*]], %{{.*}} = train.square_error_grad %[[COS:.*]], %{{.*}}, %{{.*}} : tensor<?x1xf32>
// CHECK-NEXT: %[[DA:.*]], %[[DB:.*]] = train.cos_sim_grad %[[A:.*]], %[[B:.*]], %[[DIN]]
// CHECK-NEXT: %{{.*}}, %{{.*}} = train.div_grad %{{.*}}, %{{.*}}, %[[DB]]
// CHECK:      train.softsign_grad %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK:      train.log_grad %[[EXP:.*]], %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: train.exp_grad %[[EXP]], %{{.*}} : tensor<?x4xf32>
// CHECK:      train.sqrt_grad %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: train.square_grad %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK-NEXT: train.abs_grad %{{.*}}, %{{.*}} : tensor<?x4xf32>
// CHECK:      train.param_grad @w
train.program @p {
  train.param @w : tensor<4xf32> init #train.uniform<min = 0.5, max = 1.0, seed = 1>
  train.step @unary(%x: tensor<?x4xf32>, %y: tensor<?x1xf32>) -> tensor<f32> {
    %w = train.read @w : tensor<4xf32>
    %xw = train.mul %x, %w : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    %a = train.abs %xw : tensor<?x4xf32>
    %s = train.square %a : tensor<?x4xf32>
    %r = train.sqrt %s : tensor<?x4xf32>
    %e = train.exp %r : tensor<?x4xf32>
    %l = train.log %e : tensor<?x4xf32>
    %t = train.softsign %l : tensor<?x4xf32>
    %q = train.div %t, %w : (tensor<?x4xf32>, tensor<4xf32>) -> tensor<?x4xf32>
    %c = train.cos_sim %t, %q : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x1xf32>
    %err = train.square_error %c, %y : tensor<?x1xf32>
    %loss = train.mean %err : (tensor<?x1xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests pooled id lists: the lengths take no gradient, and the tables get
// theirs through sequence_pool_grad and embedding_grad, or through
// embedding_pool_grad.
// CHECK-LABEL: train.step @pooling
// CHECK:      train.embedding_pool_grad sqrt %[[IDS2:.*]], %[[LEN2:.*]], %{{.*}} {padding_idx = 0 : i64, {{.*}}} : (tensor<?xi64>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<50x4xf32>
// CHECK:      %[[DE:.*]] = train.sequence_pool_grad mean %[[E:.*]], %[[LEN:.*]], %{{.*}} {{.*}}: (tensor<?x4xf32>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: train.embedding_grad %{{.*}}, %[[DE]]
// CHECK:      train.param_grad @a
// CHECK-NEXT: train.param_grad @b
train.program @p {
  train.param @a : tensor<50x4xf32> init #train.xavier<seed = 1>
  train.param @b : tensor<50x4xf32> init #train.xavier<seed = 2>
  train.step @pooling(%ids: tensor<?xi64>, %len: tensor<?xi64>, %ids2: tensor<?xi64>, %len2: tensor<?xi64>) -> tensor<f32> {
    %a = train.read @a : tensor<50x4xf32>
    %e = train.embedding %a, %ids : (tensor<50x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    %p = train.sequence_pool mean %e, %len : (tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    %b = train.read @b : tensor<50x4xf32>
    %q = train.embedding_pool sqrt %b, %ids2, %len2 {padding_idx = 0 : i64}
        : (tensor<50x4xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x4xf32>
    %s = train.add %p, %q : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %loss = train.mean %s : (tensor<?x4xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests a word2vec step: dropout in training redraws its mask from the same
// step counter, nce differentiates its input, weight and bias but not the
// labels or the counter, and the counter advances in the forward pass.
// CHECK-LABEL: train.step @word2vec
// CHECK:      %[[STEP:.*]] = train.read @step {train.role = #train.role<forward>} : tensor<i64>
// CHECK:      %[[DH:.*]], %[[DW:.*]], %[[DB:.*]] = train.nce_grad %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[STEP]], %{{.*}} num_neg_samples 4 sampler log_uniform seed 3
// CHECK-NEXT: %[[DE:.*]] = train.dropout_grad %[[DH]] step %[[STEP]] prob 2.500000e-01 seed 5 upscale_in_train
// CHECK-NEXT: train.embedding_grad %{{.*}}, %[[DE]]
// CHECK:      train.param_grad @emb
// CHECK-NEXT: train.param_grad @nce.b, %[[DB]]
// CHECK-NEXT: train.param_grad @nce.w, %[[DW]]
// CHECK-NOT:  train.param_grad @step
train.program @p {
  train.param @emb : tensor<100x8xf32> init #train.xavier<seed = 1>
  train.param @nce.w : tensor<100x8xf32> init #train.xavier<seed = 2>
  train.param @nce.b : tensor<100xf32> init #train.constant<0.0>
  train.param @step : tensor<i64> init #train.constant<0.0> frozen
  train.step @word2vec(%center: tensor<?xi64>, %context: tensor<?xi64>) -> tensor<f32> {
    %step = train.read @step : tensor<i64>
    %next = train.increment %step : tensor<i64>
    train.write %next to @step : tensor<i64>
    %emb = train.read @emb : tensor<100x8xf32>
    %e = train.embedding %emb, %center : (tensor<100x8xf32>, tensor<?xi64>) -> tensor<?x8xf32>
    %h = train.dropout %e step %step prob 0.25 seed 5 upscale_in_train : tensor<?x8xf32>
    %w = train.read @nce.w : tensor<100x8xf32>
    %b = train.read @nce.b : tensor<100xf32>
    %cost = train.nce %h, %context, %w, %b, %step num_neg_samples 4 sampler log_uniform seed 3
        : (tensor<?x8xf32>, tensor<?xi64>, tensor<100x8xf32>, tensor<100xf32>, tensor<i64>) -> tensor<?xf32>
    %loss = train.mean %cost : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}

// -----

// Tests dropout at inference: downgrade_in_infer scales the gradient by
// 1 - dropout_prob, upscale_in_train passes it through.
// CHECK-LABEL: train.step @inference
// CHECK:      %[[DOWN:.*]] = train.dropout %{{.*}} prob 2.500000e-01 is_test {
// CHECK-NEXT: %[[UP:.*]] = train.dropout %{{.*}} prob 2.500000e-01 is_test upscale_in_train {
// CHECK:      %[[DU:.*]] = train.mean_grad %[[UP]], %{{.*}}
// CHECK-NEXT: %[[DD:.*]] = train.mean_grad %[[DOWN]], %{{.*}}
// CHECK-NEXT: %[[SCALED:.*]] = train.scale %[[DD]] by 7.500000e-01
// CHECK-NEXT: %[[SUM:.*]] = train.add %[[DU]], %[[SCALED]]
// CHECK-NEXT: train.param_grad @w, %[[SUM]]
train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<1.0>
  train.step @inference() -> tensor<f32> {
    %w = train.read @w : tensor<4xf32>
    %down = train.dropout %w prob 0.25 is_test : tensor<4xf32>
    %up = train.dropout %w prob 0.25 is_test upscale_in_train : tensor<4xf32>
    %a = train.mean %down : (tensor<4xf32>) -> tensor<f32>
    %b = train.mean %up : (tensor<4xf32>) -> tensor<f32>
    %loss = train.add %a, %b : (tensor<f32>, tensor<f32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
