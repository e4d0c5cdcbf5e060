// Verifier errors of sequence_pool, embedding_pool and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<f32>, %lengths: tensor<?xi64>) {
    // expected-error @+2 {{pooled operand must have rank >= 1 (its rows are the sequences' rows)}}
    // expected-error @+1 {{failed to infer returned types}}
    %p = train.sequence_pool sum %x, %lengths : (tensor<f32>, tensor<?xi64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>, %lengths: tensor<?x1xi64>) {
    // expected-error @+2 {{lengths must be rank 1 ([sequences]), got rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %p = train.sequence_pool sum %x, %lengths : (tensor<?x4xf32>, tensor<?x1xi64>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>, %lengths: tensor<?xf32>) {
    // expected-error @+1 {{operand #1 must be ranked tensor of 64-bit signless integer values}}
    %p = train.sequence_pool sum %x, %lengths : (tensor<?x4xf32>, tensor<?xf32>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>, %lengths: tensor<?xi64>) {
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'pooltype' [sum, mean, sqrt]}}
    %p = train.sequence_pool max %x, %lengths : (tensor<?x4xf32>, tensor<?xi64>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>, %lengths: tensor<?xi64>, %d: tensor<?x5xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x5xf32>' does not match the forward result type 'tensor<?x4xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx = train.sequence_pool_grad mean %x, %lengths, %d
        : (tensor<?x4xf32>, tensor<?xi64>, tensor<?x5xf32>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%t: tensor<100x8xf32>, %ids: tensor<?x1xi64>, %lengths: tensor<?xi64>) {
    // expected-error @+2 {{ids must be rank 1 (the ids of all lists), got rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %p = train.embedding_pool sum %t, %ids, %lengths : (tensor<100x8xf32>, tensor<?x1xi64>, tensor<?xi64>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%t: tensor<100x8xf32>, %ids: tensor<?xi64>, %lengths: tensor<?xi64>) {
    // expected-error @+2 {{padding_idx 100 is not a row of a table with 100 rows}}
    // expected-error @+1 {{failed to infer returned types}}
    %p = train.embedding_pool sum %t, %ids, %lengths {padding_idx = 100 : i64}
        : (tensor<100x8xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %lengths: tensor<?xi64>, %d: tensor<?x8xf32>) {
    // expected-error @+1 {{'train.embedding_pool_grad' op table gradient must have a static shape, got 'tensor<?x8xf32>'}}
    %dt = train.embedding_pool_grad sum %ids, %lengths, %d
        : (tensor<?xi64>, tensor<?xi64>, tensor<?x8xf32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%ids: tensor<?xi64>, %lengths: tensor<?xi64>, %d: tensor<?x4xf32>) {
    // expected-error @+1 {{incoming gradient type 'tensor<?x4xf32>' does not match the forward result type 'tensor<?x8xf32>'}}
    %dt = train.embedding_pool_grad sum %ids, %lengths, %d
        : (tensor<?xi64>, tensor<?xi64>, tensor<?x4xf32>) -> tensor<100x8xf32>
    train.yield
  }
}
