//===- PaddleMathOpsToTrain.cpp - Paddle math ops onto train ops ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The handlers of Paddle's element-wise ops (with the broadcasts train
// has), activations and unary math, p_norm, cos_sim and dropout at
// inference, and of their gradients. Paddle's square_error_cost is
// elementwise_sub and square, so it imports through these.
//
// Not mapped: dropout in training, whose mask Paddle draws from a stateful
// generator while train.dropout draws it from a step counter the program
// does not have; and nce, whose sampled outputs have no counterpart.
// (margin_rank_loss and sequence_pool map in PaddleOpsToTrain.cpp when
// their Label is ones and their LoD a fed input's.)
//
//===----------------------------------------------------------------------===//

#include "PaddleToTrain.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::interop;
using namespace openks::train;

//===----------------------------------------------------------------------===//
// Binary ops
//===----------------------------------------------------------------------===//

/// Checks that an elementwise op's `axis` broadcasts Y the way train does:
/// Y of X's rank, or a rank-1 Y along X's last dimension.
static LogicalResult checkBroadcast(StepBuilder &b, Value x, Value y) {
  int64_t xRank = cast<RankedTensorType>(x.getType()).getRank();
  int64_t yRank = cast<RankedTensorType>(y.getType()).getRank();
  FailureOr<int64_t> axis = b.getInt("axis", -1);
  if (failed(axis))
    return failure();
  if (yRank == xRank && (*axis == -1 || *axis == 0))
    return success();
  if (yRank == 1 && (*axis == -1 || *axis == xRank - 1))
    return success();
  return b.fail() << "broadcasts a rank-" << yRank << " Y over a rank-" << xRank
                  << " X at axis " << *axis
                  << "; train broadcasts a rank-1 Y along the last dimension "
                     "only";
}

/// Maps an op of X and Y onto `OpTy`; an elementwise op (`kBroadcasts`) has
/// its axis checked.
template <typename OpTy, bool kBroadcasts = true>
static LogicalResult mapBinary(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> y = b.getInput("Y");
  if (failed(x) || failed(y) ||
      (kBroadcasts && failed(checkBroadcast(b, *x, *y))))
    return failure();
  return b.setOutput("Out", b.create<OpTy>(*x, *y));
}

/// Maps the gradient of an op of X and Y from X, Y and Out@GRAD. (Paddle
/// versions whose elementwise_div_grad takes Out instead of X are refused
/// for the missing X.)
template <typename GradOpTy, bool kBroadcasts = true>
static LogicalResult mapBinaryGrad(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> y = b.getInput("Y");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(x) || failed(y) || failed(dout) ||
      (kBroadcasts && failed(checkBroadcast(b, *x, *y))))
    return failure();
  FailureOr<GradOpTy> grads = b.create<GradOpTy>(*x, *y, *dout);
  if (failed(grads) || failed(b.setOutput(grad("X"), grads->getDx())))
    return failure();
  return b.setOutput(grad("Y"), grads->getDy());
}

//===----------------------------------------------------------------------===//
// Activations and unary math
//===----------------------------------------------------------------------===//

LogicalResult openks::interop::checkLastAxis(StepBuilder &b, Value x) {
  FailureOr<int64_t> axis = b.getInt("axis", -1);
  if (failed(axis))
    return failure();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (*axis == -1 || *axis == rank - 1)
    return success();
  return b.fail() << "normalizes over axis " << *axis
                  << "; train's softmax uses the last dimension";
}

template <typename OpTy> static LogicalResult mapActivation(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  if (failed(x))
    return failure();
  if (std::is_same_v<OpTy, SoftmaxOp> && failed(checkLastAxis(b, *x)))
    return failure();
  FailureOr<OpTy> op = b.create<OpTy>(*x);
  if (std::is_same_v<OpTy, SoftmaxOp>)
    for (StringRef name : b.getOutputNames("Out"))
      b.setSoftmaxOf(name, *x);
  return b.setOutput("Out", op);
}

/// The gradient of an activation from `slot` (Out or X, the one Paddle's
/// gradient takes) and Out@GRAD.
template <typename GradOpTy>
static LogicalResult mapUnaryGrad(StepBuilder &b, StringRef slot) {
  FailureOr<Value> first = b.getInput(slot);
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(first) || failed(dout))
    return failure();
  return b.setOutput(grad("X"), b.create<GradOpTy>(*first, *dout));
}

/// The gradient of an activation written in terms of its result.
template <typename GradOpTy>
static LogicalResult mapActivationGrad(StepBuilder &b) {
  return mapUnaryGrad<GradOpTy>(b, "Out");
}

/// The gradient of a unary op written in terms of its input.
template <typename GradOpTy> static LogicalResult mapInputGrad(StepBuilder &b) {
  return mapUnaryGrad<GradOpTy>(b, "X");
}

//===----------------------------------------------------------------------===//
// Norms, cosines and dropout
//===----------------------------------------------------------------------===//

namespace {
/// The attributes of p_norm and p_norm_grad, in train's terms.
struct NormAttrs {
  int64_t p = 2, axis = -1;
  bool keepDims = false;
  double epsilon = 1.0e-12;
};
} // namespace

