// Verifier errors of ps.send, ps.recv and the barriers on their own: what
// they name must be a server and one of its blocks, of the value's type.
// The rules that tie a whole worker to its servers are in job-invalid.mlir.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// Tests that a send must name a block of a server.
ps.worker @w main @step startup @step2 {
  train.step @step(%g: tensor<4xf32>) {
    // expected-error @+1 {{refers to @ps0::@nowhere, but server @ps0 holds no block @nowhere}}
    ps.send grad %g to @ps0::@nowhere : tensor<4xf32>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @b : tensor<4xf32> init #train.constant<0.0> frozen
}

// -----

// Tests that the root of a send's target must be a server.
ps.worker @w main @step startup @step2 {
  train.step @step(%g: tensor<4xf32>) {
    // expected-error @+1 {{refers to @w, which is not a 'ps.server' of the module}}
    ps.send grad %g to @w::@b : tensor<4xf32>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}

// -----

// Tests that a send names both the server and the block.
ps.worker @w main @step startup @step2 {
  train.step @step(%g: tensor<4xf32>) {
    // expected-error @+1 {{must name a server and a block, as @server::@block, got @ps0}}
    ps.send grad %g to @ps0 : tensor<4xf32>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
}

// -----

// Tests that a sent value has the type of the block it feeds.
ps.worker @w main @step startup @step2 {
  train.step @step(%g: tensor<8xf32>) {
    // expected-error @+1 {{has type 'tensor<8xf32>', but block @ps0::@b has type 'tensor<4xf32>'}}
    ps.send grad %g to @ps0::@b : tensor<8xf32>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @b : tensor<4xf32> init #train.constant<0.0> frozen
}

// -----

// Tests that a received value has the type of its block.
ps.worker @w main @step startup @step2 {
  train.step @step() {
    // expected-error @+1 {{has type 'tensor<4xf64>', but block @ps0::@b has type 'tensor<4xf32>'}}
    %b = ps.recv @ps0::@b : tensor<4xf64>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @b : tensor<4xf32> init #train.constant<0.0> frozen
}

// -----

// Tests that a receive must name an existing block.
ps.worker @w main @step startup @step2 {
  train.step @step() {
    // expected-error @+1 {{refers to @ps0::@gone, but server @ps0 holds no block @gone}}
    %b = ps.recv @ps0::@gone : tensor<4xf32>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}
ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
}

// -----

// Tests that parameters are received, not sent.
ps.worker @w main @step startup @step2 {
  train.step @step(%g: tensor<4xf32>) {
    // expected-error @+1 {{sends gradients and deltas; a worker receives parameters with 'ps.recv'}}
    ps.send param %g to @ps0::@b : tensor<4xf32>
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}

// -----

// Tests that communication belongs in a worker program.
train.program @p {
  train.step @s() {
    // expected-error @+1 {{must be inside a 'ps.worker'}}
    %b = ps.recv @ps0::@b : tensor<4xf32>
    train.yield
  }
}

// -----

// Tests an unknown message kind.
ps.worker @w main @step startup @step2 {
  train.step @step(%g: tensor<4xf32>) {
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [grad, delta, param]}}
    ps.send gradient %g to @ps0::@b : tensor<4xf32>
    train.yield
  }
}

// -----

ps.worker @w main @step startup @step2 {
  train.step @step() {
    // expected-error @+1 {{must list at least one server}}
    ps.send_barrier []
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}

// -----

ps.worker @w main @step startup @step2 {
  train.step @step() {
    // expected-error @+1 {{lists @ps0 twice}}
    ps.fetch_barrier [@ps0, @ps0]
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}

// -----

// Tests that a barrier lists servers, not endpoints or other symbols.
ps.worker @w main @step startup @step2 {
  train.step @step() {
    // expected-error @+1 {{refers to @step2, which is not a 'ps.server' of the module}}
    ps.send_barrier [@step2]
    train.yield
  }
  train.step @step2() {
    train.yield
  }
}

// -----

ps.worker @w main @step startup @step2 {
  train.step @step() {
    // expected-error @+1 {{attribute 'servers' failed to satisfy constraint: flat symbol ref array attribute}}
    ps.send_barrier ["127.0.0.1:6170"]
    train.yield
  }
}
