// Verifier errors of train.mean, train.reduce_sum and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<?x4xf32>) {
    // expected-error @+2 {{dimension 2 is out of range for rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %s = train.reduce_sum %x dims [2] : (tensor<?x4xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>) {
    // expected-error @+2 {{dimension -1 is out of range for rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %s = train.reduce_sum %x dims [-1] : (tensor<?x4xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>) {
    // expected-error @+2 {{dimension 1 is listed twice}}
    // expected-error @+1 {{failed to infer returned types}}
    %s = train.reduce_sum %x dims [1, 1] : (tensor<?x4xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>) {
    // expected-error @+2 {{'train.reduce_sum' op inferred type(s) 'tensor<?x1xf32>' are incompatible with return type(s) of operation 'tensor<?xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %s = train.reduce_sum %x dims [1] keep_dims : (tensor<?x4xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>, %d: tensor<?x4xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x4xf32>' does not match the forward result type 'tensor<?xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx = train.reduce_sum_grad %x, %d dims [1] : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>) {
    // expected-error @+1 {{result #0 must be 0D tensor of 32-bit float or 64-bit float values}}
    %m = train.mean %x : (tensor<?x4xf32>) -> tensor<1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x4xf32>, %d: tensor<f64>) {
    // expected-error @+2 {{incoming gradient type 'tensor<f64>' does not match the forward result type 'tensor<f32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dx = train.mean_grad %x, %d : (tensor<?x4xf32>, tensor<f64>) -> tensor<?x4xf32>
    train.yield
  }
}
