//===- TrainOptimizerOps.td - Train dialect optimizer ops --*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What turns gradients into updates: the optimizer ops, the ops between
// autodiff and the optimizer (gradient slots, clipping, regularization) and
// the learning-rate schedules. Included by TrainOps.td.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINOPTIMIZEROPS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINOPTIMIZEROPS_TD

include "openks/Dialect/Train/IR/TrainBase.td"
include "mlir/IR/SymbolInterfaces.td"

//===----------------------------------------------------------------------===//
// Optimizer ops
//===----------------------------------------------------------------------===//

/// Base class of optimizer ops: update `param` in place from `grad` and `lr`.
/// Every optimizer also takes a row-sparse `grad` (`!train.rows`); then it
/// updates only the rows present, and their rows of the element-wise state
/// (lazily, as Paddle's `lazy_mode` Adam): a row the step did not touch
/// keeps its value and its state. The rank-0 state (beta powers) advances
/// once per step either way.
class Train_OptimizerOp<string mnemonic, list<Trait> traits = []>
    : Train_Op<mnemonic, !listconcat(traits, [
          Train_OptimizerOpInterface,
          DeclareOpInterfaceMethods<SymbolUserOpInterface>,
          MemoryEffects<[MemRead<Train_ParameterResource>,
                         MemWrite<Train_ParameterResource>]>])> {
  let extraClassDeclaration = [{
    /// Returns the state parameters shaped like the parameter.
    ::llvm::SmallVector<::mlir::FlatSymbolRefAttr> getElementwiseState();
  }];
}

def Train_SgdOp : Train_OptimizerOp<"sgd"> {
  let summary = "Plain SGD: `param -= lr * grad`.";
  let description = [{
    ```mlir
    train.sgd @fc1.w, %dw, %lr : tensor<784x256xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr attr-dict `:` type($grad) `,` type($lr)
  }];
}

def Train_MomentumOp : Train_OptimizerOp<"momentum"> {
  let summary = "SGD with momentum (optionally Nesterov).";
  let description = [{
    `v = mu * v + grad`; then `param -= lr * v`, or with `nesterov`
    `param -= lr * (grad + mu * v)`. `velocity` is a frozen parameter of the
    parameter's type.

    ```mlir
    train.momentum @w, %dw, %lr velocity @w.velocity {mu = 9.000000e-01 : f64}
        : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr, FlatSymbolRefAttr:$velocity,
                       DefaultValuedAttr<F64Attr, "0.9">:$mu,
                       UnitAttr:$nesterov);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `velocity` $velocity (`nesterov` $nesterov^)?
    attr-dict `:` type($grad) `,` type($lr)
  }];
  let hasVerifier = 1;
}

def Train_AdamOp : Train_OptimizerOp<"adam"> {
  let summary = "Adam, with bias correction through beta powers.";
  let description = [{
    With `b1p`, `b2p` the current beta powers:
    `m1 = beta1 * m1 + (1 - beta1) * g`, `m2 = beta2 * m2 + (1 - beta2) * g^2`,
    `param -= lr * sqrt(1 - b2p) / (1 - b1p) * m1 / (sqrt(m2) + epsilon)`,
    then `b1p *= beta1`, `b2p *= beta2` (as Paddle's `adam` op). The moments
    have the parameter's type; the beta powers are rank-0.

    ```mlir
    train.adam @w, %dw, %lr moments(@w.moment1, @w.moment2)
        beta_pows(@w.beta1_pow, @w.beta2_pow) : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr,
                       FlatSymbolRefAttr:$moment1, FlatSymbolRefAttr:$moment2,
                       FlatSymbolRefAttr:$beta1_pow,
                       FlatSymbolRefAttr:$beta2_pow,
                       DefaultValuedAttr<F64Attr, "0.9">:$beta1,
                       DefaultValuedAttr<F64Attr, "0.999">:$beta2,
                       DefaultValuedAttr<F64Attr, "1.0e-8">:$epsilon);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `moments` `(` $moment1 `,` $moment2 `)`
    `beta_pows` `(` $beta1_pow `,` $beta2_pow `)` attr-dict `:` type($grad)
    `,` type($lr)
  }];
  let extraClassDeclaration = [{
    /// Returns the moments, shaped like the parameter.
    ::llvm::SmallVector<::mlir::FlatSymbolRefAttr> getElementwiseState();
    /// Returns the rank-0 beta powers.
    ::llvm::SmallVector<::mlir::FlatSymbolRefAttr> getScalarState();
  }];
  let hasVerifier = 1;
}

def Train_AdagradOp : Train_OptimizerOp<"adagrad"> {
  let summary = "Adagrad: per-element learning rates from squared gradients.";
  let description = [{
    `m += g^2`, `param -= lr * g / (sqrt(m) + epsilon)`.

    ```mlir
    train.adagrad @w, %dw, %lr moment @w.moment : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr, FlatSymbolRefAttr:$moment,
                       DefaultValuedAttr<F64Attr, "1.0e-6">:$epsilon);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `moment` $moment attr-dict `:` type($grad) `,`
    type($lr)
  }];
  let hasVerifier = 1;
}

