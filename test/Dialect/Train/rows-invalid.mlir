// Verifier tests of row-sparse values: the table types a !train.rows may
// stand for, and the ops that must agree on it.
// RUN: openks-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{row-sparse values stand for a table of static shape and rank at least 1, got 'tensor<?x16xf32>'}}
func.func private @dynamic() -> !train.rows<tensor<?x16xf32>>

// -----

// expected-error @+1 {{row-sparse values stand for a table of static shape and rank at least 1, got 'tensor<f32>'}}
func.func private @scalar() -> !train.rows<tensor<f32>>

// -----

// expected-error @+1 {{row-sparse values hold f32 or f64 rows, got 'tensor<10x4xi64>'}}
func.func private @ids() -> !train.rows<tensor<10x4xi64>>

// -----

// expected-error @+1 {{table type 'tensor<1x1x1x1x1x1x1xf32>' has rank above 6}}
func.func private @rank() -> !train.rows<tensor<1x1x1x1x1x1x1xf32>>

// -----

func.func @merge_none() {
  // expected-error @+1 {{expected 1 or more operands, but found 0}}
  %m = "train.merge_rows"() : () -> !train.rows<tensor<10x4xf32>>
  return
}

// -----

func.func @merge_tables(%a: !train.rows<tensor<10x4xf32>>, %b: !train.rows<tensor<12x4xf32>>) {
  // expected-error @+1 {{requires the same type for all operands and results}}
  %m = "train.merge_rows"(%a, %b) : (!train.rows<tensor<10x4xf32>>, !train.rows<tensor<12x4xf32>>) -> !train.rows<tensor<10x4xf32>>
  return
}

// -----

func.func @densify(%a: !train.rows<tensor<10x4xf32>>) {
  // expected-error @+1 {{result type 'tensor<10x8xf32>' is not the table type of '!train.rows<tensor<10x4xf32>>'}}
  %d = train.rows_to_dense %a : !train.rows<tensor<10x4xf32>> -> tensor<10x8xf32>
  return
}

// -----

func.func @grad_table(%ids: tensor<?xi64>, %de: tensor<?x4xf32>) {
  // expected-error @+1 {{incoming gradient type 'tensor<?x4xf32>' does not match the forward result type 'tensor<?x8xf32>'}}
  %g = train.embedding_grad %ids, %de : (tensor<?xi64>, tensor<?x4xf32>) -> !train.rows<tensor<10x8xf32>>
  return
}

// -----

train.program @p {
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> sparse
  train.step @step(%ids: tensor<?xi64>, %dw: tensor<?x2xf32>, %lr: tensor<f32>) -> tensor<f32> {
    %g = train.embedding_grad %ids, %dw
        : (tensor<?xi64>, tensor<?x2xf32>) -> !train.rows<tensor<9x2xf32>>
    // expected-error @+1 {{gradient type '!train.rows<tensor<9x2xf32>>' does not match parameter @w of type 'tensor<8x2xf32>'}}
    train.sgd @w, %g, %lr : !train.rows<tensor<9x2xf32>>, tensor<f32>
    train.yield %lr : tensor<f32>
  }
}

// -----

train.program @p {
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> sparse
  train.step @step(%ids: tensor<?xi64>, %dw: tensor<?x2xf64>) -> tensor<f32> {
    %g = train.embedding_grad %ids, %dw
        : (tensor<?xi64>, tensor<?x2xf64>) -> !train.rows<tensor<8x2xf64>>
    // expected-error @+1 {{gradient type '!train.rows<tensor<8x2xf64>>' does not match parameter @w of type 'tensor<8x2xf32>'}}
    train.param_grad @w, %g : !train.rows<tensor<8x2xf64>>
    %c = train.fill 1.0 : tensor<f32>
    train.yield %c : tensor<f32>
  }
}

// -----

train.program @p {
  train.param @w : tensor<8x2xf32> init #train.constant<0.0> sparse
  train.step @step(%g: tensor<8x2xf32>, %lr: tensor<f32>) -> tensor<f32> {
    // expected-error @+1 {{operand #0 must be variadic of row-sparse value: some rows of a table, with their ids, but got 'tensor<8x2xf32>'}}
    %m = "train.merge_rows"(%g) : (tensor<8x2xf32>) -> tensor<8x2xf32>
    train.yield %lr : tensor<f32>
  }
}

// -----

func.func @changed_rows_type(%a: tensor<10x4xf32>, %b: tensor<10x4xf32>) {
  // expected-error @+1 {{result type '!train.rows<tensor<10x8xf32>>' is not the rows of 'tensor<10x4xf32>'}}
  %c = train.changed_rows %a, %b : tensor<10x4xf32> -> !train.rows<tensor<10x8xf32>>
  return
}

// -----

train.program @scatter_into_other_type {
  train.param @t : tensor<10x8xf32> init #train.constant<0.0>
  train.step @step(%a: tensor<10x4xf32>, %b: tensor<10x4xf32>) {
    %c = train.changed_rows %a, %b : tensor<10x4xf32> -> !train.rows<tensor<10x4xf32>>
    // expected-error @+1 {{value type 'tensor<10x4xf32>' does not match parameter @t of type 'tensor<10x8xf32>'}}
    train.scatter_rows %c into @t : !train.rows<tensor<10x4xf32>>
    train.yield
  }
}
