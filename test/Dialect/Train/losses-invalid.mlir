// Verifier errors of the losses and their grad ops.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

train.program @p {
  train.step @s(%logits: tensor<?x2x5xf32>, %y: tensor<?xi64>) {
    // expected-error @+2 {{logits must be rank 2 ([batch, classes]), got rank 3}}
    // expected-error @+1 {{failed to infer returned types}}
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x2x5xf32>, tensor<?xi64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logits: tensor<?x10xf32>, %y: tensor<?x1xi64>) {
    // expected-error @+2 {{labels must be rank 1 ([batch]), got rank 2}}
    // expected-error @+1 {{failed to infer returned types}}
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x10xf32>, tensor<?x1xi64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logits: tensor<16x10xf32>, %y: tensor<32xi64>) {
    // expected-error @+2 {{batch sizes differ: logits have 16 rows, labels 32}}
    // expected-error @+1 {{failed to infer returned types}}
    %l = train.softmax_cross_entropy %logits, %y : (tensor<16x10xf32>, tensor<32xi64>) -> tensor<16xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logits: tensor<?x10xf32>, %y: tensor<?xf32>) {
    // expected-error @+1 {{operand #1 must be ranked tensor of 64-bit signless integer values}}
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x10xf32>, tensor<?xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logits: tensor<?x10xf32>, %y: tensor<?xi64>, %d: tensor<f32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<f32>' does not match the forward result type 'tensor<?xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dl = train.softmax_cross_entropy_grad %logits, %y, %d
        : (tensor<?x10xf32>, tensor<?xi64>, tensor<f32>) -> tensor<?x10xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logit: tensor<?x1xf32>, %click: tensor<?xf32>) {
    // expected-error @+2 {{labels 'tensor<?xf32>' must have the shape of the logits 'tensor<?x1xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %l = train.sigmoid_cross_entropy %logit, %click : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logit: tensor<?x1xf32>, %click: tensor<?x1xf64>) {
    // expected-error @+2 {{operand element types differ: 'f32' vs 'f64'}}
    // expected-error @+1 {{failed to infer returned types}}
    %l = train.sigmoid_cross_entropy %logit, %click : (tensor<?x1xf32>, tensor<?x1xf64>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%logit: tensor<?x1xf32>, %click: tensor<?x1xf32>, %d: tensor<?xf32>) {
    // expected-error @+2 {{incoming gradient type 'tensor<?xf32>' does not match the forward result type 'tensor<?x1xf32>'}}
    // expected-error @+1 {{failed to infer returned types}}
    %dl = train.sigmoid_cross_entropy_grad %logit, %click, %d
        : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%pred: tensor<?x1xf32>, %target: tensor<?xf32>) {
    // expected-error @+1 {{'train.square_error' op requires the same type for all operands and results}}
    %e = "train.square_error"(%pred, %target) : (tensor<?x1xf32>, tensor<?xf32>) -> tensor<?x1xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%pos: tensor<?xf32>, %neg: tensor<?xf64>) {
    // expected-error @+1 {{'train.margin_loss' op requires the same type for all operands and results}}
    %l = "train.margin_loss"(%pos, %neg) <{margin = 1.0 : f64}> : (tensor<?xf32>, tensor<?xf64>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%pos: tensor<?xf32>, %neg: tensor<?xf32>) {
    // expected-error @+1 {{'train.margin_loss' op attribute 'margin' must be finite, got inf}}
    %l = "train.margin_loss"(%pos, %neg) <{margin = 0x7FF0000000000000 : f64}> : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    train.yield
  }
}

// -----

train.program @p {
  train.step @s(%pos: tensor<?xf32>, %neg: tensor<?xf32>, %d: tensor<?x1xf32>) {
    // expected-error @+1 {{'train.margin_loss_grad' op requires the same type for all operands and results}}
    %dp, %dn = "train.margin_loss_grad"(%pos, %neg, %d) <{margin = 1.0 : f64}>
        : (tensor<?xf32>, tensor<?xf32>, tensor<?x1xf32>) -> (tensor<?xf32>, tensor<?xf32>)
    train.yield
  }
}
