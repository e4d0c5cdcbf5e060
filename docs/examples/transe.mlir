// TransE (Bordes et al., 2013) over a knowledge graph of up to 256 entities
// and 16 relations, forward and loss only: a triple (h, r, t) scores
// |e_h + w_r - e_t|_1, and the margin ranking loss pushes every corrupted
// triple (the same with its head or tail replaced) at least 1 above its
// positive. The arguments are what `triples:` data feeds: the heads,
// relations and tails of the batch's triples, then one negative head and
// tail each. Both tables are sparse: a step's gradient holds only the rows
// its triples look up, and a job's trainers push only those rows. Minimize
// and train it with
//
//   openks-run docs/examples/transe.mlir --optimizer adam --lr 0.01 \
//       --steps 500 --batch-size 128 --data triples:train.txt,seed=1

train.program @transe {
  train.param @entity : tensor<256x32xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 21> sparse
  train.param @relation : tensor<16x32xf32> init #train.uniform<min = -0.1, max = 0.1, seed = 22> sparse

  train.step @step(%h: tensor<?xi64>, %r: tensor<?xi64>, %t: tensor<?xi64>,
                   %neg_h: tensor<?xi64>, %neg_t: tensor<?xi64>) -> tensor<f32> {
    %entity = train.read @entity : tensor<256x32xf32>
    %relation = train.read @relation : tensor<16x32xf32>
    %w = train.embedding %relation, %r
        : (tensor<16x32xf32>, tensor<?xi64>) -> tensor<?x32xf32>

    // The distance of each positive triple.
    %eh = train.embedding %entity, %h
        : (tensor<256x32xf32>, tensor<?xi64>) -> tensor<?x32xf32>
    %et = train.embedding %entity, %t
        : (tensor<256x32xf32>, tensor<?xi64>) -> tensor<?x32xf32>
    %moved = train.add %eh, %w
        : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %gap = train.sub %moved, %et
        : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %pos = train.p_norm %gap p 1 axis 1 : (tensor<?x32xf32>) -> tensor<?xf32>

    // The distance of each corrupted triple.
    %nh = train.embedding %entity, %neg_h
        : (tensor<256x32xf32>, tensor<?xi64>) -> tensor<?x32xf32>
    %nt = train.embedding %entity, %neg_t
        : (tensor<256x32xf32>, tensor<?xi64>) -> tensor<?x32xf32>
    %neg_moved = train.add %nh, %w
        : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %neg_gap = train.sub %neg_moved, %nt
        : (tensor<?x32xf32>, tensor<?x32xf32>) -> tensor<?x32xf32>
    %neg = train.p_norm %neg_gap p 1 axis 1
        : (tensor<?x32xf32>) -> tensor<?xf32>

    %losses = train.margin_loss %pos, %neg margin 1.000000e+00 : tensor<?xf32>
    %loss = train.mean %losses : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
