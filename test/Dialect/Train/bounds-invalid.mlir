// Verifier errors of tensor shapes outside the bounds every train and ps op
// enforces (openks/Support/Limits.h): rank at most 6, every static
// dimension at least 1, at most 2^40 elements. Sizes computed from a
// verified shape therefore never overflow, and the runtime can hold it.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  // expected-error @+1 {{parameter type 'tensor<0x4xf32>' has a dimension of size 0; every dimension must be at least 1}}
  train.param @w : tensor<0x4xf32> init #train.constant<0.0>
}

// -----

train.program @p {
  // expected-error @+1 {{parameter type 'tensor<4x0xf32>' has a dimension of size 0}}
  train.param @w : tensor<4x0xf32> init #train.xavier<seed = 1>
}

// -----

train.program @p {
  // expected-error @+1 {{parameter type 'tensor<1x1x1x1x1x1x2xf32>' has rank 7; tensors have at most 6 dimensions}}
  train.param @w : tensor<1x1x1x1x1x1x2xf32> init #train.constant<0.0>
}

// -----

// Tests a parameter of 2^63 - 1 elements.
train.program @p {
  // expected-error @+1 {{parameter type 'tensor<9223372036854775807xf32>' has more than 1099511627776 elements (2^40)}}
  train.param @w : tensor<9223372036854775807xf32> init #train.constant<0.0>
}

// -----

// Tests a shape whose element count overflows int64.
train.program @p {
  // expected-error @+1 {{parameter type 'tensor<4294967296x4294967296xf32>' has more than 1099511627776 elements (2^40)}}
  train.param @w : tensor<4294967296x4294967296xf32> init #train.constant<0.0>
}

// -----

train.program @p {
  // expected-error @+1 {{region argument #0 of type 'tensor<?x0xf32>' has a dimension of size 0; every dimension must be at least 1}}
  train.step @s(%x: tensor<?x0xf32>) {
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x2xf32>) {
    // expected-error @+1 {{result #0 of type 'tensor<?x1x1x1x1x1x2xf32>' has rank 7; tensors have at most 6 dimensions}}
    %y = "train.reshape"(%x) : (tensor<?x2xf32>) -> tensor<?x1x1x1x1x1x2xf32>
    train.yield
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{parameter type 'tensor<0x2xf32>' has a dimension of size 0}}
  ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<0x2xf32> rows [0, 2) init #train.constant<0.0> frozen
}
