//===- TrainSamplingOps.td - Dropout and sampled losses ----*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops that draw random numbers: dropout masks and the negative classes
// of noise-contrastive estimation. Their draws come from Philox keyed by the
// op's `seed`, counted by the position of the element or sample in the
// tensor and by a step counter operand, so they differ from step to step,
// repeat exactly from run to run, and their grad ops redraw the same ones
// instead of keeping them. Included from TrainOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINSAMPLINGOPS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINSAMPLINGOPS_TD

/// The step counter that varies random draws from step to step: a rank-0
/// i64 tensor, usually read from a frozen counter parameter.
def Train_StepCounter : 0DTensorOf<[I64]>,
    BuildableType<"::mlir::RankedTensorType::get({}, $_builder.getI64Type())">;

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

def Train_DropoutOp : Train_PureOp<"dropout", [
    AllTypesMatch<["x", "out"]>,
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Zeroes random elements while training.";
  let description = [{
    Paddle's `dropout`. In training (no `is_test`), element `e` of `x` is
    kept when `u(e) >= dropout_prob`, with `u(e)` uniform in `[0, 1)` from
    Philox keyed by `seed` at counter `e` (the element's row-major index)
    and stream `step`; a kept element is `x` itself, or `x / (1 -
    dropout_prob)` with `upscale_in_train`, and a dropped one is 0. With
    `is_test` (inference, as Paddle's `is_test`) nothing is dropped: `out =
    x * (1 - dropout_prob)` (Paddle's default `downgrade_in_infer`), or
    `out = x` with `upscale_in_train`. `step` is required in training and
    unused with `is_test`.

    The mask depends only on `seed`, `step` and the element's position: it
    changes every step, repeats on every run, and is the same on every
    trainer at one step and position. Dropouts that should be independent
    need distinct seeds.

    ```mlir
    %h = train.dropout %x step %step prob 5.000000e-01 seed 7
        : tensor<?x256xf32>
    %i = train.dropout %x prob 5.000000e-01 is_test : tensor<?x256xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x,
                       Optional<Train_StepCounter>:$step,
                       F64Attr:$dropout_prob,
                       DefaultValuedAttr<I64Attr, "0">:$seed,
                       UnitAttr:$is_test, UnitAttr:$upscale_in_train);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = [{
    $x (`step` $step^)? `prob` $dropout_prob (`seed` $seed^)?
    (`is_test` $is_test^)? (`upscale_in_train` $upscale_in_train^)?
    attr-dict `:` type($x)
  }];
  let hasVerifier = 1;
}

def Train_DropoutGradOp : Train_PureOp<"dropout_grad", [
    AllTypesMatch<["dout", "dx"]>]> {
  let summary = "Gradient of `train.dropout` in training.";
  let description = [{
    Redraws the forward op's mask from the same `step`, `dropout_prob` and
    `seed` and applies it to `dout`: `dx = dout * mask`, divided by
    `1 - dropout_prob` with `upscale_in_train`. (The gradient of a dropout
    with `is_test` is a `train.scale`.)

    ```mlir
    %dx = train.dropout_grad %dh step %step prob 5.000000e-01 seed 7
        : tensor<?x256xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$dout, Train_StepCounter:$step,
                       F64Attr:$dropout_prob,
                       DefaultValuedAttr<I64Attr, "0">:$seed,
                       UnitAttr:$upscale_in_train);
  let results = (outs Train_FloatTensor:$dx);
  let assemblyFormat = [{
    $dout `step` $step `prob` $dropout_prob (`seed` $seed^)?
    (`upscale_in_train` $upscale_in_train^)? attr-dict `:` type($dout)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Noise-contrastive estimation
//===----------------------------------------------------------------------===//

/// The distribution negative classes are drawn from (Paddle's `sampler`).
def Train_Sampler : I32EnumAttr<"Sampler",
    "the distribution of negative classes", [
      I32EnumAttrCase<"Uniform", 0, "uniform">,
      I32EnumAttrCase<"LogUniform", 1, "log_uniform">]> {
  let cppNamespace = "::openks::train";
}

def Train_NceOp : Train_InferredOp<"nce", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Noise-contrastive estimation loss over sampled classes.";
  let description = [{
    Paddle's `nce`, for a large number `V` of classes: `input` is `[B, D]`,
    `labels` the true classes (`[B]`, or `[B, T]` for `T` per row),
    `weight` `[V, D]` and `bias` `[V]` the classes' output weights. Each row
    draws `num_neg_samples` negative classes from `sampler`: `uniform`
    (`q(c) = 1 / V`) or `log_uniform` (`q(c) = log((c + 2) / (c + 1)) /
    log(V + 1)`, for ids sorted by decreasing frequency). With
    `o = sigmoid(<input_i, weight_c> + bias_c)` and `b = q(c) *
    num_neg_samples`, the cost of row `i` (the `[B]` result; Paddle's is
    `[B, 1]`) sums `-log(o / (o + b))` over its true classes and
    `-log(b / (o + b))` over its negatives, computed so that no logit
    overflows.

    Negative `j` of row `i` is drawn by Philox keyed by `seed` at counter
    `i * num_neg_samples + j` and stream `step`: new negatives every step,
    the same on every run.

    ```mlir
    %cost = train.nce %h, %words, %w, %b, %step num_neg_samples 5
        sampler log_uniform seed 1
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<10000x64xf32>,
           tensor<10000xf32>, tensor<i64>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$input, Train_IdTensor:$labels,
                       Train_FloatTensor:$weight, Train_FloatTensor:$bias,
                       Train_StepCounter:$step, I64Attr:$num_neg_samples,
                       Train_Sampler:$sampler,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let results = (outs Train_FloatTensor:$cost);
  let assemblyFormat = [{
    $input `,` $labels `,` $weight `,` $bias `,` $step
    `num_neg_samples` $num_neg_samples `sampler` $sampler
    (`seed` $seed^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Train_NceGradOp : Train_InferredOp<"nce_grad"> {
  let summary = "Gradients of `train.nce`.";
  let description = [{
    Redraws the forward op's negatives (same `step`, `num_neg_samples`,
    `sampler` and `seed`) and returns the gradients of `input`, `weight` and
    `bias`; those of `weight` and `bias` are dense and nonzero only at the
    rows of the true and sampled classes.

    ```mlir
    %dh, %dw, %db = train.nce_grad %h, %words, %w, %b, %step, %dcost
        num_neg_samples 5 sampler log_uniform seed 1
        : (tensor<?x64xf32>, tensor<?xi64>, tensor<10000x64xf32>,
           tensor<10000xf32>, tensor<i64>, tensor<?xf32>)
        -> (tensor<?x64xf32>, tensor<10000x64xf32>, tensor<10000xf32>)
    ```
  }];
  let arguments = (ins Train_FloatTensor:$input, Train_IdTensor:$labels,
                       Train_FloatTensor:$weight, Train_FloatTensor:$bias,
                       Train_StepCounter:$step, Train_FloatTensor:$dcost,
                       I64Attr:$num_neg_samples, Train_Sampler:$sampler,
                       DefaultValuedAttr<I64Attr, "0">:$seed);
  let results = (outs Train_FloatTensor:$dinput, Train_FloatTensor:$dweight,
                      Train_FloatTensor:$dbias);
  let assemblyFormat = [{
    $input `,` $labels `,` $weight `,` $bias `,` $step `,` $dcost
    `num_neg_samples` $num_neg_samples `sampler` $sampler
    (`seed` $seed^)? attr-dict `:` functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINSAMPLINGOPS_TD
