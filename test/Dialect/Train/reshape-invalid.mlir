// Verifier errors of train.reshape and train.reshape_grad.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<6x4xf32>) {
    // expected-error @+1 {{reshape must keep the number of elements: 'tensor<6x4xf32>' has 24, 'tensor<5x5xf32>' has 25}}
    %y = train.reshape %x : (tensor<6x4xf32>) -> tensor<5x5xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4x8xf32>) {
    // expected-error @+1 {{reshape must keep the number of elements: 'tensor<?x4x8xf32>' has 32 per batch row, 'tensor<?x16xf32>' has 16}}
    %y = train.reshape %x : (tensor<?x4x8xf32>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>) {
    // expected-error @+1 {{a reshape with dynamic dimensions needs exactly one on each side, got 'tensor<?x4xf32>' to 'tensor<4x4xf32>'}}
    %y = train.reshape %x : (tensor<?x4xf32>) -> tensor<4x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<6x4xf32>) {
    // expected-error @+1 {{'train.reshape' op requires the same element type for all operands and results}}
    %y = train.reshape %x : (tensor<6x4xf32>) -> tensor<24xf64>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<6x4xf32>, %d: tensor<25xf32>) {
    // expected-error @+2 {{reshape must keep the number of elements}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx = train.reshape_grad %x, %d : (tensor<6x4xf32>, tensor<25xf32>) -> tensor<6x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<6x4xf32>, %d: tensor<24xf64>) {
    // expected-error @+2 {{operand element types differ: 'f32' vs 'f64'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx = train.reshape_grad %x, %d : (tensor<6x4xf32>, tensor<24xf64>) -> tensor<6x4xf32>
    train.yield
  }
}
