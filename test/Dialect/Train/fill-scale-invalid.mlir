// Verifier errors of train.fill and train.scale.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s() {
    // expected-error @+1 {{value 2.500000e+00 is not an integer, but the element type is 'i64'}}
    %c = train.fill 2.5 : tensor<4xi64>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{value 1.000000e+19 does not fit in 'i64'}}
    %c = train.fill 1.0e19 : tensor<4xi64>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{result #0 must be statically shaped tensor of any type values}}
    %c = train.fill 1.0 : tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<4xi64>) {
    // expected-error @+1 {{operand #0 must be float tensor or row-sparse value, but got 'tensor<4xi64>'}}
    %y = train.scale %x by 2.0 : tensor<4xi64>
    train.yield
  }
}
