// Verifier errors of non-finite float attributes, which every train and ps
// op rejects (a NaN or infinite coefficient trains nothing and still runs),
// and of integer attributes read as signed values.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{attribute 'factor' must be finite, got inf}}
    %y = train.scale %x by 0x7FF0000000000000 : tensor<4xf32>
    train.yield %y : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m1 : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @m2 : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @b1 : tensor<f32> init #train.constant<0.9> frozen
  train.param @b2 : tensor<f32> init #train.constant<0.999> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{attribute 'epsilon' must be finite, got inf}}
    train.adam @w, %g, %lr moments(@m1, @m2) beta_pows(@b1, @b2) {epsilon = 0x7FF0000000000000 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<i64>) -> tensor<f32> {
    // expected-error @+1 {{attribute 'values' must be finite, got nan}}
    %y = train.piecewise_decay %x boundaries [1] values [1.0, 0x7FF8000000000000] : tensor<i64> -> tensor<f32>
    train.yield %y : tensor<f32>
  }
}

// -----

train.program @p {
  train.step @s() -> tensor<f32> {
    // expected-error @+1 {{attribute 'value' must be finite, got -inf}}
    %y = train.fill 0xFFF0000000000000 : tensor<f32>
    train.yield %y : tensor<f32>
  }
}

// -----

// Tests that decay_steps is read as a signed value: -1 is not a huge period.
train.program @p {
  train.step @s(%x: tensor<i64>) -> tensor<f32> {
    // expected-error @+1 {{decay_steps must be at least 1, got -1}}
    %y = train.exponential_decay %x learning_rate 0.1 decay_rate 0.5 decay_steps -1 : tensor<i64> -> tensor<f32>
    train.yield %y : tensor<f32>
  }
}
