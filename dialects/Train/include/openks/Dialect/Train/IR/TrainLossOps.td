//===- TrainLossOps.td - Regression and ranking losses -----*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The element-wise squared error and the margin ranking loss, with their
// grad ops. Included from TrainOps.td. (The cross-entropies are in
// TrainOps.td; the sampled loss `train.nce` is in TrainSamplingOps.td.)
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINLOSSOPS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINLOSSOPS_TD

def Train_SquareErrorOp : Train_PureOp<"square_error", [
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Element-wise squared error: `(input - label)^2`.";
  let description = [{
    Paddle's `square_error_cost`, which Paddle builds from `elementwise_sub`
    and `square`. Its `train.mean` is the mean-squared error. Both operands
    are differentiable; a fed label simply takes no gradient.

    ```mlir
    %e = train.square_error %prediction, %target : tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$input, Train_FloatTensor:$label);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$input `,` $label attr-dict `:` type($out)";
}

def Train_SquareErrorGradOp : Train_PureOp<"square_error_grad", [
    SameOperandsAndResultType]> {
  let summary = "Gradients of `train.square_error`.";
  let description = [{
    `dinput = 2 * (input - label) * dout`, `dlabel = -dinput`.

    ```mlir
    %dp, %dt = train.square_error_grad %prediction, %target, %de
        : tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$input, Train_FloatTensor:$label,
                       Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$dinput, Train_FloatTensor:$dlabel);
  let assemblyFormat =
      "$input `,` $label `,` $dout attr-dict `:` type($dout)";
}

def Train_MarginLossOp : Train_PureOp<"margin_loss", [
    SameOperandsAndResultType,
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Margin ranking loss: `max(0, margin + pos - neg)`.";
  let description = [{
    Element-wise over scores where lower is better (distances, energies):
    the loss is zero once each negative scores at least `margin` above its
    positive, as a TransE model's loss over corrupted triples. It is Paddle's
    `margin_rank_loss` with `Label = 1`, `X1 = neg` and `X2 = pos`
    (`max(0, -label * (x1 - x2) + margin)`), without the label operand,
    which would need a tensor of ones of the batch's size.

    ```mlir
    %l = train.margin_loss %d_pos, %d_neg margin 1.000000e+00 : tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$pos, Train_FloatTensor:$neg,
                       F64Attr:$margin);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat =
      "$pos `,` $neg `margin` $margin attr-dict `:` type($out)";
}

def Train_MarginLossGradOp : Train_PureOp<"margin_loss_grad", [
    SameOperandsAndResultType]> {
  let summary = "Gradients of `train.margin_loss`.";
  let description = [{
    Where `margin + pos - neg > 0`, `dpos = dout` and `dneg = -dout`;
    elsewhere both are 0 (as Paddle's `margin_rank_loss_grad`). `margin` is
    that of the forward op.

    ```mlir
    %dp, %dn = train.margin_loss_grad %d_pos, %d_neg, %dl
        margin 1.000000e+00 : tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$pos, Train_FloatTensor:$neg,
                       Train_FloatTensor:$dout, F64Attr:$margin);
  let results = (outs Train_FloatTensor:$dpos, Train_FloatTensor:$dneg);
  let assemblyFormat = [{
    $pos `,` $neg `,` $dout `margin` $margin attr-dict `:` type($dout)
  }];
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINLOSSOPS_TD
