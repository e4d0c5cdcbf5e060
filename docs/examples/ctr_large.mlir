// A click-through-rate model at the scale parameter servers are for: 8
// categorical fields, each an id into one shared 10,000,000 x 16 embedding
// table (640 MB of f32), flattened and fed to a logistic regression. A batch
// of 512 rows touches at most 4,096 of the table's rows, so the table is
// sparse: in a job, a trainer prefetches the rows its batch looks up and
// pushes back only their gradients, and no trainer holds the table. Train
// it on 2 servers and 2 trainers with
//
//   openks-run docs/examples/ctr_large.mlir --optimizer adagrad --lr 0.1 \
//       --pservers 2 --trainers 2 --steps 200 --batch-size 512 \
//       --data synthetic:vocab=10000000,rows=1000000,seed=3

train.program @ctr_large {
  train.param @emb : tensor<10000000x16xf32> init #train.uniform<min = -0.01, max = 0.01, seed = 31> sparse
  train.param @fc.w : tensor<128x1xf32> init #train.xavier<seed = 32>
  train.param @fc.b : tensor<1xf32> init #train.constant<0.0>

  train.step @step(%ids: tensor<?x8xi64>, %click: tensor<?x1xf32>) -> tensor<f32> {
    %table = train.read @emb : tensor<10000000x16xf32>
    %e = train.embedding %table, %ids
        : (tensor<10000000x16xf32>, tensor<?x8xi64>) -> tensor<?x8x16xf32>
    %flat = train.reshape %e : (tensor<?x8x16xf32>) -> tensor<?x128xf32>
    %w = train.read @fc.w : tensor<128x1xf32>
    %b = train.read @fc.b : tensor<1xf32>
    %z = train.matmul %flat, %w
        : (tensor<?x128xf32>, tensor<128x1xf32>) -> tensor<?x1xf32>
    %logit = train.add %z, %b
        : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>
    %losses = train.sigmoid_cross_entropy %logit, %click
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %loss = train.mean %losses : (tensor<?x1xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
