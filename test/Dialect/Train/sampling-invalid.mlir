// Verifier errors of dropout, nce and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%x: tensor<?x8xf32>) {
    // expected-error @+1 {{'train.dropout' op needs a step counter to draw its mask in training (or is_test for inference)}}
    %y = train.dropout %x prob 0.5 : tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %step: tensor<i64>) {
    // expected-error @+1 {{'train.dropout' op dropout_prob must be in [0, 1], got 1.500000e+00}}
    %y = train.dropout %x step %step prob 1.5 : tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %step: tensor<i32>) {
    // expected-error @+1 {{operand #1 must be 0D tensor of 64-bit signless integer values}}
    %y = "train.dropout"(%x, %step) <{dropout_prob = 0.5 : f64}> : (tensor<?x8xf32>, tensor<i32>) -> tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%x: tensor<?x8xf32>, %step: tensor<i64>) {
    // expected-error @+1 {{'train.dropout' op failed to verify that all of {x, out} have same type}}
    %y = "train.dropout"(%x, %step) <{dropout_prob = 0.5 : f64}> : (tensor<?x8xf32>, tensor<i64>) -> tensor<?x4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%d: tensor<?x8xf32>, %step: tensor<i64>) {
    // expected-error @+1 {{'train.dropout_grad' op dropout_prob must be in [0, 1], got -1.000000e-01}}
    %dx = train.dropout_grad %d step %step prob -0.1 : tensor<?x8xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<?x64xf32>, %y: tensor<?xi64>, %w: tensor<1000x64xf32>, %b: tensor<1000xf32>, %s: tensor<i64>) {
    // expected-error @+1 {{'train.nce' op num_neg_samples must be at least 1, got 0}}
    %c = train.nce %h, %y, %w, %b, %s num_neg_samples 0 sampler uniform
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<?x32xf32>, %y: tensor<?xi64>, %w: tensor<1000x64xf32>, %b: tensor<1000xf32>, %s: tensor<i64>) {
    // expected-error @+2 {{widths differ: input has 32 columns, weight 64}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.nce %h, %y, %w, %b, %s num_neg_samples 5 sampler uniform
        : (tensor<?x32xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<?x64xf32>, %y: tensor<?xi64>, %w: tensor<1000x64xf32>, %b: tensor<999xf32>, %s: tensor<i64>) {
    // expected-error @+2 {{class counts differ: weight has 1000 rows, bias 999}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.nce %h, %y, %w, %b, %s num_neg_samples 5 sampler uniform
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<999xf32>, tensor<i64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<4x64xf32>, %y: tensor<8xi64>, %w: tensor<1000x64xf32>, %b: tensor<1000xf32>, %s: tensor<i64>) {
    // expected-error @+2 {{batch sizes differ: input has 4 rows, labels 8}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.nce %h, %y, %w, %b, %s num_neg_samples 5 sampler uniform
        : (tensor<4x64xf32>, tensor<8xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<4xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<?x64xf32>, %y: tensor<?x1x1xi64>, %w: tensor<1000x64xf32>, %b: tensor<1000xf32>, %s: tensor<i64>) {
    // expected-error @+2 {{labels must be rank 1 ([batch]) or 2 ([batch, true classes]), got rank 3}}
    // expected-error @+1 {{failed to infer returned types}}
    %c = train.nce %h, %y, %w, %b, %s num_neg_samples 5 sampler uniform
        : (tensor<?x64xf32>, tensor<?x1x1xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<?x64xf32>, %y: tensor<?xi64>, %w: tensor<1000x64xf32>, %b: tensor<1000xf32>, %s: tensor<i64>, %d: tensor<?x1xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?x1xf32>' does not match the forward result type 'tensor<?xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dh, %dw, %db = train.nce_grad %h, %y, %w, %b, %s, %d num_neg_samples 5 sampler uniform
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>, tensor<?x1xf32>)
        -> (tensor<?x64xf32>, tensor<1000x64xf32>, tensor<1000xf32>)
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%h: tensor<?x64xf32>, %y: tensor<?xi64>, %w: tensor<1000x64xf32>, %b: tensor<1000xf32>, %s: tensor<i64>, %d: tensor<?xf32>) {
    // expected-error @+1 {{'train.nce_grad' op num_neg_samples must be at least 1, got -2}}
    %dh, %dw, %db = train.nce_grad %h, %y, %w, %b, %s, %d num_neg_samples -2 sampler uniform
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<1000x64xf32>, tensor<1000xf32>, tensor<i64>, tensor<?xf32>)
        -> (tensor<?x64xf32>, tensor<1000x64xf32>, tensor<1000xf32>)
    train.yield
  }
}
