// A logistic regression of 4 features whose inputs drop out in training
// (scaled up, so that evaluation, which drops nothing, uses them as they
// are).
train.program @logistic {
  train.param @w : tensor<4x1xf32> init #train.xavier<seed = 5>
  train.param @b : tensor<1xf32> init #train.constant<0.0>
  train.param @counter : tensor<i64> init #train.constant<0.0> frozen

  train.step @step(%x: tensor<?x4xf32>, %click: tensor<?x1xf32>) -> tensor<f32> {
    %step = train.read @counter : tensor<i64>
    %next = train.increment %step : tensor<i64>
    train.write %next to @counter : tensor<i64>
    %kept = train.dropout %x step %step prob 0.5 seed 9 upscale_in_train
        : tensor<?x4xf32>
    %w = train.read @w : tensor<4x1xf32>
    %b = train.read @b : tensor<1xf32>
    %z = train.matmul %kept, %w
        : (tensor<?x4xf32>, tensor<4x1xf32>) -> tensor<?x1xf32>
    %logit = train.add %z, %b
        : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>
    %losses = train.sigmoid_cross_entropy %logit, %click
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    %loss = train.mean %losses : (tensor<?x1xf32>) -> tensor<f32>
    train.yield %loss : tensor<f32>
  }
}
