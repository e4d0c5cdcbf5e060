// A sparse table looked up twice: its two row-sparse gradients are summed
// (train.merge_rows), which Paddle does with a sum of SELECTED_ROWS.
train.program @p {
  train.param @t : tensor<10x4xf32> init #train.xavier<seed = 1> sparse
  train.step @step(%a: tensor<?xi64>, %b: tensor<?xi64>) -> tensor<f32> {
    %t = train.read @t : tensor<10x4xf32>
    %x = train.embedding %t, %a : (tensor<10x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    %y = train.embedding %t, %b : (tensor<10x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    %s = train.add %x, %y : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    %l = train.mean %s : (tensor<?x4xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }
}