/// Reads the attributes of a p_norm over `x`: an order of 1 or 2, an axis
/// counted from the end when negative, no norm of the flattened tensor.
static FailureOr<NormAttrs> getNormAttrs(StepBuilder &b, Value x) {
  FailureOr<double> order = b.getFloat("porder", 2.0);
  FailureOr<int64_t> axis = b.getInt("axis", -1);
  FailureOr<bool> keepDims = b.getBool("keepdim", false);
  FailureOr<double> epsilon = b.getFloat("epsilon", 1.0e-12);
  if (failed(order) || failed(axis) || failed(keepDims) || failed(epsilon) ||
      failed(b.checkBool("asvector", false)))
    return failure();
  if (*order != 1.0 && *order != 2.0)
    return b.fail() << "has porder " << *order
                    << "; train's p_norm has orders 1 and 2";
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  if (*axis < -rank || *axis >= rank)
    return b.fail() << "has axis " << *axis << " for a rank-" << rank << " X";
  NormAttrs attrs;
  attrs.p = static_cast<int64_t>(*order);
  attrs.axis = *axis < 0 ? *axis + rank : *axis;
  attrs.keepDims = *keepDims;
  attrs.epsilon = *epsilon;
  return attrs;
}

static LogicalResult mapPNorm(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  if (failed(x))
    return failure();
  FailureOr<NormAttrs> attrs = getNormAttrs(b, *x);
  if (failed(attrs))
    return failure();
  return b.setOutput("Out", b.create<PNormOp>(*x, attrs->p, attrs->axis,
                                              attrs->keepDims,
                                              APFloat(attrs->epsilon)));
}

static LogicalResult mapPNormGrad(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> out = b.getInput("Out");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(x) || failed(out) || failed(dout))
    return failure();
  FailureOr<NormAttrs> attrs = getNormAttrs(b, *x);
  if (failed(attrs))
    return failure();
  return b.setOutput(grad("X"), b.create<PNormGradOp>(
                                    *x, *out, *dout, attrs->p, attrs->axis,
                                    attrs->keepDims, APFloat(attrs->epsilon)));
}

/// Dropout at inference (is_test); its Mask output has no counterpart.
static LogicalResult mapDropout(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<bool> isTest = b.getBool("is_test", false);
  FailureOr<double> prob = b.getFloat("dropout_prob", 0.5);
  FailureOr<std::string> implementation =
      b.getString("dropout_implementation", "downgrade_in_infer");
  if (failed(x) || failed(isTest) || failed(prob) || failed(implementation) ||
      failed(b.checkNoInput("Seed")))
    return failure();
  if (!*isTest)
    return b.fail() << "drops in training, from Paddle's random state; "
                       "train.dropout draws its mask from a step counter the "
                       "program has none of";
  if (*implementation != "downgrade_in_infer" &&
      *implementation != "upscale_in_train")
    return b.fail() << "has dropout_implementation '" << *implementation << "'";
  Builder &builder = b.getBuilder();
  return b.setOutput(
      "Out", b.create<DropoutOp>(*x, Value(), builder.getF64FloatAttr(*prob),
                                 IntegerAttr(), builder.getUnitAttr(),
                                 *implementation == "upscale_in_train"
                                     ? builder.getUnitAttr()
                                     : UnitAttr()));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

OpHandler openks::interop::lookupMathOpHandler(StringRef type) {
  return llvm::StringSwitch<OpHandler>(type)
      .Case("elementwise_add", mapBinary<AddOp>)
      .Case("elementwise_sub", mapBinary<SubOp>)
      .Case("elementwise_mul", mapBinary<MulOp>)
      .Case("elementwise_div", mapBinary<DivOp>)
      .Case("elementwise_add_grad", mapBinaryGrad<AddGradOp>)
      .Case("elementwise_sub_grad", mapBinaryGrad<SubGradOp>)
      .Case("elementwise_mul_grad", mapBinaryGrad<MulGradOp>)
      .Case("elementwise_div_grad", mapBinaryGrad<DivGradOp>)
      .Case("relu", mapActivation<ReluOp>)
      .Case("sigmoid", mapActivation<SigmoidOp>)
      .Case("tanh", mapActivation<TanhOp>)
      .Case("softmax", mapActivation<SoftmaxOp>)
      .Case("abs", mapActivation<AbsOp>)
      .Case("square", mapActivation<SquareOp>)
      .Case("sqrt", mapActivation<SqrtOp>)
      .Case("exp", mapActivation<ExpOp>)
      .Case("log", mapActivation<LogOp>)
      .Case("softsign", mapActivation<SoftsignOp>)
      .Case("relu_grad", mapActivationGrad<ReluGradOp>)
      .Case("sigmoid_grad", mapActivationGrad<SigmoidGradOp>)
      .Case("tanh_grad", mapActivationGrad<TanhGradOp>)
      .Case("softmax_grad", mapActivationGrad<SoftmaxGradOp>)
      .Case("sqrt_grad", mapActivationGrad<SqrtGradOp>)
      .Case("exp_grad", mapActivationGrad<ExpGradOp>)
      .Case("abs_grad", mapInputGrad<AbsGradOp>)
      .Case("square_grad", mapInputGrad<SquareGradOp>)
      .Case("log_grad", mapInputGrad<LogGradOp>)
      .Case("softsign_grad", mapInputGrad<SoftsignGradOp>)
      .Case("p_norm", mapPNorm)
      .Case("p_norm_grad", mapPNormGrad)
      // cos_sim's XNorm and YNorm outputs have no counterpart; its gradient
      // recomputes them.
      .Case("cos_sim", mapBinary<CosSimOp, /*kBroadcasts=*/false>)
      .Case("cos_sim_grad", mapBinaryGrad<CosSimGradOp, /*kBroadcasts=*/false>)
      .Case("dropout", mapDropout)
      .Default(nullptr);
}
