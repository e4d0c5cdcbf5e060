// Verifier errors of train.matmul and train.matmul_grad.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%a: tensor<4xf32>, %b: tensor<4x2xf32>) {
    // expected-error @+2 {{matmul operands must be rank 2, got ranks 1 and 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.matmul %a, %b : (tensor<4xf32>, tensor<4x2xf32>) -> tensor<2xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<3x4xf32>, %b: tensor<4x2xf64>) {
    // expected-error @+2 {{operand element types differ: 'f32' vs 'f64'}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.matmul %a, %b : (tensor<3x4xf32>, tensor<4x2xf64>) -> tensor<3x2xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x784xf32>, %b: tensor<512x10xf32>) {
    // expected-error @+2 {{contraction dimensions differ: 784 vs 512}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.matmul %a, %b : (tensor<?x784xf32>, tensor<512x10xf32>) -> tensor<?x10xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x4xf32>, %b: tensor<4x2xf32>) {
    // expected-error @+2 {{'train.matmul' op inferred type(s) 'tensor<?x2xf32>' are incompatible with return type(s) of operation 'tensor<?x3xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.matmul %a, %b : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x3xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x4xf32>, %b: tensor<4x2xf32>, %d: tensor<?x3xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x3xf32>' does not match the forward result type 'tensor<?x2xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %da, %db = train.matmul_grad %a, %b, %d
        : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x3xf32>) -> (tensor<?x4xf32>, tensor<4x2xf32>)
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<?x4xf32>, %b: tensor<4x2xf32>, %d: tensor<?x2xf32>) {
    // expected-error @+2 {{'train.matmul_grad' op inferred type(s) 'tensor<?x4xf32>', 'tensor<4x2xf32>' are incompatible with return type(s) of operation 'tensor<?x4xf32>', 'tensor<2x4xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %da, %db = train.matmul_grad %a, %b, %d
        : (tensor<?x4xf32>, tensor<4x2xf32>, tensor<?x2xf32>) -> (tensor<?x4xf32>, tensor<2x4xf32>)
    train.yield
  }
}
