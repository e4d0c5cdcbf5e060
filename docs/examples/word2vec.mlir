// Skip-gram word2vec with negative sampling (Mikolov et al., 2013) over a
// vocabulary of up to 256 words, forward and loss only. Each row is a
// (center, context) pair of a window with four corrupted contexts: the loss
// is -log sigmoid(u_center . v_context) - sum_k log sigmoid(-u_center .
// v_k). The arguments are what `triples:` data with corrupt=tail feeds for
// "center<TAB>offset<TAB>context" lines: the centers, the contexts' offsets
// in the window (which plain skip-gram ignores), the contexts, then four
// negative pairs per row (the center repeated, and a random other word).
// Minimize and train it with
//
//   openks-run docs/examples/word2vec.mlir --optimizer adagrad --lr 0.2 \
//       --steps 300 --batch-size 128 \
//       --data triples:pairs.txt,corrupt=tail,negatives=4

train.program @word2vec {
  train.param @in : tensor<256x16xf32> init #train.uniform<min = -0.05, max = 0.05, seed = 41> sparse
  train.param @out : tensor<256x16xf32> init #train.uniform<min = -0.05, max = 0.05, seed = 42> sparse

  train.step @step(%center: tensor<?xi64>, %offset: tensor<?xi64>,
                   %context: tensor<?xi64>, %neg_center: tensor<?x4xi64>,
                   %neg_context: tensor<?x4xi64>) -> tensor<f32> {
    %in = train.read @in : tensor<256x16xf32>
    %out = train.read @out : tensor<256x16xf32>

    // log sigmoid of each true pair's score.
    %u = train.embedding %in, %center
        : (tensor<256x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    %v = train.embedding %out, %context
        : (tensor<256x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    %uv = train.mul %u, %v
        : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
    %score = train.reduce_sum %uv dims [1] : (tensor<?x16xf32>) -> tensor<?xf32>
    %p = train.sigmoid %score : tensor<?xf32>
    %log_p = train.log %p : tensor<?xf32>

    // log sigmoid of each negative pair's negated score, summed per row.
    %un = train.embedding %in, %neg_center
        : (tensor<256x16xf32>, tensor<?x4xi64>) -> tensor<?x4x16xf32>
    %vn = train.embedding %out, %neg_context
        : (tensor<256x16xf32>, tensor<?x4xi64>) -> tensor<?x4x16xf32>
    %uvn = train.mul %un, %vn
        : (tensor<?x4x16xf32>, tensor<?x4x16xf32>) -> tensor<?x4x16xf32>
    %neg_score = train.reduce_sum %uvn dims [2]
        : (tensor<?x4x16xf32>) -> tensor<?x4xf32>
    %flipped = train.scale %neg_score by -1.000000e+00 : tensor<?x4xf32>
    %q = train.sigmoid %flipped : tensor<?x4xf32>
    %log_q = train.log %q : tensor<?x4xf32>
    %log_q_sum = train.reduce_sum %log_q dims [1]
        : (tensor<?x4xf32>) -> tensor<?xf32>

    %log_likelihood = train.add %log_p, %log_q_sum
        : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %mean = train.mean %log_likelihood : (tensor<?xf32>) -> tensor<f32>
    %loss = train.scale %mean by -1.000000e+00 : tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
