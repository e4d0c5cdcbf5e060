// Errors of openks-append-backward, each located at its cause.
// RUN: openks-opt %s -split-input-file --openks-append-backward -verify-diagnostics

train.program @p {
  // expected-error @+1 {{fetches no loss to differentiate: its first result must be a rank-0 float tensor}}
  train.step @s() {
    train.yield
  }
}

// -----

train.program @p {
  // expected-error @+1 {{first result 'tensor<4xf32>' is not a loss to differentiate (a rank-0 float tensor)}}
  train.step @s(%x: tensor<4xf32>) -> tensor<4xf32> {
    train.yield %x : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0> frozen
  // expected-error @+1 {{loss does not depend on any trainable parameter}}
  train.step @s() -> tensor<f32> {
    %w = train.read @w : tensor<4xf32>
    %l = train.mean %w : (tensor<4xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%d: tensor<4xf32>) -> tensor<f32> {
    %w = train.read @w : tensor<4xf32>
    %r = train.relu %w : tensor<4xf32>
    // expected-error @+1 {{has no gradient rule, but the loss of step @s depends on its result through trainable parameters}}
    %g = train.relu_grad %r, %d : tensor<4xf32>
    %l = train.mean %g : (tensor<4xf32>) -> tensor<f32>
    train.yield %l : tensor<f32>
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s() -> tensor<f32> {
    %w = train.read @w : tensor<4xf32>
    %l = train.mean %w : (tensor<4xf32>) -> tensor<f32>
    // expected-error @+1 {{is part of a backward pass or an optimizer: step @s was already differentiated}}
    train.param_grad @w, %w : tensor<4xf32>
    train.yield %l : tensor<f32>
  }
}