def Train_RmspropOp : Train_OptimizerOp<"rmsprop"> {
  let summary = "RMSProp, optionally centered, with a momentum term.";
  let description = [{
    Paddle's `rmsprop` op. With `g` the gradient,
    `ms = decay * ms + (1 - decay) * g^2`; centered,
    `mg = decay * mg + (1 - decay) * g` and
    `mom = momentum * mom + lr * g / sqrt(ms - mg^2 + epsilon)`, otherwise
    `mom = momentum * mom + lr * g / sqrt(ms + epsilon)`; then
    `param -= mom`. The op is centered exactly when it names a `mean_grad`.
    `mean_square`, `moment` and `mean_grad` are frozen parameters of the
    parameter's type.

    ```mlir
    train.rmsprop @w, %dw, %lr mean_square @w.mean_square moment @w.moment
        {decay = 9.000000e-01 : f64} : tensor<16x8xf32>, tensor<f32>
    train.rmsprop @w, %dw, %lr mean_square @w.mean_square moment @w.moment
        centered @w.mean_grad : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr, FlatSymbolRefAttr:$mean_square,
                       FlatSymbolRefAttr:$moment,
                       OptionalAttr<FlatSymbolRefAttr>:$mean_grad,
                       DefaultValuedAttr<F64Attr, "0.95">:$decay,
                       DefaultValuedAttr<F64Attr, "1.0e-6">:$epsilon,
                       DefaultValuedAttr<F64Attr, "0.0">:$momentum);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `mean_square` $mean_square `moment` $moment
    (`centered` $mean_grad^)? attr-dict `:` type($grad) `,` type($lr)
  }];
  let hasVerifier = 1;
}

def Train_DecayedAdagradOp : Train_OptimizerOp<"decayed_adagrad"> {
  let summary = "Adagrad over a decaying average of squared gradients.";
  let description = [{
    Paddle's `decayed_adagrad` op: `m = decay * m + (1 - decay) * g^2`,
    `param -= lr * g / (sqrt(m) + epsilon)`.

    ```mlir
    train.decayed_adagrad @w, %dw, %lr moment @w.moment
        : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr, FlatSymbolRefAttr:$moment,
                       DefaultValuedAttr<F64Attr, "0.95">:$decay,
                       DefaultValuedAttr<F64Attr, "1.0e-6">:$epsilon);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `moment` $moment attr-dict `:` type($grad) `,`
    type($lr)
  }];
  let hasVerifier = 1;
}

