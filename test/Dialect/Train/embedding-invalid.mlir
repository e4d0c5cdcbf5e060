// Verifier errors of train.embedding and train.embedding_grad.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%t: tensor<1000xf32>, %ids: tensor<?xi64>) {
    // expected-error @+2 {{table must be rank 2 ([rows, width]), got rank 1}}
    // expected-error @+1 {{failed to infer returned types}}
    %e = train.embedding %t, %ids : (tensor<1000xf32>, tensor<?xi64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%t: tensor<1000x16xf32>, %ids: tensor<?xi64>) {
    // expected-error @+2 {{padding_idx 1000 is not a row of a table with 1000 rows}}
    // expected-error @+1 {{failed to infer returned types}}
    %e = train.embedding %t, %ids {padding_idx = 1000 : i64} : (tensor<1000x16xf32>, tensor<?xi64>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%t: tensor<1000x16xf32>, %ids: tensor<?xi32>) {
    // expected-error @+1 {{operand #1 must be ranked tensor of 64-bit signless integer values}}
    %e = train.embedding %t, %ids : (tensor<1000x16xf32>, tensor<?xi32>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %d: tensor<?x8xf32>) {
    // expected-error @+1 {{incoming gradient type 'tensor<?x8xf32>' does not match the forward result type 'tensor<?x16xf32>'}}
    %dt = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x8xf32>) -> tensor<1000x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %d: tensor<?x16xf32>) {
    // expected-error @+1 {{table gradient must have a static shape, got 'tensor<?x16xf32>'}}
    %dt = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x16xf32>) -> tensor<?x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %d: tensor<?x16xf32>) {
    // expected-error @+1 {{padding_idx -1 is not a row of a table with 1000 rows}}
    %dt = train.embedding_grad %ids, %d {padding_idx = -1 : i64} : (tensor<?xi64>, tensor<?x16xf32>) -> tensor<1000x16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %d: tensor<?x16xf32>) {
    // expected-error @+1 {{table must be rank 2 ([rows, width]), got rank 3}}
    %dt = train.embedding_grad %ids, %d : (tensor<?xi64>, tensor<?x16xf32>) -> tensor<10x10x16xf32>
    train.yield
  }
}
