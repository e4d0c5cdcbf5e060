// A small click-through-rate model, forward and loss only: 8 categorical
// fields, each an id into one shared 1000 x 8 embedding table, flattened and
// fed to a logistic regression. Minimize and train it with
//
//   openks-run docs/examples/ctr.mlir --optimizer sgd --lr 0.5 --steps 300 \
//       --batch-size 128 --data synthetic:vocab=100,seed=3

train.program @ctr {
  train.param @emb : tensor<1000x8xf32> init #train.uniform<min = -0.05, max = 0.05, seed = 11> sparse
  train.param @fc.w : tensor<64x1xf32> init #train.xavier<seed = 12>
  train.param @fc.b : tensor<1xf32> init #train.constant<0.0>

  train.step @step(%ids: tensor<?x8xi64>, %click: tensor<?x1xf32>) -> tensor<f32> {
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
    train.yield %loss : tensor<f32>
  }
}
