// Verifier errors of the autodiff and optimizer helper ops and of the
// train.role attribute.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0> frozen
  train.step @s(%g: tensor<4xf32>) {
    // expected-error @+1 {{names a gradient for frozen parameter @w}}
    train.param_grad @w, %g : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4xf32> init #train.constant<0.0>
  train.step @s(%g: tensor<2xf32>) {
    // expected-error @+1 {{gradient type 'tensor<2xf32>' does not match parameter @w of type 'tensor<4xf32>'}}
    train.param_grad @w, %g : tensor<2xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<2xf32>) {
    // expected-error @+1 {{max_norm must be positive, got 0.000000e+00}}
    %c = train.clip_by_global_norm %g max_norm 0.0 : tensor<2xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{needs at least one gradient}}
    "train.clip_by_global_norm"() <{max_norm = 1.0 : f64}> : () -> ()
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%step: tensor<i64>) {
    // expected-error @+1 {{decay_steps must be at least 1, got 0}}
    %a = train.exponential_decay %step learning_rate 0.1 decay_rate 0.5 decay_steps 0 : tensor<i64> -> tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%step: tensor<i64>) {
    // expected-error @+1 {{decay_rate must be positive, got -5.000000e-01}}
    %a = train.exponential_decay %step learning_rate 0.1 decay_rate -0.5 decay_steps 10 : tensor<i64> -> tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%step: tensor<i64>) {
    // expected-error @+1 {{needs one more value than boundaries, got 2 values for 2 boundaries}}
    %a = train.piecewise_decay %step boundaries [1, 2] values [0.1, 0.01] : tensor<i64> -> tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%step: tensor<i64>) {
    // expected-error @+1 {{boundaries must increase strictly, but 5 follows 5}}
    %a = train.piecewise_decay %step boundaries [5, 5] values [0.1, 0.01, 0.001] : tensor<i64> -> tensor<f32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<4xf32>) {
    // expected-error @+1 {{'train.role' must be a #train.role, got 2 : i64}}
    %y = train.relu %x {train.role = 2} : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<4xf32>) {
    // expected-error @+1 {{unknown train dialect attribute 'train.rol'}}
    %y = train.relu %x {train.rol = #train.role<forward>} : tensor<4xf32>
    train.yield
  }
}
