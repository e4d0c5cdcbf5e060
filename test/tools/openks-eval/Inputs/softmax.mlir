// A linear classifier of 4 features into 3 classes.
train.program @softmax {
  train.param @w : tensor<4x3xf32> init #train.xavier<seed = 3>
  train.param @b : tensor<3xf32> init #train.constant<0.0>

  train.step @step(%x: tensor<?x4xf32>, %y: tensor<?xi64>) -> tensor<f32> {
    %w = train.read @w : tensor<4x3xf32>
    %b = train.read @b : tensor<3xf32>
    %z = train.matmul %x, %w
        : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
    %logits = train.add %z, %b
        : (tensor<?x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
    %losses = train.softmax_cross_entropy %logits, %y
        : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?xf32>
    %loss = train.mean %losses : (tensor<?xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
