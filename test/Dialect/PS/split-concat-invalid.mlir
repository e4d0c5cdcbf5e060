// Verifier errors of ps.split and ps.concat.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%g: tensor<784x256xf32>) {
    // expected-error @+2 {{sections cover 783 rows, but the input has 784}}
    // expected-error @+1 {{failed to infer returned types}}
    %a, %b = ps.split %g rows [392, 391] : tensor<784x256xf32> -> tensor<392x256xf32>, tensor<391x256xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>) {
    // expected-error @+1 {{result #1 of type 'tensor<0xf32>' has a dimension of size 0; every dimension must be at least 1}}
    %a, %b = ps.split %g rows [4, 0] : tensor<4xf32> -> tensor<4xf32>, tensor<0xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>) {
    // expected-error @+2 {{section sizes must be positive, got 0}}
    // expected-error @+1 {{failed to infer returned types}}
    %a, %b = ps.split %g rows [4, 0] : tensor<4xf32> -> tensor<4xf32>, tensor<1xf32>
    train.yield
  }
}

// -----

// Tests that section sizes whose sum overflows int64 (and would wrap back to
// the input's row count) are caught.
train.program @p {
  train.step @s(%g: tensor<?xf32>) {
    // expected-error @+2 {{sections cover more than 9223372036854775807 rows}}
    // expected-error @+1 {{failed to infer returned types}}
    %a, %b, %c = ps.split %g rows [9223372036854775807, 9223372036854775807, 2] : tensor<?xf32> -> tensor<?xf32>, tensor<?xf32>, tensor<2xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>) {
    // expected-error @+2 {{needs at least one section}}
    // expected-error @+1 {{failed to infer returned types}}
    "ps.split"(%g) <{sections = array<i64>}> : (tensor<4xf32>) -> ()
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<f32>) {
    // expected-error @+2 {{cannot split a rank-0 tensor into rows}}
    // expected-error @+1 {{failed to infer returned types}}
    %a = ps.split %g rows [1] : tensor<f32> -> tensor<1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4x2xf32>) {
    // expected-error @+2 {{'ps.split' op inferred type(s) 'tensor<2x2xf32>', 'tensor<2x2xf32>' are incompatible with return type(s) of operation 'tensor<2x2xf32>', 'tensor<2x3xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %a, %b = ps.split %g rows [2, 2] : tensor<4x2xf32> -> tensor<2x2xf32>, tensor<2x3xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>) {
    // expected-error @+2 {{input #1 has size 4 in dimension 1, expected 3}}
    // expected-error @+1 {{failed to infer returned types}}
    %w = ps.concat %a, %b : tensor<2x3xf32>, tensor<2x4xf32> -> tensor<4x3xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) {
    // expected-error @+2 {{'ps.concat' op inferred type(s) 'tensor<4x3xf32>' are incompatible with return type(s) of operation 'tensor<5x3xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %w = ps.concat %a, %b : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<5x3xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %d: tensor<?x3xf32>) {
    %r = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x3xf32>) -> !train.rows<tensor<10x3xf32>>
    // expected-error @+2 {{sections cover 9 rows, but the input has 10}}
    // expected-error @+1 {{failed to infer returned types}}
    %a, %b = ps.split %r rows [5, 4] : !train.rows<tensor<10x3xf32>> -> !train.rows<tensor<5x3xf32>>, !train.rows<tensor<4x3xf32>>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %d: tensor<?x3xf32>) {
    %r = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x3xf32>) -> !train.rows<tensor<10x3xf32>>
    // expected-error @+2 {{inferred type(s) '!train.rows<tensor<6x3xf32>>', '!train.rows<tensor<4x3xf32>>' are incompatible with return type(s) of operation 'tensor<6x3xf32>', 'tensor<4x3xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %a, %b = ps.split %r rows [6, 4] : !train.rows<tensor<10x3xf32>> -> tensor<6x3xf32>, tensor<4x3xf32>
    train.yield
  }
}
