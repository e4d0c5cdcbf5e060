// The MLP of docs/examples/mlp.mlir (784 -> 256 relu -> 10, softmax
// cross-entropy) with its backward pass and SGD (lr 0.1) written out by hand.
// The reference that openks-minimize{optimizer=sgd lr=0.1} must reproduce.

train.program @mlp {
  train.param @fc1.w : tensor<784x256xf32> init #train.xavier<seed = 1>
  train.param @fc1.b : tensor<256xf32> init #train.constant<0.0>
  train.param @fc2.w : tensor<256x10xf32> init #train.xavier<seed = 2>
  train.param @fc2.b : tensor<10xf32> init #train.constant<0.0>
  train.param @learning_rate : tensor<f32> init #train.constant<0.1> frozen

  train.step @step(%x: tensor<?x784xf32>, %y: tensor<?xi64>) -> tensor<f32> {
    // Forward.
    %w1 = train.read @fc1.w : tensor<784x256xf32>
    %b1 = train.read @fc1.b : tensor<256xf32>
    %z1 = train.matmul %x, %w1
        : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
    %a1 = train.add %z1, %b1
        : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    %h1 = train.relu %a1 : tensor<?x256xf32>
    %w2 = train.read @fc2.w : tensor<256x10xf32>
    %b2 = train.read @fc2.b : tensor<10xf32>
    %z2 = train.matmul %h1, %w2
        : (tensor<?x256xf32>, tensor<256x10xf32>) -> tensor<?x10xf32>
    %logits = train.add %z2, %b2
        : (tensor<?x10xf32>, tensor<10xf32>) -> tensor<?x10xf32>
    %losses = train.softmax_cross_entropy %logits, %y
        : (tensor<?x10xf32>, tensor<?xi64>) -> tensor<?xf32>
    %loss = train.mean %losses : (tensor<?xf32>) -> tensor<f32>

    // Backward, from d loss / d loss = 1.
    %one = train.fill 1.0 : tensor<f32>
    %dlosses = train.mean_grad %losses, %one
        : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    %dlogits = train.softmax_cross_entropy_grad %logits, %y, %dlosses
        : (tensor<?x10xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x10xf32>
    %dz2, %db2 = train.add_grad %z2, %b2, %dlogits
        : (tensor<?x10xf32>, tensor<10xf32>, tensor<?x10xf32>)
        -> (tensor<?x10xf32>, tensor<10xf32>)
    %dh1, %dw2 = train.matmul_grad %h1, %w2, %dz2
        : (tensor<?x256xf32>, tensor<256x10xf32>, tensor<?x10xf32>)
        -> (tensor<?x256xf32>, tensor<256x10xf32>)
    %da1 = train.relu_grad %h1, %dh1 : tensor<?x256xf32>
    %dz1, %db1 = train.add_grad %z1, %b1, %da1
        : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>)
        -> (tensor<?x256xf32>, tensor<256xf32>)
    %dx, %dw1 = train.matmul_grad %x, %w1, %dz1
        : (tensor<?x784xf32>, tensor<784x256xf32>, tensor<?x256xf32>)
        -> (tensor<?x784xf32>, tensor<784x256xf32>)

    // SGD, one update per trainable parameter, in parameter-name order.
    %lr = train.read @learning_rate : tensor<f32>
    train.sgd @fc1.b, %db1, %lr : tensor<256xf32>, tensor<f32>
    train.sgd @fc1.w, %dw1, %lr : tensor<784x256xf32>, tensor<f32>
    train.sgd @fc2.b, %db2, %lr : tensor<10xf32>, tensor<f32>
    train.sgd @fc2.w, %dw2, %lr : tensor<256x10xf32>, tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
