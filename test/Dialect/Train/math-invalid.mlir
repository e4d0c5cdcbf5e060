// Verifier errors of the element-wise math, the norms, the cosine
// similarity and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %b: tensor<4xf32>) {
    // expected-error @+2 {{right operand 'tensor<4xf32>' must have the shape of the left operand or be a rank-1 bias matching its last dimension; left operand is 'tensor<?x8xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.sub %x, %b : (tensor<?x8xf32>, tensor<4xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %y: tensor<?x8xf64>) {
    // expected-error @+2 {{operand element types differ: 'f32' vs 'f64'}}
    // expected-error @+1 {{failed to infer returned types}}
    %z = train.div %x, %y : (tensor<?x8xf32>, tensor<?x8xf64>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %b: tensor<8xf32>, %d: tensor<?x4xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x4xf32>' does not match the forward result type 'tensor<?x8xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx, %db = train.div_grad %x, %b, %d
        : (tensor<?x8xf32>, tensor<8xf32>, tensor<?x4xf32>) -> (tensor<?x8xf32>, tensor<8xf32>)
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xi64>) {
    // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values}}
    %y = train.log %x : tensor<?x8xi64>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+1 {{'train.sqrt' op requires the same type for all operands and results}}
    %y = "train.sqrt"(%x) : (tensor<?x8xf32>) -> tensor<?x8xf64>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %d: tensor<?x4xf32>) {
    // expected-error @+1 {{'train.abs_grad' op requires the same type for all operands and results}}
    %dx = "train.abs_grad"(%x, %d) : (tensor<?x8xf32>, tensor<?x4xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+1 {{'train.p_norm' op p must be 1 or 2, got 3}}
    %n = train.p_norm %x p 3 axis 1 : (tensor<?x8xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+2 {{dimension 2 is out of range for rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %n = train.p_norm %x p 2 axis 2 : (tensor<?x8xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+1 {{'train.p_norm' op epsilon must be non-negative, got -1.000000e+00}}
    %n = train.p_norm %x p 2 axis 1 {epsilon = -1.0 : f64} : (tensor<?x8xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+2 {{'train.p_norm' op inferred type(s) 'tensor<?x1xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %n = train.p_norm %x p 2 axis 1 keep_dims : (tensor<?x8xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %n: tensor<?x1xf32>, %d: tensor<?xf32>) {
    // expected-error @+2 {{forward result type 'tensor<?x1xf32>' does not match the norm's type 'tensor<?xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx = train.p_norm_grad %x, %n, %d p 2 axis 1
        : (tensor<?x8xf32>, tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %n: tensor<?xf32>, %d: tensor<?xf32>) {
    // expected-error @+1 {{'train.p_norm_grad' op p must be 1 or 2, got 0}}
    %dx = train.p_norm_grad %x, %n, %d p 0 axis 1
        : (tensor<?x8xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x2x8xf32>, %y: tensor<?x2x8xf32>) {
    // expected-error @+2 {{cos_sim operands must be rank 2 ([rows, width]), got ranks 3 and 3}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.cos_sim %x, %y : (tensor<?x2x8xf32>, tensor<?x2x8xf32>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %y: tensor<?x4xf32>) {
    // expected-error @+2 {{widths differ: 8 vs 4}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.cos_sim %x, %y : (tensor<?x8xf32>, tensor<?x4xf32>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<3x8xf32>, %y: tensor<2x8xf32>) {
    // expected-error @+2 {{y has 2 rows; expected 1 or the rows of x, 3}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.cos_sim %x, %y : (tensor<3x8xf32>, tensor<2x8xf32>) -> tensor<3x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %y: tensor<1x8xf32>, %d: tensor<?xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?xf32>' does not match the forward result type 'tensor<?x1xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx, %dy = train.cos_sim_grad %x, %y, %d
        : (tensor<?x8xf32>, tensor<1x8xf32>, tensor<?xf32>) -> (tensor<?x8xf32>, tensor<1x8xf32>)
    train.yield
  }
}
