// Wide & Deep (Cheng et al., 2016) click model, forward and loss only: 4
// dense features and three fields of variable-length id lists (ids of field
// k in [100 k, 100 k + 100)). The wide part is linear: a weight per id,
// summed over each list, plus a weight per dense feature; the deep part is
// an MLP over the dense features and the mean embedding of each list. The
// arguments are what `csv:` data with id-list columns feeds: the features,
// each list column's ids (all lists of the batch one after another) and
// lengths, then the 0/1 click. Minimize and train it with
//
//   openks-run docs/examples/wide_deep.mlir --optimizer adagrad --lr 0.1 \
//       --steps 300 --batch-size 64 --data csv:clicks.csv
//
// on rows such as "0.5,-1,0.25,0.3,3|17,104|150|101,,1".

train.program @wide_deep {
  train.param @wide.ids : tensor<300x1xf32> init #train.constant<0.0> sparse
  train.param @wide.dense : tensor<4x1xf32> init #train.constant<0.0>
  train.param @wide.b : tensor<1xf32> init #train.constant<0.0>
  train.param @emb : tensor<300x8xf32> init #train.uniform<min = -0.05, max = 0.05, seed = 31> sparse
  train.param @fc1.w : tensor<28x16xf32> init #train.xavier<seed = 32>
  train.param @fc1.b : tensor<16xf32> init #train.constant<0.0>
  train.param @fc2.w : tensor<16x1xf32> init #train.xavier<seed = 33>

  train.step @step(%dense: tensor<?x4xf32>,
                   %ids0: tensor<?xi64>, %len0: tensor<?xi64>,
                   %ids1: tensor<?xi64>, %len1: tensor<?xi64>,
                   %ids2: tensor<?xi64>, %len2: tensor<?xi64>,
                   %click: tensor<?x1xf32>) -> tensor<f32> {
    // Wide: sum the weights of each list's ids, add the dense features'.
    %wide = train.read @wide.ids : tensor<300x1xf32>
    %w0 = train.embedding_pool sum %wide, %ids0, %len0
        : (tensor<300x1xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x1xf32>
    %w1 = train.embedding_pool sum %wide, %ids1, %len1
        : (tensor<300x1xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x1xf32>
    %w2 = train.embedding_pool sum %wide, %ids2, %len2
        : (tensor<300x1xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x1xf32>
    %wd = train.read @wide.dense : tensor<4x1xf32>
    %wb = train.read @wide.b : tensor<1xf32>
    %lin = train.matmul %dense, %wd
        : (tensor<?x4xf32>, tensor<4x1xf32>) -> tensor<?x1xf32>
    %s0 = train.add %w0, %w1
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %s1 = train.add %s0, %w2
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %s2 = train.add %s1, %lin
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %wide_logit = train.add %s2, %wb
        : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>

    // Deep: an MLP over the features and each list's mean embedding.
    %emb = train.read @emb : tensor<300x8xf32>
    %p0 = train.embedding_pool mean %emb, %ids0, %len0
        : (tensor<300x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
    %p1 = train.embedding_pool mean %emb, %ids1, %len1
        : (tensor<300x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
    %p2 = train.embedding_pool mean %emb, %ids2, %len2
        : (tensor<300x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
    %x = train.concat %dense, %p0, %p1, %p2 axis 1
        : (tensor<?x4xf32>, tensor<?x8xf32>, tensor<?x8xf32>, tensor<?x8xf32>)
        -> tensor<?x28xf32>
    %w1d = train.read @fc1.w : tensor<28x16xf32>
    %b1d = train.read @fc1.b : tensor<16xf32>
    %z1 = train.matmul %x, %w1d
        : (tensor<?x28xf32>, tensor<28x16xf32>) -> tensor<?x16xf32>
    %a1 = train.add %z1, %b1d
        : (tensor<?x16xf32>, tensor<16xf32>) -> tensor<?x16xf32>
    %h1 = train.relu %a1 : tensor<?x16xf32>
    %w2d = train.read @fc2.w : tensor<16x1xf32>
    %deep_logit = train.matmul %h1, %w2d
        : (tensor<?x16xf32>, tensor<16x1xf32>) -> tensor<?x1xf32>

    %logit = train.add %wide_logit, %deep_logit
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %losses = train.sigmoid_cross_entropy %logit, %click
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %loss = train.mean %losses : (tensor<?x1xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
