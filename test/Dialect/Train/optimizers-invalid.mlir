// Verifier errors of the optimizer ops (sgd, momentum, adam, adagrad).
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
