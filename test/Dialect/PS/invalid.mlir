// Verifier errors of the ps dialect's role programs: servers, blocks and
// update regions. One case per error.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{endpoint '127.0.0.1' must have the form host:port}}
ps.server @s endpoint "127.0.0.1" fan_in 1 mode sync {
}

// -----

// expected-error @+1 {{endpoint '127.0.0.1:70000' has an invalid port '70000' (expected 1 to 65535)}}
ps.server @s endpoint "127.0.0.1:70000" fan_in 1 mode sync {
}

// -----

// expected-error @+1 {{endpoint 'bad host:6170' has an invalid host 'bad host'}}
ps.server @s endpoint "bad host:6170" fan_in 1 mode sync {
}

// -----

// expected-error @+1 {{fan_in must be at least 1, got 0}}
ps.server @s endpoint "127.0.0.1:6170" fan_in 0 mode sync {
}

// -----

// expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'mode' [sync, async, half_async, geo]}}
ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode bogus {
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{cannot appear in a server program, which holds only 'ps.block', 'ps.norm' and 'ps.update' ops}}
  train.param @w : tensor<4xf32> init #train.constant<0.0>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  ps.update @w on grad (%g: tensor<4xf32>) {
  }
  // expected-error @+1 {{is the second update region of block @w}}
  ps.update @w on grad (%g: tensor<4xf32>) {
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{parameter type must have a static shape, got 'tensor<?xf32>'}}
  ps.block @w : tensor<?xf32> init #train.constant<0.0>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{xavier initializer needs a parameter of rank >= 1 to take fan-in and fan-out from}}
  ps.block @w : tensor<f32> init #train.xavier<seed = 1>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{origin type and rows need an origin parameter}}
  "ps.block"() <{sym_name = "w", type = tensor<2xf32>, row_begin = 0 : i64, row_end = 2 : i64, initializer = #train.constant<0.0>}> : () -> ()
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{a slice needs its origin type and its row range}}
  "ps.block"() <{sym_name = "w.block0", type = tensor<2xf32>, origin = @w, initializer = #train.constant<0.0>}> : () -> ()
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{a slice must keep the origin's element type and trailing dimensions: 'tensor<2x3xf32>' is not a row block of 'tensor<4x2xf32>'}}
  ps.block @w.block0 : tensor<2x3xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{rows [2, 6) are not a non-empty range within the 4 rows of the origin}}
  ps.block @w.block1 : tensor<4x2xf32> of @w : tensor<4x2xf32> rows [2, 6) init #train.xavier<seed = 1>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{type 'tensor<3x2xf32>' does not hold rows [0, 2)}}
  ps.block @w.block0 : tensor<3x2xf32> of @w : tensor<4x2xf32> rows [0, 2) init #train.xavier<seed = 1>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{an integer parameter must be frozen: it has no gradient}}
  ps.block @c.block0 : tensor<2xi64> of @c : tensor<4xi64> rows [0, 2) init #train.constant<0.0>
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{refers to @missing, which is not a 'ps.block' of this server}}
  ps.update @missing on grad (%g: tensor<4xf32>) {
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{received value type 'tensor<8xf32>' does not match block @w of type 'tensor<4xf32>'}}
  ps.update @w on grad (%g: tensor<8xf32>) {
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{expected 'grad' or 'delta', got 'w'}}
  ps.update @w on w (%g: tensor<4xf32>) {
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{runs on gradients or deltas, not on parameters}}
  ps.update @w on param (%g: tensor<4xf32>) {
  }
}

// -----

// Tests that a server's update regions take the kind of message its mode
// sends: gradients, or GEO deltas.
ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode geo {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{runs on gradients, but a server in geo mode receives deltas}}
  ps.update @w on grad (%g: tensor<4xf32>) {
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 2 mode async {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{runs on deltas, but a server in async mode receives gradients}}
  ps.update @w on delta (%g: tensor<4xf32>) {
  }
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  // expected-error @+1 {{is trainable but has no 'ps.update' region; mark it frozen or add one}}
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
}

// -----

// Tests that fan_in is read as a signed value.
// expected-error @+1 {{fan_in must be at least 1, got -1}}
ps.server @s endpoint "127.0.0.1:6170" fan_in -1 mode sync {
}

// -----

ps.server @s endpoint "127.0.0.1:6170" fan_in 1 mode sync {
  ps.block @w : tensor<4xf32> init #train.constant<0.0>
  // expected-error @+1 {{region must take exactly one ranked tensor or row-sparse value: the received value}}
  "ps.update"() <{block = @w, kind = 0 : i32}> ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>):
  }) : () -> ()
}

// -----

// expected-error @+1 {{'ps.block' op expects parent op 'ps.server'}}
ps.block @b : tensor<4xf32> init #train.constant<0.0>

// -----

train.program @p {
  // expected-error @+1 {{'ps.update' op expects parent op 'ps.server'}}
  ps.update @w on grad (%g: tensor<4xf32>) {
  }
}
