//===- TrainMathOps.td - Element-wise math, norms, cosines -*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Subtraction and division with bias broadcast, element-wise unary math,
// L1 and L2 norms along a dimension and row-wise cosine similarity, with
// their grad ops. Included from TrainOps.td, whose base classes they use.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINMATHOPS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINMATHOPS_TD

//===----------------------------------------------------------------------===//
// Subtraction and division
//===----------------------------------------------------------------------===//

def Train_SubOp : Train_BroadcastBinaryOp<"sub", "subtraction">;
def Train_DivOp : Train_BroadcastBinaryOp<"div", "division">;

def Train_SubGradOp
    : Train_BroadcastBinaryGradOp<"sub", "`dx = dout`, `dy = -dout`.">;
def Train_DivGradOp
    : Train_BroadcastBinaryGradOp<"div",
          "`dx = dout / y`, `dy = -dout * x / y^2`.">;

//===----------------------------------------------------------------------===//
// Element-wise unary math
//===----------------------------------------------------------------------===//

/// An element-wise unary op named as Paddle's, same type in and out.
class Train_UnaryMathOp<string mnemonic, string formula, string notes = "">
    : Train_PureOp<mnemonic, [SameOperandsAndResultType,
                              DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Element-wise " # mnemonic # ": `" # formula # "`.";
  let description = [{
    Paddle's `}] # mnemonic # "`. " # notes # [{

    ```mlir
    %y = train.}] # mnemonic # [{ %x : tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Train_AbsOp : Train_UnaryMathOp<"abs", "|x|">;
def Train_SquareOp : Train_UnaryMathOp<"square", "x * x">;
def Train_SqrtOp : Train_UnaryMathOp<"sqrt", "sqrt(x)",
    "A negative element gives NaN and the gradient at 0 is infinite, as in "
    "Paddle; `train.p_norm` is the distance whose gradient is safe at 0.">;
def Train_ExpOp : Train_UnaryMathOp<"exp", "exp(x)">;
def Train_LogOp : Train_UnaryMathOp<"log", "log(x)",
    "`log(0)` is `-inf` and a negative element gives NaN, as in Paddle.">;
def Train_SoftsignOp : Train_UnaryMathOp<"softsign", "x / (1 + |x|)">;

/// Gradient of a unary op, written in terms of the forward input.
class Train_UnaryGradOp<string mnemonic, string rule>
    : Train_PureOp<mnemonic # "_grad", [SameOperandsAndResultType]> {
  let summary = "Gradient of `train." # mnemonic # "`: " # rule # ".";
  let description = [{
    Takes the forward input `x` and the gradient of the result, as Paddle's
    `}] # mnemonic # [{_grad` does.

    ```mlir
    %dx = train.}] # mnemonic # [{_grad %x, %dout : tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$dx);
  let assemblyFormat = "$x `,` $dout attr-dict `:` type($x)";
}

def Train_AbsGradOp
    : Train_UnaryGradOp<"abs", "dx = dout * sign(x), 0 where x = 0">;
def Train_SquareGradOp : Train_UnaryGradOp<"square", "dx = 2 * x * dout">;
def Train_LogGradOp : Train_UnaryGradOp<"log", "dx = dout / x">;
def Train_SoftsignGradOp
    : Train_UnaryGradOp<"softsign", "dx = dout / (1 + |x|)^2">;
// As Paddle's, these take the forward result.
def Train_SqrtGradOp : Train_ActivationGradOp<"sqrt", "dx = dout / (2 * out)">;
def Train_ExpGradOp : Train_ActivationGradOp<"exp", "dx = dout * out">;

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

def Train_PNormOp : Train_InferredOp<"p_norm", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "L1 or L2 norm along one dimension.";
  let description = [{
    `out = (sum |x|^p)^(1/p)` over dimension `axis`, for `p` 1 or 2
    (Paddle's `p_norm` with `porder` 1 or 2). Without `keep_dims` the
    dimension is dropped from the result; with it, it stays as size 1
    (Paddle's `keepdim`). `epsilon` only guards the gradient: see
    `train.p_norm_grad`.

    ```mlir
    %d = train.p_norm %diff p 2 axis 1 : (tensor<?x16xf32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, I64Attr:$p, I64Attr:$axis,
                       UnitAttr:$keep_dims,
                       DefaultValuedAttr<F64Attr, "1.0e-12">:$epsilon);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = [{
    $x `p` $p `axis` $axis (`keep_dims` $keep_dims^)? attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Train_PNormGradOp : Train_InferredOp<"p_norm_grad"> {
  let summary = "Gradient of `train.p_norm`.";
  let description = [{
    Takes the forward input `x`, result `out` and the gradient of the
    result; `p`, `axis`, `keep_dims` and `epsilon` are those of the forward
    op. For `p = 2`, `dx = dout * x / (out + epsilon)`, so a zero vector gets
    a zero gradient; for `p = 1`, `dx = dout * sign(x)`, 0 where `x = 0` (as
    Paddle's `p_norm_grad`).

    ```mlir
    %dx = train.p_norm_grad %diff, %d, %dd p 2 axis 1
        : (tensor<?x16xf32>, tensor<?xf32>, tensor<?xf32>) -> tensor<?x16xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$out,
                       Train_FloatTensor:$dout, I64Attr:$p, I64Attr:$axis,
                       UnitAttr:$keep_dims,
                       DefaultValuedAttr<F64Attr, "1.0e-12">:$epsilon);
  let results = (outs Train_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $out `,` $dout `p` $p `axis` $axis (`keep_dims` $keep_dims^)?
    attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Cosine similarity
//===----------------------------------------------------------------------===//

def Train_CosSimOp : Train_InferredOp<"cos_sim", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Row-wise cosine similarity.";
  let description = [{
    `x` is `[N, D]`; `y` is `[N, D]`, or `[1, D]` to compare one row with
    every row of `x`. The result is `[N, 1]`:
    `out[i, 0] = <x_i, y_i> / (|x_i| * |y_i|)` (Paddle's `cos_sim`, without
    its `XNorm` and `YNorm` outputs). Where `x_i` or `y_i` is a zero vector
    the result and both gradients are 0; Paddle divides by zero there.

    ```mlir
    %c = train.cos_sim %query, %doc
        : (tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$y);
  let results = (outs Train_FloatTensor:$out);
}

def Train_CosSimGradOp : Train_InferredOp<"cos_sim_grad"> {
  let summary = "Gradients of `train.cos_sim`.";
  let description = [{
    With `c = out[i, 0]`, `dx_i = dout_i * (y_i / (|x_i| |y_i|) - c * x_i /
    |x_i|^2)` and symmetrically for `y_i`; a broadcast `y` gets the sum over
    the rows. Zero vectors get zero gradients.

    ```mlir
    %dq, %dd = train.cos_sim_grad %query, %doc, %dc
        : (tensor<?x16xf32>, tensor<?x16xf32>, tensor<?x1xf32>)
        -> (tensor<?x16xf32>, tensor<?x16xf32>)
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$y,
                       Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$dx, Train_FloatTensor:$dy);
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINMATHOPS_TD
