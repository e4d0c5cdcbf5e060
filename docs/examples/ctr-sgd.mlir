// A small click-through-rate model with its backward pass and SGD written
// out by hand: 8 categorical fields, each an id into one shared 1000 x 8
// embedding table, flattened and fed to a logistic regression.
// Train it on libsvm-style data (or synthetic ids) with
//
//   openks-run docs/examples/ctr-sgd.mlir --steps 300 --batch-size 128 \
//       --data synthetic:vocab=100,seed=3

train.program @ctr {
  train.param @emb : tensor<1000x8xf32> init #train.uniform<min = -0.05, max = 0.05, seed = 11>
  train.param @fc.w : tensor<64x1xf32> init #train.xavier<seed = 12>
  train.param @fc.b : tensor<1xf32> init #train.constant<0.0>
  train.param @learning_rate : tensor<f32> init #train.constant<0.5> frozen

  train.step @step(%ids: tensor<?x8xi64>, %click: tensor<?x1xf32>) -> tensor<f32> {
    // Forward.
    %table = train.read @emb : tensor<1000x8xf32>
    %e = train.embedding %table, %ids
        : (tensor<1000x8xf32>, tensor<?x8xi64>) -> tensor<?x8x8xf32>
    %flat = train.reshape %e : (tensor<?x8x8xf32>) -> tensor<?x64xf32>
    %w = train.read @fc.w : tensor<64x1xf32>
    %b = train.read @fc.b : tensor<1xf32>
    %z = train.matmul %flat, %w
        : (tensor<?x64xf32>, tensor<64x1xf32>) -> tensor<?x1xf32>
    %logit = train.add %z, %b
        : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>
    %losses = train.sigmoid_cross_entropy %logit, %click
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %loss = train.mean %losses : (tensor<?x1xf32>) -> tensor<f32>

    // Backward.
    %one = train.fill 1.0 : tensor<f32>
    %dlosses = train.mean_grad %losses, %one
        : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
    %dlogit = train.sigmoid_cross_entropy_grad %logit, %click, %dlosses
        : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %dz, %db = train.add_grad %z, %b, %dlogit
        : (tensor<?x1xf32>, tensor<1xf32>, tensor<?x1xf32>)
        -> (tensor<?x1xf32>, tensor<1xf32>)
    %dflat, %dw = train.matmul_grad %flat, %w, %dz
        : (tensor<?x64xf32>, tensor<64x1xf32>, tensor<?x1xf32>)
        -> (tensor<?x64xf32>, tensor<64x1xf32>)
    %de = train.reshape_grad %e, %dflat
        : (tensor<?x8x8xf32>, tensor<?x64xf32>) -> tensor<?x8x8xf32>
    %dtable = train.embedding_grad %ids, %de
        : (tensor<?x8xi64>, tensor<?x8x8xf32>) -> tensor<1000x8xf32>

    // SGD, in parameter-name order.
    %lr = train.read @learning_rate : tensor<f32>
    train.sgd @emb, %dtable, %lr : tensor<1000x8xf32>, tensor<f32>
    train.sgd @fc.b, %db, %lr : tensor<1xf32>, tensor<f32>
    train.sgd @fc.w, %dw, %lr : tensor<64x1xf32>, tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
