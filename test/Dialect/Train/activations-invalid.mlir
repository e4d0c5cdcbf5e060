// Verifier errors of the activations and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<f32>) {
    // expected-error @+1 {{operand must have rank >= 1 (the op works on its last dimension)}}
    %y = train.softmax %x : tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<f32>) {
    // expected-error @+1 {{operand must have rank >= 1 (the op works on its last dimension)}}
    %y = train.softmax_grad %x, %x : tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+1 {{'train.relu' op requires the same type for all operands and results}}
    %y = "train.relu"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf64>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%out: tensor<?x8xf32>, %d: tensor<?x4xf32>) {
    // expected-error @+1 {{'train.tanh_grad' op requires the same type for all operands and results}}
    %y = "train.tanh_grad"(%out, %d) : (tensor<?x8xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
    train.yield
  }
}
