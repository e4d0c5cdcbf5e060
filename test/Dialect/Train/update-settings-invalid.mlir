// Verifier errors of a parameter's own update settings and of train.clip
// and train.clip_by_norm.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  // expected-error @+1 {{is frozen, so no optimizer applies its update settings}}
  train.param @lr : tensor<f32> init #train.constant<0.1> frozen lr_scale 2.0
}

// -----

train.program @p {
  // expected-error @+1 {{lr_scale must be non-negative, got -1.000000e+00}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> lr_scale -1.0
}

// -----

train.program @p {
  // expected-error @+1 {{l1_decay must be non-negative, got -5.000000e-01}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> l1_decay -0.5
}

// -----

train.program @p {
  // expected-error @+1 {{l2_decay must be non-negative, got -2.500000e-01}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> l2_decay -0.25
}

// -----

train.program @p {
  // expected-error @+1 {{has one regularizer: l1_decay or l2_decay, not both}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> l1_decay 0.1 l2_decay 0.1
}

// -----

train.program @p {
  // expected-error @+1 {{clips its gradient by value (clip_min, clip_max) or by norm (clip_norm), not both}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> clip_max 1.0 clip_norm 1.0
}

// -----

train.program @p {
  // expected-error @+1 {{clip_norm must be positive, got 0.000000e+00}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> clip_norm 0.0
}

// -----

train.program @p {
  // expected-error @+1 {{clip_min needs clip_max}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> clip_min -1.0
}

// -----

train.program @p {
  // expected-error @+1 {{clip_max must be positive when clip_min, which defaults to -clip_max, is not given; got -1.000000e+00}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> clip_max -1.0
}

// -----

train.program @p {
  // expected-error @+1 {{clip_min must not exceed clip_max, got [2.000000e+00, 1.000000e+00]}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> clip_min 2.0 clip_max 1.0
}

// -----

train.program @p {
  // expected-error @+1 {{attribute 'lr_scale' must be finite, got inf}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> lr_scale 0x7FF0000000000000
}

// -----

train.program @p {
  // expected-error @+1 {{attribute 'clip_norm' must be finite, got nan}}
  train.param @w : tensor<4xf32> init #train.constant<0.0> clip_norm 0x7FF8000000000000
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{min must not exceed max, got [1.000000e+00, -1.000000e+00]}}
    %c = train.clip %g min 1.0 max -1.0 : tensor<4xf32>
    train.yield %c : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>) -> tensor<4xf32> {
    // expected-error @+1 {{max_norm must be positive, got -1.000000e+00}}
    %c = train.clip_by_norm %g max_norm -1.0 : tensor<4xf32>
    train.yield %c : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xi64>) -> tensor<4xi64> {
    // expected-error @+1 {{operand #0 must be ranked tensor of 32-bit float or 64-bit float values}}
    %s = train.sign %g : tensor<4xi64>
    train.yield %s : tensor<4xi64>
  }
}

// -----

train.program @p {
  // expected-error @+1 {{is sparse, which only a trainable table (a parameter of rank 1 or more) can be}}
  train.param @emb : tensor<10x4xf32> init #train.constant<0.0> frozen sparse
}

// -----

train.program @p {
  // expected-error @+1 {{is sparse, which only a trainable table (a parameter of rank 1 or more) can be}}
  train.param @scalar : tensor<f32> init #train.constant<0.0> sparse
}
