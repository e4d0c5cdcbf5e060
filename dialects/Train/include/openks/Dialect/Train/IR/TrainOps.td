//===- TrainOps.td - Train dialect ops ---------------------*- tablegen -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINOPS_TD
#define OPENKS_DIALECT_TRAIN_IR_TRAINOPS_TD

include "openks/Dialect/Train/IR/TrainBase.td"
include "openks/Dialect/Train/IR/TrainAttrs.td"
include "openks/Dialect/Train/IR/TrainTypes.td"
include "openks/Dialect/Train/IR/TrainInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

def Train_ProgramOp : Train_Op<"program", [
    IsolatedFromAbove, NoRegionArguments, NoTerminator, SingleBlock, Symbol,
    SymbolTable]> {
  let summary = "A training program: parameters and step functions.";
  let description = [{
    Holds the `train.param` declarations and the `train.step` functions of one
    single-machine training program. It is a symbol table: parameters and
    steps are looked up by name within it.

    ```mlir
    train.program @mlp {
      train.param @w : tensor<4x2xf32> init #train.xavier<seed = 1>
      train.step @step(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
        %w = train.read @w : tensor<4x2xf32>
        %y = train.matmul %x, %w
            : (tensor<?x4xf32>, tensor<4x2xf32>) -> tensor<?x2xf32>
        train.yield %y : tensor<?x2xf32>
      }
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = "$sym_name attr-dict-with-keyword $body";
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name)>];
}

def Train_ParamOp : Train_Op<"param", [Symbol, Train_ParameterOpInterface]> {
  let summary = "Declares a parameter: named, typed, initialised state.";
  let description = [{
    A parameter has a statically shaped tensor type (f32 or f64; i64 for
    counters), an initializer and a trainable flag. Parameters marked
    `frozen` are not trained: autodiff skips them and no optimizer may update
    them. Optimizer state (moments, velocities, beta powers) and the learning
    rate are frozen parameters too.

    A trainable parameter may carry its own update settings, Paddle's
    `ParamAttr(learning_rate, regularizer, gradient_clip)`, which
    `openks-append-optimizer` honours: `lr_scale` multiplies the learning
    rate; `l1_decay` or `l2_decay` (at most one) replaces the optimizer's
    regularization for this parameter (0 turns it off); `clip_max` (with
    `clip_min`, by default `-clip_max`) clips the gradient by value, or
    `clip_norm` by its L2 norm, instead of the optimizer's global-norm
    clipping.

    A trainable parameter marked `sparse` is an embedding table whose
    gradient is row-sparse, Paddle's `is_sparse` (or `is_distributed`) on its
    lookups: a batch's gradient has values only in the rows its lookups
    touch. The mark does not change what training computes (the gradient's
    other rows are zero), and the passes and runtime do not read it yet:
    the gradient is still a dense tensor of the table's shape.

    ```mlir
    train.param @fc1.w : tensor<784x256xf32> init #train.xavier<seed = 1>
    train.param @emb : tensor<100000x64xf32>
        init #train.uniform<min = -0.1, max = 0.1, seed = 3> sparse
    train.param @learning_rate : tensor<f32> init #train.constant<1.0e-01> frozen
    train.param @fc2.w : tensor<256x10xf32> init #train.xavier<seed = 2>
        lr_scale 5.0e-01 l2_decay 1.0e-04 clip_max 1.0e-01
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<AnyRankedTensor>:$type,
                       Train_InitializerAttrInterface:$initializer,
                       UnitAttr:$frozen,
                       OptionalAttr<F64Attr>:$lr_scale,
                       OptionalAttr<F64Attr>:$l1_decay,
                       OptionalAttr<F64Attr>:$l2_decay,
                       OptionalAttr<F64Attr>:$clip_min,
                       OptionalAttr<F64Attr>:$clip_max,
                       OptionalAttr<F64Attr>:$clip_norm,
                       UnitAttr:$sparse);
  let assemblyFormat = [{
    $sym_name `:` $type `init` $initializer (`frozen` $frozen^)?
    (`sparse` $sparse^)?
    (`lr_scale` $lr_scale^)? (`l1_decay` $l1_decay^)?
    (`l2_decay` $l2_decay^)? (`clip_min` $clip_min^)?
    (`clip_max` $clip_max^)? (`clip_norm` $clip_norm^)? attr-dict
  }];
  let builders = [
    // A parameter without update settings of its own.
    OpBuilder<(ins "::llvm::StringRef":$name, "::mlir::RankedTensorType":$type,
                   "::openks::train::InitializerAttrInterface":$initializer,
                   "bool":$frozen), [{
      build($_builder, $_state, name, type, initializer, frozen, {}, {}, {},
            {}, {}, {});
    }]>];
  let extraClassDeclaration = [{
    /// Returns the parameter's tensor type.
    ::mlir::RankedTensorType getParameterType() {
      return ::llvm::cast<::mlir::RankedTensorType>(getType());
    }
    /// Returns whether optimizers may update the parameter.
    bool isTrainable() { return !getFrozen(); }
  }];
  let hasVerifier = 1;
}

def Train_StepOp : Train_Op<"step", [
    FunctionOpInterface, IsolatedFromAbove]> {
  let summary = "The function run once per mini-batch.";
  let description = [{
    The arguments are the fed inputs of one mini-batch (usually with a
    dynamic leading batch dimension); the results are the fetched values.
    The first result is the loss that `minimize` differentiates; further
    results are metrics. The body has one block, ended by `train.yield`.

    ```mlir
    train.step @step(%x: tensor<?x784xf32>, %y: tensor<?xi64>) -> tensor<f32> {
      ...
      train.yield %loss : tensor<f32>
    }
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name,
                       TypeAttrOf<FunctionType>:$function_type,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let regions = (region SizedRegion<1>:$body);
  let builders = [OpBuilder<(ins "::llvm::StringRef":$name,
                                 "::mlir::FunctionType":$type)>];
  let extraClassDeclaration = [{
    /// Returns the body region (FunctionOpInterface).
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// Returns the fed input types.
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    /// Returns the fetched result types.
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
  }];
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Train_YieldOp : Train_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"StepOp">]> {
  let summary = "Returns the fetched values of a step.";
  let description = [{
    ```mlir
    train.yield %loss, %acc : tensor<f32>, tensor<f32>
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
  let builders = [OpBuilder<(ins), [{ build($_builder, $_state, {}); }]>];
  let hasVerifier = 1;
}

def Train_ReadOp : Train_Op<"read", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Train_ParameterResource>]>]> {
  let summary = "Reads the current value of a parameter.";
  let description = [{
    ```mlir
    %w = train.read @fc1.w : tensor<784x256xf32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$param);
  let results = (outs AnyRankedTensor:$value);
  let assemblyFormat = "$param attr-dict `:` type($value)";
}

def Train_WriteOp : Train_Op<"write", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemWrite<Train_ParameterResource>]>]> {
  let summary = "Overwrites a parameter with a value.";
  let description = [{
    ```mlir
    train.write %w to @fc1.w : tensor<784x256xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$value, FlatSymbolRefAttr:$param);
  let assemblyFormat = "$value `to` $param attr-dict `:` type($value)";
}

//===----------------------------------------------------------------------===//
// Forward ops
//===----------------------------------------------------------------------===//

def Train_FillOp : Train_PureOp<"fill"> {
  let summary = "A tensor with every element set to one value.";
  let description = [{
    Paddle's `fill_constant`: seeds the backward pass (`d loss / d loss = 1`)
    and builds constants such as step increments. The type is static; for an
    integer type the value must be integral.

    ```mlir
    %one = train.fill 1.000000e+00 : tensor<f32>
    ```
  }];
  let arguments = (ins F64Attr:$value);
  let results = (outs AnyStaticShapeTensor:$out);
  let assemblyFormat = "$value attr-dict `:` type($out)";
  let hasVerifier = 1;
}

def Train_ScaleOp : Train_PureOp<"scale", [
    SameOperandsAndResultType, DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Multiplies every element by a constant factor.";
  let description = [{
    `out = factor * x` (Paddle's `scale` with `bias = 0`). A server in sync
    mode averages the summed gradients of its trainers with it; a row-sparse
    value scales its rows and keeps its ids. It is its own gradient rule:
    `dx = scale(dout, factor)`.

    ```mlir
    %avg = train.scale %sum by 5.000000e-01 : tensor<392x256xf32>
    %rows = train.scale %demb by 5.000000e-01 : !train.rows<tensor<500x16xf32>>
    ```
  }];
  let arguments = (ins Train_Gradient:$x, F64Attr:$factor);
  let results = (outs Train_Gradient:$out);
  let assemblyFormat = "$x `by` $factor attr-dict `:` type($x)";
}

def Train_StopGradientOp : Train_PureOp<"stop_gradient", [
    SameOperandsAndResultType, DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Passes a value through and stops gradients at it.";
  let description = [{
    The result equals `x`, but autodiff propagates no gradient through it,
    like Paddle's `stop_gradient = True` on a variable.

    ```mlir
    %target = train.stop_gradient %teacher_logits : tensor<?x10xf32>
    ```
  }];
  let arguments = (ins AnyRankedTensor:$x);
  let results = (outs AnyRankedTensor:$out);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Train_IncrementOp : Train_PureOp<"increment", [SameOperandsAndResultType]> {
  let summary = "Adds one to a scalar counter.";
  let description = [{
    Paddle's `increment` with step 1; advances the learning-rate schedule's
    step counter.

    ```mlir
    %next = train.increment %step : tensor<i64>
    ```
  }];
  let arguments = (ins 0DTensorOf<[F32, F64, I64]>:$x);
  let results = (outs 0DTensorOf<[F32, F64, I64]>:$out);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

/// An element-wise activation: same type in and out.
class Train_ActivationOp<string mnemonic, string formula>
    : Train_PureOp<mnemonic, [SameOperandsAndResultType,
                              DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Element-wise " # mnemonic # ": " # formula # ".";
  let description = [{
    ```mlir
    %y = train.}] # mnemonic # [{ %x : tensor<?x256xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x attr-dict `:` type($x)";
}

def Train_ReluOp : Train_ActivationOp<"relu", "max(x, 0)">;
def Train_SigmoidOp : Train_ActivationOp<"sigmoid", "1 / (1 + exp(-x))">;
def Train_TanhOp : Train_ActivationOp<"tanh", "tanh(x)">;

def Train_SoftmaxOp : Train_PureOp<"softmax", [
    SameOperandsAndResultType, DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Softmax over the last dimension.";
  let description = [{
    ```mlir
    %p = train.softmax %logits : tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x attr-dict `:` type($x)";
  let hasVerifier = 1;
}

/// An op whose result type follows from its operands and attributes.
class Train_InferredOp<string mnemonic, list<Trait> traits = []>
    : Train_PureOp<mnemonic, !listconcat(traits, [InferTypeOpAdaptor])> {
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
}

def Train_MatmulOp : Train_InferredOp<"matmul", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Matrix product of two rank-2 tensors.";
  let description = [{
    `[M, K] x [K, N] -> [M, N]`.

    ```mlir
    %h = train.matmul %x, %w
        : (tensor<?x784xf32>, tensor<784x256xf32>) -> tensor<?x256xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$a, Train_FloatTensor:$b);
  let results = (outs Train_FloatTensor:$out);
}

/// Element-wise binary op whose right operand is either of the left's shape
/// or a rank-1 bias broadcast along the left's last dimension.
class Train_BroadcastBinaryOp<string mnemonic, string what>
    : Train_InferredOp<mnemonic, [DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Element-wise " # what # " with bias broadcast.";
  let description = [{
    `y` has the shape of `x`, or is rank-1 and matches the last dimension of
    `x`, in which case it is broadcast over the leading dimensions (Paddle's
    `elementwise_}] # mnemonic # [{` with `axis = -1`). The result has the
    type of `x`.

    ```mlir
    %z = train.}] # mnemonic # [{ %x, %b
        : (tensor<?x256xf32>, tensor<256xf32>) -> tensor<?x256xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$y);
  let results = (outs Train_FloatTensor:$out);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return inferBroadcastBinaryTypes(loc, adaptor.getX(), adaptor.getY(),
                                       inferred);
    }
  }];
}

def Train_AddOp : Train_BroadcastBinaryOp<"add", "addition">;
def Train_MulOp : Train_BroadcastBinaryOp<"mul", "multiplication">;

def Train_SoftmaxCrossEntropyOp : Train_InferredOp<"softmax_cross_entropy", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Per-sample softmax cross-entropy with integer labels.";
  let description = [{
    `logits` is `[N, C]`, `labels` is `[N]` with class ids in `[0, C)`; the
    result is `[N]`: `-log(softmax(logits)[i, labels[i]])`.

    ```mlir
    %l = train.softmax_cross_entropy %logits, %y
        : (tensor<?x10xf32>, tensor<?xi64>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$logits, Train_IdTensor:$labels);
  let results = (outs Train_FloatTensor:$out);
}

def Train_SigmoidCrossEntropyOp : Train_InferredOp<"sigmoid_cross_entropy", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Element-wise sigmoid cross-entropy with binary labels.";
  let description = [{
    `labels` holds 0 or 1 and has the shape of `logits`; the result is
    `max(x, 0) - x * z + log(1 + exp(-|x|))` element-wise (Paddle's
    `sigmoid_cross_entropy_with_logits`).

    ```mlir
    %l = train.sigmoid_cross_entropy %logit, %click
        : (tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$logits, Train_FloatTensor:$labels);
  let results = (outs Train_FloatTensor:$out);
}

def Train_MeanOp : Train_InferredOp<"mean", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Mean of all elements, as a rank-0 tensor.";
  let description = [{
    ```mlir
    %m = train.mean %l : (tensor<?xf32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x);
  let results = (outs Train_FloatScalar:$out);
}

def Train_ReduceSumOp : Train_InferredOp<"reduce_sum", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Sum over the listed dimensions.";
  let description = [{
    Sums over `dims` (all dimensions when empty). Without `keep_dims` the
    reduced dimensions are dropped; with it they stay as size 1.

    ```mlir
    %s = train.reduce_sum %x dims [1] : (tensor<?x8xf32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, DenseI64ArrayAttr:$dims,
                       UnitAttr:$keep_dims);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = [{
    $x `dims` $dims (`keep_dims` $keep_dims^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Train_ReshapeOp : Train_PureOp<"reshape", [
    SameOperandsAndResultElementType, DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Reinterprets a tensor with another shape.";
  let description = [{
    The element type and the number of elements are kept. When the shapes
    have a dynamic dimension, each has exactly one and the products of the
    static dimensions agree, so the dynamic dimension (the batch) has the
    same size on both sides, wherever it sits.

    ```mlir
    %f = train.reshape %x : (tensor<?x4x8xf32>) -> tensor<?x32xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = "$x attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

def Train_ConcatOp : Train_InferredOp<"concat", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Concatenates tensors along one dimension.";
  let description = [{
    ```mlir
    %c = train.concat %a, %b axis 1
        : (tensor<?x8xf32>, tensor<?x4xf32>) -> tensor<?x12xf32>
    ```
  }];
  let arguments = (ins Variadic<Train_FloatTensor>:$inputs, I64Attr:$axis);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat = [{
    $inputs `axis` $axis attr-dict `:` functional-type(operands, results)
  }];
}

def Train_EmbeddingOp : Train_InferredOp<"embedding", [
    DeclareOpInterfaceMethods<Train_GradientOpInterface>]> {
  let summary = "Looks up rows of a table by int64 ids.";
  let description = [{
    `table` is `[V, D]`; the result has the shape of `ids` followed by `D`.
    Rows whose id equals `padding_idx` read as zeros and get no gradient.
    The table may be a row-sparse value of a `[V, D]` table (the rows a
    worker prefetched of a sparse table): every id looked up must then be
    one of its rows.

    ```mlir
    %e = train.embedding %table, %ids
        : (tensor<1000x16xf32>, tensor<?x3xi64>) -> tensor<?x3x16xf32>
    %f = train.embedding %rows, %ids
        : (!train.rows<tensor<1000x16xf32>>, tensor<?x3xi64>) -> tensor<?x3x16xf32>
    ```
  }];
  let arguments = (ins Train_Gradient:$table, Train_IdTensor:$ids,
                       OptionalAttr<I64Attr>:$padding_idx);
  let results = (outs Train_FloatTensor:$out);
}

//===----------------------------------------------------------------------===//
// Gradient ops
//===----------------------------------------------------------------------===//

def Train_MatmulGradOp : Train_InferredOp<"matmul_grad"> {
  let summary = "Gradients of `train.matmul`.";
  let description = [{
    `da = dout x b^T`, `db = a^T x dout`.

    ```mlir
    %da, %db = train.matmul_grad %a, %b, %dout
        : (tensor<?x784xf32>, tensor<784x256xf32>, tensor<?x256xf32>)
        -> (tensor<?x784xf32>, tensor<784x256xf32>)
    ```
  }];
  let arguments = (ins Train_FloatTensor:$a, Train_FloatTensor:$b,
                       Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$da, Train_FloatTensor:$db);
}

class Train_BroadcastBinaryGradOp<string mnemonic, string rule>
    : Train_InferredOp<mnemonic # "_grad"> {
  let summary = "Gradients of `train." # mnemonic # "`.";
  let description = [{
    }] # rule # [{ A broadcast bias gets the sum over the
    broadcast dimensions.

    ```mlir
    %dx, %dy = train.}] # mnemonic # [{_grad %x, %b, %dout
        : (tensor<?x256xf32>, tensor<256xf32>, tensor<?x256xf32>)
        -> (tensor<?x256xf32>, tensor<256xf32>)
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$y,
                       Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$dx, Train_FloatTensor:$dy);
  let extraClassDefinition = [{
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *, ::std::optional<::mlir::Location> loc,
        Adaptor adaptor, ::llvm::SmallVectorImpl<::mlir::Type> &inferred) {
      return inferBroadcastBinaryGradTypes(loc, adaptor.getX(), adaptor.getY(),
                                           adaptor.getDout(), inferred);
    }
  }];
}

def Train_AddGradOp
    : Train_BroadcastBinaryGradOp<"add", "`dx = dout`, `dy = dout`.">;
def Train_MulGradOp
    : Train_BroadcastBinaryGradOp<"mul", "`dx = dout * y`, `dy = dout * x`.">;

/// Gradient of an activation, written in terms of the forward output.
class Train_ActivationGradOp<string mnemonic, string rule>
    : Train_PureOp<mnemonic # "_grad", [SameOperandsAndResultType]> {
  let summary = "Gradient of `train." # mnemonic # "`: " # rule # ".";
  let description = [{
    Takes the forward result `out` and the gradient of the result.

    ```mlir
    %dx = train.}] # mnemonic # [{_grad %out, %dout : tensor<?x256xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$out, Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$dx);
  let assemblyFormat = "$out `,` $dout attr-dict `:` type($out)";
}

def Train_ReluGradOp
    : Train_ActivationGradOp<"relu", "dx = dout where out > 0, else 0">;
def Train_SigmoidGradOp
    : Train_ActivationGradOp<"sigmoid", "dx = dout * out * (1 - out)">;
def Train_TanhGradOp
    : Train_ActivationGradOp<"tanh", "dx = dout * (1 - out^2)">;
def Train_SoftmaxGradOp
    : Train_ActivationGradOp<"softmax",
          "dx = out * (dout - sum(dout * out, last dim))"> {
  let hasVerifier = 1;
}

def Train_SoftmaxCrossEntropyGradOp
    : Train_InferredOp<"softmax_cross_entropy_grad"> {
  let summary = "Gradient of `train.softmax_cross_entropy` w.r.t. the logits.";
  let description = [{
    `dlogits[i, c] = dloss[i] * (softmax(logits)[i, c] - (c == labels[i]))`.

    ```mlir
    %dl = train.softmax_cross_entropy_grad %logits, %y, %dloss
        : (tensor<?x10xf32>, tensor<?xi64>, tensor<?xf32>) -> tensor<?x10xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$logits, Train_IdTensor:$labels,
                       Train_FloatTensor:$dloss);
  let results = (outs Train_FloatTensor:$dlogits);
}

def Train_SigmoidCrossEntropyGradOp
    : Train_InferredOp<"sigmoid_cross_entropy_grad"> {
  let summary = "Gradient of `train.sigmoid_cross_entropy` w.r.t. the logits.";
  let description = [{
    `dlogits = dloss * (sigmoid(logits) - labels)`.

    ```mlir
    %dl = train.sigmoid_cross_entropy_grad %logit, %click, %dloss
        : (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$logits, Train_FloatTensor:$labels,
                       Train_FloatTensor:$dloss);
  let results = (outs Train_FloatTensor:$dlogits);
}

def Train_MeanGradOp : Train_InferredOp<"mean_grad"> {
  let summary = "Gradient of `train.mean`: `dout / numel(x)` everywhere.";
  let description = [{
    ```mlir
    %dl = train.mean_grad %l, %dm : (tensor<?xf32>, tensor<f32>) -> tensor<?xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatScalar:$dout);
  let results = (outs Train_FloatTensor:$dx);
}

def Train_ReduceSumGradOp : Train_InferredOp<"reduce_sum_grad"> {
  let summary = "Gradient of `train.reduce_sum`: `dout` broadcast back.";
  let description = [{
    `dims` and `keep_dims` are those of the forward op.

    ```mlir
    %dx = train.reduce_sum_grad %x, %ds dims [1]
        : (tensor<?x8xf32>, tensor<?xf32>) -> tensor<?x8xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$dout,
                       DenseI64ArrayAttr:$dims, UnitAttr:$keep_dims);
  let results = (outs Train_FloatTensor:$dx);
  let assemblyFormat = [{
    $x `,` $dout `dims` $dims (`keep_dims` $keep_dims^)? attr-dict `:`
    functional-type(operands, results)
  }];
}

def Train_ReshapeGradOp : Train_InferredOp<"reshape_grad"> {
  let summary = "Gradient of `train.reshape`: `dout` in the shape of `x`.";
  let description = [{
    ```mlir
    %dx = train.reshape_grad %x, %df
        : (tensor<?x4x8xf32>, tensor<?x32xf32>) -> tensor<?x4x8xf32>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$x, Train_FloatTensor:$dout);
  let results = (outs Train_FloatTensor:$dx);
}

def Train_ConcatGradOp : Train_InferredOp<"concat_grad"> {
  let summary = "Gradient of `train.concat`: `dout` split back per input.";
  let description = [{
    ```mlir
    %da, %db = train.concat_grad (%a, %b), %dc axis 1
        : (tensor<?x8xf32>, tensor<?x4xf32>, tensor<?x12xf32>)
        -> (tensor<?x8xf32>, tensor<?x4xf32>)
    ```
  }];
  let arguments = (ins Variadic<Train_FloatTensor>:$inputs,
                       Train_FloatTensor:$dout, I64Attr:$axis);
  let results = (outs Variadic<Train_FloatTensor>:$dinputs);
  let assemblyFormat = [{
    ` ` `(` $inputs `)` `,` $dout `axis` $axis attr-dict `:`
    functional-type(operands, results)
  }];
}

def Train_EmbeddingGradOp : Train_PureOp<"embedding_grad"> {
  let summary = "Gradient of `train.embedding` w.r.t. the table.";
  let description = [{
    Scatter-adds the rows of `dout` into a zero tensor of the table's type
    at the looked-up ids, skipping `padding_idx`. With a `!train.rows`
    result (the gradient of a table marked `sparse`) it holds only the rows
    of the distinct ids, in ascending order; the rows of an id that occurs
    more than once are summed in the order of their positions, as the dense
    form sums them.

    ```mlir
    %dt = train.embedding_grad %ids, %de
        : (tensor<?x3xi64>, tensor<?x3x16xf32>) -> tensor<1000x16xf32>
    %rows = train.embedding_grad %ids, %de
        : (tensor<?x3xi64>, tensor<?x3x16xf32>)
        -> !train.rows<tensor<1000x16xf32>>
    ```
  }];
  let arguments = (ins Train_IdTensor:$ids, Train_FloatTensor:$dout,
                       OptionalAttr<I64Attr>:$padding_idx);
  let results = (outs Train_Gradient:$dtable);
  let assemblyFormat =
      "operands attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Row-sparse values
//===----------------------------------------------------------------------===//

def Train_MergeRowsOp : Train_PureOp<"merge_rows", [
    SameOperandsAndResultType]> {
  let summary = "Sums row-sparse values.";
  let description = [{
    The sum of `inputs`: the union of their ids, in ascending order, each
    row the sum of that id's rows in the order of `inputs`.
    `openks-append-backward` sums the gradients of a sparse table read at
    several places with it.

    ```mlir
    %sum = train.merge_rows %a, %b : !train.rows<tensor<1000x16xf32>>
    ```
  }];
  let arguments = (ins Variadic<Train_RowsType>:$inputs);
  let results = (outs Train_RowsType:$out);
  let assemblyFormat = "$inputs attr-dict `:` qualified(type($out))";
}

def Train_RowsToDenseOp : Train_PureOp<"rows_to_dense"> {
  let summary = "The dense tensor a row-sparse value stands for.";
  let description = [{
    A zero tensor of the table type with the value's rows written in.
    `openks-append-backward` uses it where a sparse table's gradient meets
    a dense one, and `openks-append-optimizer` before a clip or a
    regularizer, which act on the whole table.

    ```mlir
    %dense = train.rows_to_dense %rows
        : !train.rows<tensor<1000x16xf32>> -> tensor<1000x16xf32>
    ```
  }];
  let arguments = (ins Train_RowsType:$rows);
  let results = (outs Train_FloatTensor:$out);
  let assemblyFormat =
      "$rows attr-dict `:` qualified(type($rows)) `->` type($out)";
  let hasVerifier = 1;
}

def Train_ChangedRowsOp : Train_PureOp<"changed_rows", [
    AllTypesMatch<["lhs", "rhs"]>]> {
  let summary = "The rows in which two tensors differ, and by how much.";
  let description = [{
    The row-sparse value of `lhs - rhs` over the rows (along dimension 0)
    in which `lhs` and `rhs` differ in any element: their ids ascending,
    each row `lhs - rhs`. A GEO worker finds with it the rows of a sparse
    table its steps changed since its last push, and sends only those.

    ```mlir
    %change = train.changed_rows %local, %old
        : tensor<1000x16xf32> -> !train.rows<tensor<1000x16xf32>>
    ```
  }];
  let arguments = (ins Train_FloatTensor:$lhs, Train_FloatTensor:$rhs);
  let results = (outs Train_RowsType:$out);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `->` qualified(type($out))
  }];
  let hasVerifier = 1;
}

def Train_RowIdsOp : Train_PureOp<"row_ids"> {
  let summary = "The ids of a row-sparse value's rows.";
  let description = [{
    The ids of the rows `rows` holds, ascending: what a GEO worker routes
    to the servers to fetch the same rows back after a push.

    ```mlir
    %ids = train.row_ids %change
        : !train.rows<tensor<1000x16xf32>> -> tensor<?xi64>
    ```
  }];
  let arguments = (ins Train_RowsType:$rows);
  let results = (outs 1DTensorOf<[I64]>:$ids);
  let assemblyFormat =
      "$rows attr-dict `:` qualified(type($rows)) `->` type($ids)";
}

def Train_ScatterRowsOp : Train_Op<"scatter_rows", [
    DeclareOpInterfaceMethods<SymbolUserOpInterface>,
    MemoryEffects<[MemRead<Train_ParameterResource>,
                   MemWrite<Train_ParameterResource>]>]> {
  let summary = "Writes, or adds, a row-sparse value's rows into a parameter.";
  let description = [{
    Sets each row of the parameter `param` that `rows` holds to that row,
    or with `accumulate` adds the row to it; the other rows stay as they
    are. The parameter's type is the value's table type. A GEO server adds
    the rows of a trainer's delta to its block with it, and a GEO worker
    writes the rows it fetched back into its copies.

    ```mlir
    train.scatter_rows %delta into @emb.block0 accumulate
        : !train.rows<tensor<500x16xf32>>
    ```
  }];
  let arguments = (ins Train_RowsType:$rows, FlatSymbolRefAttr:$param,
                       UnitAttr:$accumulate);
  let assemblyFormat = [{
    $rows `into` $param (`accumulate` $accumulate^)? attr-dict `:`
    qualified(type($rows))
  }];
}

include "openks/Dialect/Train/IR/TrainOptimizerOps.td"

//===----------------------------------------------------------------------===//
// The ops of knowledge-graph, click-through and word2vec models
//===----------------------------------------------------------------------===//

include "openks/Dialect/Train/IR/TrainMathOps.td"
include "openks/Dialect/Train/IR/TrainLossOps.td"
include "openks/Dialect/Train/IR/TrainSequenceOps.td"
include "openks/Dialect/Train/IR/TrainSamplingOps.td"

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINOPS_TD
