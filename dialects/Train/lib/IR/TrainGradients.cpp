//===- TrainGradients.cpp - Gradient rules of the forward ops -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// GradientOpInterface for every differentiable `train` op: each emits its
// grad op from the gradient of its one result. Ids, labels and stopped
// values take no gradient. The lookups of a table marked `sparse` give a
// row-sparse gradient.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace openks::train;

/// Returns the type of the gradient a lookup gives `table`: row-sparse when
/// the table is read from a parameter marked `sparse`, else the table's type.
static Type getTableGradientType(Value table) {
  // Rows a worker prefetched: the gradient holds rows of the same table.
  if (auto rows = dyn_cast<RowsType>(table.getType()))
    return rows;
  auto type = cast<RankedTensorType>(table.getType());
  auto read = table.getDefiningOp<ReadOp>();
  if (!read)
    return type;
  auto param =
      SymbolTable::lookupNearestSymbolFrom<ParamOp>(read, read.getParamAttr());
  if (param && param.getSparse())
    return RowsType::get(type);
  return type;
}

/// Emits the grad op of a unary op, which takes `first` (the forward result
/// or input, as its rule is written) and the gradient of the result.
template <typename GradOp>
static LogicalResult emitUnaryGradient(OpBuilder &builder, Operation *forward,
                                       Value first, Value dout,
                                       SmallVectorImpl<Value> &grads) {
  grads.push_back(
      GradOp::create(builder, forward->getLoc(), first.getType(), first, dout));
  return success();
}

/// Emits the grad op of an activation, which takes the forward result.
template <typename GradOp>
static LogicalResult emitActivationGradient(OpBuilder &builder,
                                            Operation *forward, Value dout,
                                            SmallVectorImpl<Value> &grads) {
  return emitUnaryGradient<GradOp>(builder, forward, forward->getResult(0),
                                   dout, grads);
}

/// Emits the grad op of a unary op that takes the forward input.
template <typename GradOp>
static LogicalResult emitInputGradient(OpBuilder &builder, Operation *forward,
                                       Value dout,
                                       SmallVectorImpl<Value> &grads) {
  return emitUnaryGradient<GradOp>(builder, forward, forward->getOperand(0),
                                   dout, grads);
}

/// Emits the grad op of a broadcasting binary op (`x`, `y`).
template <typename GradOp>
static LogicalResult emitBinaryGradient(OpBuilder &builder, Operation *forward,
                                        Value dout,
                                        SmallVectorImpl<Value> &grads) {
  auto grad = GradOp::create(builder, forward->getLoc(), forward->getOperand(0),
                             forward->getOperand(1), dout);
  grads.append({grad.getDx(), grad.getDy()});
  return success();
}

LogicalResult ReluOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                   SmallVectorImpl<Value> &grads) {
  return emitActivationGradient<ReluGradOp>(builder, *this, resultGrads[0],
                                            grads);
}

LogicalResult SigmoidOp::emitGradient(OpBuilder &builder,
                                      ValueRange resultGrads,
                                      SmallVectorImpl<Value> &grads) {
  return emitActivationGradient<SigmoidGradOp>(builder, *this, resultGrads[0],
                                               grads);
}

LogicalResult TanhOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                   SmallVectorImpl<Value> &grads) {
  return emitActivationGradient<TanhGradOp>(builder, *this, resultGrads[0],
                                            grads);
}

LogicalResult SoftmaxOp::emitGradient(OpBuilder &builder,
                                      ValueRange resultGrads,
                                      SmallVectorImpl<Value> &grads) {
  return emitActivationGradient<SoftmaxGradOp>(builder, *this, resultGrads[0],
                                               grads);
}

LogicalResult MatmulOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                     SmallVectorImpl<Value> &grads) {
  auto grad =
      MatmulGradOp::create(builder, getLoc(), getA(), getB(), resultGrads[0]);
  grads.append({grad.getDa(), grad.getDb()});
  return success();
}

LogicalResult AddOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitBinaryGradient<AddGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult MulOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitBinaryGradient<MulGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult
SoftmaxCrossEntropyOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                    SmallVectorImpl<Value> &grads) {
  grads.append(
      {SoftmaxCrossEntropyGradOp::create(builder, getLoc(), getLogits(),
                                         getLabels(), resultGrads[0]),
       Value()});
  return success();
}

LogicalResult
SigmoidCrossEntropyOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                    SmallVectorImpl<Value> &grads) {
  grads.append(
      {SigmoidCrossEntropyGradOp::create(builder, getLoc(), getLogits(),
                                         getLabels(), resultGrads[0]),
       Value()});
  return success();
}

LogicalResult MeanOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                   SmallVectorImpl<Value> &grads) {
  grads.push_back(
      MeanGradOp::create(builder, getLoc(), getX(), resultGrads[0]));
  return success();
}

LogicalResult ReduceSumOp::emitGradient(OpBuilder &builder,
                                        ValueRange resultGrads,
                                        SmallVectorImpl<Value> &grads) {
  grads.push_back(ReduceSumGradOp::create(
      builder, getLoc(), getX(), resultGrads[0], getDims(), getKeepDims()));
  return success();
}

LogicalResult ReshapeOp::emitGradient(OpBuilder &builder,
                                      ValueRange resultGrads,
                                      SmallVectorImpl<Value> &grads) {
  grads.push_back(
      ReshapeGradOp::create(builder, getLoc(), getX(), resultGrads[0]));
  return success();
}

LogicalResult ConcatOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                     SmallVectorImpl<Value> &grads) {
  auto grad = ConcatGradOp::create(builder, getLoc(), getInputs(),
                                   resultGrads[0], getAxis());
  llvm::append_range(grads, grad.getDinputs());
  return success();
}

