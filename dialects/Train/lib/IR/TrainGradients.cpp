//===- TrainGradients.cpp - Gradient rules of the forward ops -------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// GradientOpInterface for every differentiable `train` op: each emits its
// grad op from the gradient of its one result. Ids, labels and stopped
// values take no gradient.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace openks::train;

/// Emits the grad op of an activation, which takes the forward result.
template <typename GradOp>
static LogicalResult emitActivationGradient(OpBuilder &builder,
                                            Operation *forward, Value dout,
                                            SmallVectorImpl<Value> &grads) {
  Value out = forward->getResult(0);
  grads.push_back(
      GradOp::create(builder, forward->getLoc(), out.getType(), out, dout));
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
  auto grad =
      AddGradOp::create(builder, getLoc(), getX(), getY(), resultGrads[0]);
  grads.append({grad.getDx(), grad.getDy()});
  return success();
}

LogicalResult MulOp::emitGradient(OpBuilder &builder, ValueRange resultGrads,
                                  SmallVectorImpl<Value> &grads) {
  auto grad =
      MulGradOp::create(builder, getLoc(), getX(), getY(), resultGrads[0]);
  grads.append({grad.getDx(), grad.getDy()});
  return success();
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
  grads.append(
      {EmbeddingGradOp::create(builder, getLoc(), getTable().getType(),
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
