// Verifier errors of ps.send_barrier and ps.fetch_barrier.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s() {
    // expected-error @+1 {{barrier endpoints must not be empty}}
    ps.send_barrier []
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{barrier endpoints list '127.0.0.1:6170' twice}}
    ps.fetch_barrier ["127.0.0.1:6170", "127.0.0.1:6170"]
    train.yield
  }
}

// -----

train.program @p {
  train.step @s() {
    // expected-error @+1 {{endpoint 'localhost' must have the form host:port}}
    ps.send_barrier ["localhost"]
    train.yield
  }
}
