// A small MLP classifier for 28x28 images flattened to 784 features:
// 784 -> 256 (relu) -> 10, softmax cross-entropy against integer labels.
// Forward and loss only, as a user writes it; `minimize` adds the backward
// pass and the optimizer. Minimize and train it with
//
//   openks-opt docs/examples/mlp.mlir \
//       --pass-pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1})'
//   openks-run docs/examples/mlp.mlir --optimizer sgd --lr 0.1 --steps 300 \
//       --batch-size 64 --data synthetic:classes=10,seed=7

train.program @mlp {
  train.param @fc1.w : tensor<784x256xf32> init #train.xavier<seed = 1>
  train.param @fc1.b : tensor<256xf32> init #train.constant<0.0>
  train.param @fc2.w : tensor<256x10xf32> init #train.xavier<seed = 2>
  train.param @fc2.b : tensor<10xf32> init #train.constant<0.0>

  // One mini-batch: images %x and labels %y; fetches the mean loss.
  train.step @step(%x: tensor<?x784xf32>, %y: tensor<?xi64>) -> tensor<f32> {
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
    train.yield %loss : tensor<f32>
  }
}
