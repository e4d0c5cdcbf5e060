// Verifier errors of ps.send and ps.recv.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%g: tensor<4xf32>) {
    // expected-error @+1 {{endpoint '127.0.0.1:0' has an invalid port '0' (expected 1 to 65535)}}
    ps.send %g to "127.0.0.1:0" as "w@GRAD" : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%g: tensor<4xf32>) {
    // expected-error @+1 {{variable name must not be empty}}
    ps.send %g to "127.0.0.1:6170" as "" : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{endpoint '[::1:6170' has an unclosed '['}}
    %w = ps.recv "w" from "[::1:6170" : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{endpoint '[::1]' needs ':port' after the address}}
    %w = ps.recv "w" from "[::1]" : tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{variable name must not be empty}}
    %w = ps.recv "" from "127.0.0.1:6170" : tensor<4xf32>
    train.yield
  }
}