LogicalResult EmbeddingOp::emitGradient(OpBuilder &builder,
                                        ValueRange resultGrads,
                                        SmallVectorImpl<Value> &grads) {
  grads.append({EmbeddingGradOp::create(
                    builder, getLoc(), getTableGradientType(getTable()),
                    getIds(), resultGrads[0], getPaddingIdxAttr()),
                Value()});
  return success();
}

LogicalResult ScaleOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                    SmallVectorImpl<Value> &grads) {
  grads.push_back(ScaleOp::create(builder, getLoc(), resultGrads[0].getType(),
                                  resultGrads[0], getFactorAttr()));
  return success();
}

LogicalResult StopGradientOp::emitGradient(OpBuilder &, ValueRange,
                                           SmallVectorImpl<Value> &grads) {
  grads.push_back(Value());
  return success();
}

//===----------------------------------------------------------------------===//
// Element-wise math, norms and cosines
//===----------------------------------------------------------------------===//

LogicalResult SubOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitBinaryGradient<SubGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult DivOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitBinaryGradient<DivGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult AbsOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitInputGradient<AbsGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult SquareOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                     SmallVectorImpl<Value> &grads) {
  return emitInputGradient<SquareGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult SqrtOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                   SmallVectorImpl<Value> &grads) {
  return emitActivationGradient<SqrtGradOp>(builder, *this, resultGrads[0],
                                            grads);
}

LogicalResult ExpOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitActivationGradient<ExpGradOp>(builder, *this, resultGrads[0],
                                           grads);
}

LogicalResult LogOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  return emitInputGradient<LogGradOp>(builder, *this, resultGrads[0], grads);
}

LogicalResult SoftsignOp::emitGradient(OpBuilder &builder,
                                       ValueRange resultGrads,
                                       SmallVectorImpl<Value> &grads) {
  return emitInputGradient<SoftsignGradOp>(builder, *this, resultGrads[0],
                                           grads);
}

LogicalResult PNormOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                    SmallVectorImpl<Value> &grads) {
  grads.push_back(PNormGradOp::create(builder, getLoc(), getX(), getOut(),
                                      resultGrads[0], getPAttr(), getAxisAttr(),
                                      getKeepDimsAttr(), getEpsilonAttr()));
  return success();
}

LogicalResult CosSimOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                     SmallVectorImpl<Value> &grads) {
  auto grad =
      CosSimGradOp::create(builder, getLoc(), getX(), getY(), resultGrads[0]);
  grads.append({grad.getDx(), grad.getDy()});
  return success();
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

LogicalResult SquareErrorOp::emitGradient(OpBuilder &builder,
                                          ValueRange resultGrads,
                                          SmallVectorImpl<Value> &grads) {
  auto grad = SquareErrorGradOp::create(builder, getLoc(), getInput(),
                                        getLabel(), resultGrads[0]);
  grads.append({grad.getDinput(), grad.getDlabel()});
  return success();
}

LogicalResult MarginLossOp::emitGradient(OpBuilder &builder,
                                         ValueRange resultGrads,
                                         SmallVectorImpl<Value> &grads) {
  auto grad = MarginLossGradOp::create(builder, getLoc(), getPos(), getNeg(),
                                       resultGrads[0], getMarginAttr());
  grads.append({grad.getDpos(), grad.getDneg()});
  return success();
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

LogicalResult SequencePoolOp::emitGradient(OpBuilder &builder,
                                           ValueRange resultGrads,
                                           SmallVectorImpl<Value> &grads) {
  grads.append(
      {SequencePoolGradOp::create(builder, getLoc(), getX(), getLengths(),
                                  resultGrads[0], getPooltypeAttr()),
       Value()});
  return success();
}

LogicalResult EmbeddingPoolOp::emitGradient(OpBuilder &builder,
                                            ValueRange resultGrads,
                                            SmallVectorImpl<Value> &grads) {
  grads.append({EmbeddingPoolGradOp::create(
                    builder, getLoc(), getTableGradientType(getTable()),
                    getIds(), getLengths(), resultGrads[0], getPooltypeAttr(),
                    getPaddingIdxAttr()),
                Value(), Value()});
  return success();
}

//===----------------------------------------------------------------------===//
// Dropout and sampled losses: counters and labels take no gradient.
//===----------------------------------------------------------------------===//

LogicalResult DropoutOp::emitGradient(OpBuilder &builder,
                                      ValueRange resultGrads,
                                      SmallVectorImpl<Value> &grads) {
  Value dout = resultGrads[0];
  double keep = 1 - getDropoutProb().convertToDouble();
  if (!getIsTest())
    grads.push_back(DropoutGradOp::create(builder, getLoc(), dout, getStep(),
                                          getDropoutProbAttr(), getSeedAttr(),
                                          getUpscaleInTrainAttr()));
  else if (getUpscaleInTrain())
    grads.push_back(dout);
  else
    grads.push_back(ScaleOp::create(builder, getLoc(), dout.getType(), dout,
                                    builder.getF64FloatAttr(keep)));
  if (getStep())
    grads.push_back(Value());
  return success();
}

LogicalResult NceOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  auto grad = NceGradOp::create(builder, getLoc(), getInput(), getLabels(),
                                getWeight(), getBias(), getStep(),
                                resultGrads[0], getNumNegSamplesAttr(),
                                getSamplerAttr(), getSeedAttr());
  grads.append(
      {grad.getDinput(), Value(), grad.getDweight(), grad.getDbias(), Value()});
  return success();
}
