// Verifier errors of the optimizer ops (sgd, momentum, adam, adagrad,
// rmsprop, decayed_adagrad, ftrl, adamax).
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f64>) {
    // expected-error @+1 {{learning rate element type 'f64' does not match gradient element type 'f32'}}
    train.sgd @w, %g, %lr : tensor<4xf32>, tensor<f64>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<4xf32>, %lr: tensor<1xf32>) {
    // expected-error @+1 {{operand #1 must be 0D tensor of 32-bit float or 64-bit float values}}
    train.sgd @w, %g, %lr : tensor<4xf32>, tensor<1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{cannot update frozen parameter @w}}
    train.sgd @w, %g, %lr : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<8xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{gradient type 'tensor<8xf32>' does not match parameter @w of type 'tensor<4xf32>'}}
    train.sgd @w, %g, %lr : tensor<8xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{refers to @w, which is not defined in an enclosing symbol table}}
    train.sgd @w, %g, %lr : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @v : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{state parameter @v must be frozen, or autodiff would train it}}
    train.momentum @w, %g, %lr velocity @v : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @v : tensor<2x2xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{state parameter @v has type 'tensor<2x2xf32>', expected 'tensor<4xf32>'}}
    train.momentum @w, %g, %lr velocity @v : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{@w is used twice by this optimizer}}
    train.momentum @w, %g, %lr velocity @w : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @v : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{mu must be non-negative, got -5.000000e-01}}
    train.momentum @w, %g, %lr velocity @v {mu = -0.5 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m1 : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @m2 : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @b1 : tensor<1xf32> init #train.constant<0.9> frozen
  train.param @b2 : tensor<f32> init #train.constant<0.999> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{state parameter @b1 has type 'tensor<1xf32>', expected 'tensor<f32>'}}
    train.adam @w, %g, %lr moments(@m1, @m2) beta_pows(@b1, @b2) : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m1 : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @b1 : tensor<f32> init #train.constant<0.9> frozen
  train.param @b2 : tensor<f32> init #train.constant<0.999> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{@m1 is used twice by this optimizer}}
    train.adam @w, %g, %lr moments(@m1, @m1) beta_pows(@b1, @b2) : tensor<4xf32>, tensor<f32>
    train.yield
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
    // expected-error @+1 {{beta1 must be in [0, 1), got 1.000000e+00}}
    train.adam @w, %g, %lr moments(@m1, @m2) beta_pows(@b1, @b2) {beta1 = 1.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
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
    // expected-error @+1 {{beta2 must be in [0, 1), got -1.000000e-01}}
    train.adam @w, %g, %lr moments(@m1, @m2) beta_pows(@b1, @b2) {beta2 = -0.1 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
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
    // expected-error @+1 {{epsilon must be positive, got 0.000000e+00}}
    train.adam @w, %g, %lr moments(@m1, @m2) beta_pows(@b1, @b2) {epsilon = 0.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{epsilon must be positive, got -1.000000e+00}}
    train.adagrad @w, %g, %lr moment @m {epsilon = -1.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{refers to @s, which is a 'train.step', not a parameter}}
    train.adagrad @w, %g, %lr moment @s : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @ms : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @mom : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{decay must be in [0, 1), got 1.000000e+00}}
    train.rmsprop @w, %g, %lr mean_square @ms moment @mom {decay = 1.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @ms : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @mom : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{epsilon must be positive, got 0.000000e+00}}
    train.rmsprop @w, %g, %lr mean_square @ms moment @mom {epsilon = 0.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @ms : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @mom : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{momentum must be non-negative, got -1.000000e-01}}
    train.rmsprop @w, %g, %lr mean_square @ms moment @mom {momentum = -0.1 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @ms : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @mom : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @mg : tensor<2x2xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{state parameter @mg has type 'tensor<2x2xf32>', expected 'tensor<4xf32>'}}
    train.rmsprop @w, %g, %lr mean_square @ms moment @mom centered @mg : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @ms : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{@ms is used twice by this optimizer}}
    train.rmsprop @w, %g, %lr mean_square @ms moment @ms : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{decay must be in [0, 1), got -5.000000e-01}}
    train.decayed_adagrad @w, %g, %lr moment @m {decay = -0.5 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{state parameter @m must be frozen, or autodiff would train it}}
    train.decayed_adagrad @w, %g, %lr moment @m : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{epsilon must be positive, got -1.000000e+00}}
    train.decayed_adagrad @w, %g, %lr moment @m {epsilon = -1.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @n : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @z : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{l1 must be non-negative, got -1.000000e+00}}
    train.ftrl @w, %g, %lr accumulators(@n, @z) {l1 = -1.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @n : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @z : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{l2 must be non-negative, got -2.000000e+00}}
    train.ftrl @w, %g, %lr accumulators(@n, @z) {l2 = -2.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @n : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @z : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{lr_power must not be positive, got 5.000000e-01}}
    train.ftrl @w, %g, %lr accumulators(@n, @z) {lr_power = 0.5 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @n : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @z : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{attribute 'lr_power' must be finite, got -inf}}
    train.ftrl @w, %g, %lr accumulators(@n, @z) {lr_power = 0xFFF0000000000000 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @u : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @b1 : tensor<f32> init #train.constant<0.9> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{beta2 must be in [0, 1), got 1.500000e+00}}
    train.adamax @w, %g, %lr moment @m inf_norm @u beta1_pow @b1 {beta2 = 1.5 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @u : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @b1 : tensor<f32> init #train.constant<0.9> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{epsilon must be positive, got 0.000000e+00}}
    train.adamax @w, %g, %lr moment @m inf_norm @u beta1_pow @b1 {epsilon = 0.0 : f64} : tensor<4xf32>, tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.param @m : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @u : tensor<4xf32> init #train.constant<0.0> frozen
  train.param @b1 : tensor<4xf32> init #train.constant<0.9> frozen
  train.step @s(%g: tensor<4xf32>, %lr: tensor<f32>) {
    // expected-error @+1 {{state parameter @b1 has type 'tensor<4xf32>', expected 'tensor<f32>'}}
    train.adamax @w, %g, %lr moment @m inf_norm @u beta1_pow @b1 : tensor<4xf32>, tensor<f32>
    train.yield
  }
}
