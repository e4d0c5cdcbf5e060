// Verifier errors of train.add, train.mul and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %b: tensor<4xf32>) {
    // expected-error @+2 {{right operand 'tensor<4xf32>' must have the shape of the left operand or be a rank-1 bias matching its last dimension; left operand is 'tensor<?x8xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.add %x, %b : (tensor<?x8xf32>, tensor<4xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %y: tensor<?x8xf64>) {
    // expected-error @+2 {{operand element types differ: 'f32' vs 'f64'}}
    // expected-error @+1 {{failed to infer returned types}}
    %z = train.mul %x, %y : (tensor<?x8xf32>, tensor<?x8xf64>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<2x8xf32>, %y: tensor<8x2xf32>) {
    // expected-error @+2 {{right operand 'tensor<8x2xf32>' must have the shape of the left operand}}
    // expected-error @+1 {{failed to infer returned types}}
    %z = train.mul %x, %y : (tensor<2x8xf32>, tensor<8x2xf32>) -> tensor<2x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %b: tensor<8xf32>, %d: tensor<?x4xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x4xf32>' does not match the forward result type 'tensor<?x8xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx, %db = train.add_grad %x, %b, %d
        : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x4xf32>) -> (tensor<?x8xf32>, tensor<8xf32>)
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %b: tensor<8xf32>, %d: tensor<?x8xf64>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x8xf64>' does not match the forward result type 'tensor<?x8xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx, %db = train.mul_grad %x, %b, %d
        : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x8xf64>) -> (tensor<?x8xf32>, tensor<8xf32>)
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xi64>, %b: tensor<8xi64>) {
    // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values}}
    %y = train.add %x, %b : (tensor<?x8xi64>, tensor<8xi64>) -> tensor<?x8xi64>
    train.yield
  }
}
