// A logistic regression of 4 features.
train.program @logistic {
  train.param @w : tensor<4x1xf32> init #train.xavier<seed = 5>
  train.param @b : tensor<1xf32> init #train.constant<0.0>

  train.step @step(%x: tensor<?x4xf32>, %click: tensor<?x1xf32>) -> tensor<f32> {
    %w = train.read @w : tensor<4x1xf32>
    %b = train.read @b : tensor<1xf32>
    %z = train.matmul %x, %w
        : (tensor<?x4xf32>, tensor<4x1xf32>) -> tensor<?x1xf32>
    %logit = train.add %z, %b
        : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>
    %losses = train.sigmoid_cross_entropy %logit, %click
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %loss = train.mean %losses : (tensor<?x1xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