def Train_FtrlOp : Train_OptimizerOp<"ftrl"> {
  let summary = "FTRL-Proximal with L1 and L2 terms.";
  let description = [{
    Paddle's `ftrl` op. With `s` the squared and `z` the linear accumulator,
    `p = -lr_power`, and `l1'`, `l2'` the coefficients plus 1e-10 (as
    Paddle's kernel adds): `n = s + g^2`,
    `z += g - (n^p - s^p) / lr * param`, `s = n`, then
    `param = (l1' * sign(z) - z) / (n^p / lr + 2 * l2')` where `|z| > l1'`,
    else 0. With `lr_power = -0.5` the powers are square roots.

    ```mlir
    train.ftrl @w, %dw, %lr accumulators(@w.squared, @w.linear)
        {l1 = 1.000000e-03 : f64} : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr, FlatSymbolRefAttr:$squared,
                       FlatSymbolRefAttr:$linear,
                       DefaultValuedAttr<F64Attr, "0.0">:$l1,
                       DefaultValuedAttr<F64Attr, "0.0">:$l2,
                       DefaultValuedAttr<F64Attr, "-0.5">:$lr_power);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `accumulators` `(` $squared `,` $linear `)`
    attr-dict `:` type($grad) `,` type($lr)
  }];
  let hasVerifier = 1;
}

def Train_AdamaxOp : Train_OptimizerOp<"adamax"> {
  let summary = "Adamax: Adam with an infinity-norm second moment.";
  let description = [{
    With `b1p` the current beta1 power: `m = beta1 * m + (1 - beta1) * g`,
    `u = max(beta2 * u + epsilon, |g|)`, `param -= lr / (1 - b1p) * m / u`,
    then `b1p *= beta1`: Paddle's `adamax` op followed by the `scale` of the
    beta1 power that Paddle's Adamax optimizer appends. The moment `m` and
    the infinity norm `u` have the parameter's type; the beta1 power is
    rank-0.

    ```mlir
    train.adamax @w, %dw, %lr moment @w.moment inf_norm @w.inf_norm
        beta1_pow @w.beta1_pow : tensor<16x8xf32>, tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad,
                       Train_FloatScalar:$lr, FlatSymbolRefAttr:$moment,
                       FlatSymbolRefAttr:$inf_norm,
                       FlatSymbolRefAttr:$beta1_pow,
                       DefaultValuedAttr<F64Attr, "0.9">:$beta1,
                       DefaultValuedAttr<F64Attr, "0.999">:$beta2,
                       DefaultValuedAttr<F64Attr, "1.0e-8">:$epsilon);
  let assemblyFormat = [{
    $param `,` $grad `,` $lr `moment` $moment `inf_norm` $inf_norm
    `beta1_pow` $beta1_pow attr-dict `:` type($grad) `,` type($lr)
  }];
  let extraClassDeclaration = [{
    /// Returns the moment and the infinity norm, shaped like the parameter.
    ::llvm::SmallVector<::mlir::FlatSymbolRefAttr> getElementwiseState();
    /// Returns the rank-0 beta1 power.
    ::llvm::SmallVector<::mlir::FlatSymbolRefAttr> getScalarState();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Between autodiff and the optimizer
//===----------------------------------------------------------------------===//

def Train_ParamGradOp : Train_Op<"param_grad", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemWrite<Train_GradientResource>]>]> {
  let summary = "Names the gradient of a trainable parameter.";
  let description = [{
    `openks-append-backward` ends the backward pass with one of these per
    trainable parameter that the loss depends on: `grad` is the gradient of
    the loss with respect to `param` in this step (summed over every read of
    the parameter). `openks-append-optimizer` replaces each with the
    parameter's update. At run time it does nothing.

    ```mlir
    train.param_grad @fc1.w, %dw1 : tensor<784x256xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param, Train_Gradient:$grad);
  let assemblyFormat = "$param `,` $grad attr-dict `:` type($grad)";
}

def Train_ClipByGlobalNormOp : Train_PureOp<"clip_by_global_norm", [
    AllTypesMatch<["grads", "clipped"]>]> {
  let summary = "Scales gradients down to a maximum global L2 norm.";
  let description = [{
    With `n` the L2 norm of all `grads` together, every gradient is
    multiplied by `max_norm / max(n, max_norm)` (Paddle's
    `GradientClipByGlobalNorm`). In a sync parameter-server job the servers
    clip the step's averaged gradients by their norm, which they compute
    together (`ps.clip_by_global_norm`), so that the job clips what
    single-process training clips; in the other modes, as in Paddle, each
    trainer clips its own gradients before sending them.

    ```mlir
    %c1, %c2 = train.clip_by_global_norm %g1, %g2 max_norm 5.000000e+00
        : tensor<784x256xf32>, tensor<256xf32>
    ```
  }];
  let arguments = (ins Variadic<Train_FloatTensor>:$grads, F64Attr:$max_norm);
  let results = (outs Variadic<Train_FloatTensor>:$clipped);
  let assemblyFormat = [{
    $grads `max_norm` $max_norm attr-dict `:` type($grads)
  }];
  let hasVerifier = 1;
}

def Train_ClipOp : Train_PureOp<"clip", [SameOperandsAndResultType]> {
  let summary = "Clamps every element to [min, max].";
  let description = [{
    Paddle's `clip`: `out = min(max(x, min), max)`, with `min <= max`.
    `openks-append-optimizer` clips the gradient of a parameter with
    `clip_max` (Paddle's `GradientClipByValue`) with it.

    ```mlir
    %c = train.clip %g min -1.000000e-01 max 1.000000e-01 : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, F64Attr:$min, F64Attr:$max);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x `min` $min `max` $max attr-dict `:` type($x)";
  let hasVerifier = 1;
}

def Train_ClipByNormOp : Train_PureOp<"clip_by_norm", [
    SameOperandsAndResultType]> {
  let summary = "Scales a tensor down to a maximum L2 norm.";
  let description = [{
    Paddle's `clip_by_norm`: `out = x * max_norm / max(n, max_norm)`, `n`
    being the L2 norm of all of `x`. `openks-append-optimizer` clips the
    gradient of a parameter with `clip_norm` (Paddle's
    `GradientClipByNorm`) with it. The norm is that of the whole tensor:
    on a sliced parameter of a sync job, the servers of its blocks compute
    it together (`ps.clip_by_global_norm`); in async modes such a
    parameter must stay whole.

    ```mlir
    %c = train.clip_by_norm %g max_norm 1.000000e+00 : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, F64Attr:$max_norm);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x `max_norm` $max_norm attr-dict `:` type($x)";
  let hasVerifier = 1;
}

def Train_SignOp : Train_PureOp<"sign", [SameOperandsAndResultType]> {
  let summary = "Element-wise sign: -1, 0 or 1.";
  let description = [{
    Paddle's `sign`. L1 decay adds `coefficient * sign(param)` to a
    gradient.

    ```mlir
    %s = train.sign %w : tensor<16x8xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

//===----------------------------------------------------------------------===//
// Learning-rate schedules
//===----------------------------------------------------------------------===//

def Train_ExponentialDecayOp : Train_PureOp<"exponential_decay"> {
  let summary = "Exponentially decayed learning rate.";
  let description = [{
    `lr = learning_rate * decay_rate ^ (step / decay_steps)`, with the
    exponent floored when `staircase` is set (Paddle's `exponential_decay`).
    `step` counts the steps before this one.

    ```mlir
    %lr = train.exponential_decay %step learning_rate 1.000000e-01
        decay_rate 5.000000e-01 decay_steps 100 : tensor<i64> -> tensor<f32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[F32, F64, I64]>:$step, F64Attr:$learning_rate,
                       F64Attr:$decay_rate, I64Attr:$decay_steps,
                       UnitAttr:$staircase);
  let results = (outs Train_FloatScalar:$lr);
  let assemblyFormat = [{
    $step `learning_rate` $learning_rate `decay_rate` $decay_rate
    `decay_steps` $decay_steps (`staircase` $staircase^)? attr-dict `:`
    type($step) `->` type($lr)
  }];
  let hasVerifier = 1;
}

def Train_PiecewiseDecayOp : Train_PureOp<"piecewise_decay"> {
  let summary = "Piecewise-constant learning rate.";
  let description = [{
    `lr = values[i]` where `i` is the number of `boundaries` at or below
    `step` (Paddle's `piecewise_decay`): `values` has one more entry than
    `boundaries`, which increase strictly.

    ```mlir
    %lr = train.piecewise_decay %step boundaries [100, 200]
        values [1.000000e-01, 1.000000e-02, 1.000000e-03]
        : tensor<i64> -> tensor<f32>
    ```
  }];
  let arguments = (ins 0DTensorOf<[F32, F64, I64]>:$step,
                       DenseI64ArrayAttr:$boundaries,
                       DenseF64ArrayAttr:$values);
  let results = (outs Train_FloatScalar:$lr);
  let assemblyFormat = [{
    $step `boundaries` $boundaries `values` $values attr-dict `:`
    type($step) `->` type($lr)
  }];
  let hasVerifier = 1;
}

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINOPTIMIZEROPS_TD
