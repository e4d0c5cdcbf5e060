// Verifier errors of the train dialect's program structure: parameters,
// initializers, steps, yields, reads and writes. One case per error.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  // expected-error @+1 {{parameter type must have a static shape, got 'tensor<?x4xf32>'}}
  train.param @w : tensor<?x4xf32> init #train.constant<0.0>
}

// -----

train.program @p {
  // expected-error @+1 {{parameter element type must be f32, f64 or i64, got 'i32'}}
  train.param @w : tensor<4xi32> init #train.constant<0.0> frozen
}

// -----

train.program @p {
  // expected-error @+1 {{an integer parameter must be frozen: it has no gradient}}
  train.param @step : tensor<i64> init #train.constant<0.0>
}

// -----

train.program @p {
  // expected-error @+1 {{value 5.000000e-01 is not an integer, but the element type is 'i64'}}
  train.param @step : tensor<i64> init #train.constant<0.5> frozen
}

// -----

train.program @p {
  // expected-error @+1 {{value 1.000000e+39 does not fit in 'f32'}}
  train.param @w : tensor<4xf32> init #train.constant<1.0e39>
}

// -----

train.program @p {
  // expected-error @+1 {{constant initializer value must be finite}}
  train.param @w : tensor<4xf32> init #train.constant<0x7FF0000000000000>
}

// -----

train.program @p {
  // expected-error @+1 {{uniform initializer needs finite bounds with min < max, got [1.000000e-01, -1.000000e-01)}}
  train.param @w : tensor<4xf32> init #train.uniform<min = 0.1, max = -0.1, seed = 1>
}

// -----

train.program @p {
  // expected-error @+1 {{gaussian initializer needs a finite mean and a positive, finite std}}
  train.param @w : tensor<4xf32> init #train.gaussian<mean = 0.0, std = 0.0, seed = 1>
}

// -----

train.program @p {
  // expected-error @+1 {{uniform initializer needs a floating-point parameter, got 'tensor<4xi64>'}}
  train.param @ids : tensor<4xi64> init #train.uniform<min = 0.0, max = 1.0, seed = 1> frozen
}

// -----

train.program @p {
  // expected-error @+1 {{gaussian initializer needs a floating-point parameter, got 'tensor<4xi64>'}}
  train.param @ids : tensor<4xi64> init #train.gaussian<mean = 0.0, std = 1.0, seed = 1> frozen
}

// -----

train.program @p {
  // expected-error @+1 {{xavier initializer needs a floating-point parameter, got 'tensor<4xi64>'}}
  train.param @ids : tensor<4xi64> init #train.xavier<seed = 1> frozen
}

// -----

train.program @p {
  // expected-error @+1 {{xavier initializer needs a parameter of rank >= 1 to take fan-in and fan-out from}}
  train.param @s : tensor<f32> init #train.xavier<seed = 1>
}

// -----

train.program @p {
  // expected-error @+1 {{fed input #1 must be a ranked tensor, got 'f32'}}
  train.step @step(%x: tensor<4xf32>, %y: f32) {
    train.yield
  }
}

// -----

train.program @p {
  // expected-error @+1 {{fetched result #0 must be a ranked tensor, got 'f32'}}
  train.step @step(%x: tensor<4xf32>) -> f32 {
    train.yield %x : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.step @step(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
    // expected-error @+1 {{yields 1 values, but the step has 2 results}}
    train.yield %x : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.step @step(%x: tensor<4xf32>) -> tensor<4xf64> {
    // expected-error @+1 {{operand #0 has type 'tensor<4xf32>', but the step result has type 'tensor<4xf64>'}}
    train.yield %x : tensor<4xf32>
  }
}

// -----

train.program @p {
  train.step @step() {
    // expected-error @+1 {{refers to @missing, which is not defined in an enclosing symbol table}}
    %w = train.read @missing : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @step() {
    // expected-error @+1 {{refers to @step, which is a 'train.step', not a parameter}}
    %w = train.read @step : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step() {
    // expected-error @+1 {{value type 'tensor<2x4xf32>' does not match parameter @w of type 'tensor<4x2xf32>'}}
    %w = train.read @w : tensor<2x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
  train.step @step(%v: tensor<4x2xf64>) {
    // expected-error @+1 {{value type 'tensor<4x2xf64>' does not match parameter @w of type 'tensor<4x2xf32>'}}
    train.write %v to @w : tensor<4x2xf64>
    train.yield
  }
}

// -----

// expected-error @+1 {{'train.yield' op expects parent op 'train.step'}}
train.yield
