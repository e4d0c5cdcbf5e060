// Verifier errors of train.concat and train.concat_grad.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s() {
    // expected-error @+2 {{concatenation needs at least one input}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.concat axis 0 : () -> tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x8xf32>) {
    // expected-error @+2 {{axis 2 is out of range for rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.concat %a axis 2 : (tensor<?x8xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x8xf32>, %b: tensor<8xf32>) {
    // expected-error @+2 {{input #1 has rank 1, expected 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.concat %a, %b axis 1 : (tensor<?x8xf32>, tensor<8xf32>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<4x8xf32>, %b: tensor<5x8xf32>) {
    // expected-error @+2 {{input #1 has size 5 in dimension 0, expected 4}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.concat %a, %b axis 1 : (tensor<4x8xf32>, tensor<5x8xf32>) -> tensor<4x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x8xf32>, %b: tensor<?x8xf64>) {
    // expected-error @+2 {{operand element types differ: 'f32' vs 'f64'}}
    // expected-error @+1 {{failed to infer returned types}}
    %y = train.concat %a, %b axis 1 : (tensor<?x8xf32>, tensor<?x8xf64>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x8xf32>, %b: tensor<?x4xf32>, %d: tensor<?x8xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x8xf32>' does not match the forward result type 'tensor<?x12xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %da, %db = train.concat_grad (%a, %b), %d axis 1
        : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x8xf32>) -> (tensor<?x8xf32>, tensor<?x4xf32>)
    train.yield
  }
}
