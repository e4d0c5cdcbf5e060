//===- TrainOptimizerOps.cpp - Train dialect optimizer ops ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Verifiers and state accessors of the ops TrainOptimizerOps.td declares:
// optimizers, what prepares their gradients, learning-rate schedules.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

using namespace mlir;
using namespace openks::train;

//===----------------------------------------------------------------------===//
// Optimizer ops
//===----------------------------------------------------------------------===//

/// Checks that an optimizer coefficient lies in [0, 1).
static LogicalResult verifyDecayRate(Operation *op, StringRef name,
                                     double value) {
  if (value >= 0 && value < 1)
    return success();
  return op->emitOpError() << name << " must be in [0, 1), got " << value;
}

/// Checks that `epsilon` is positive.
static LogicalResult verifyEpsilon(Operation *op, double epsilon) {
  if (epsilon > 0)
    return success();
  return op->emitOpError("epsilon must be positive, got ") << epsilon;
}

/// Checks that the coefficient `name` is not negative.
static LogicalResult verifyNonNegative(Operation *op, StringRef name,
                                       double value) {
  if (value >= 0)
    return success();
  return op->emitOpError() << name << " must be non-negative, got " << value;
}

SmallVector<FlatSymbolRefAttr> SgdOp::getElementwiseState() { return {}; }

LogicalResult SgdOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> MomentumOp::getElementwiseState() {
  return {getVelocityAttr()};
}

LogicalResult MomentumOp::verify() {
  return verifyNonNegative(*this, "mu", getMu().convertToDouble());
}

LogicalResult MomentumOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> AdamOp::getElementwiseState() {
  return {getMoment1Attr(), getMoment2Attr()};
}

SmallVector<FlatSymbolRefAttr> AdamOp::getScalarState() {
  return {getBeta1PowAttr(), getBeta2PowAttr()};
}

LogicalResult AdamOp::verify() {
  if (failed(verifyDecayRate(*this, "beta1", getBeta1().convertToDouble())) ||
      failed(verifyDecayRate(*this, "beta2", getBeta2().convertToDouble())))
    return failure();
  return verifyEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult AdamOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> AdagradOp::getElementwiseState() {
  return {getMomentAttr()};
}

LogicalResult AdagradOp::verify() {
  return verifyEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult AdagradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> RmspropOp::getElementwiseState() {
  SmallVector<FlatSymbolRefAttr> state = {getMeanSquareAttr(), getMomentAttr()};
  if (FlatSymbolRefAttr meanGrad = getMeanGradAttr())
    state.push_back(meanGrad);
  return state;
}

LogicalResult RmspropOp::verify() {
  if (failed(verifyDecayRate(*this, "decay", getDecay().convertToDouble())) ||
      failed(verifyEpsilon(*this, getEpsilon().convertToDouble())))
    return failure();
  return verifyNonNegative(*this, "momentum", getMomentum().convertToDouble());
}

LogicalResult RmspropOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> DecayedAdagradOp::getElementwiseState() {
  return {getMomentAttr()};
}

LogicalResult DecayedAdagradOp::verify() {
  if (failed(verifyDecayRate(*this, "decay", getDecay().convertToDouble())))
    return failure();
  return verifyEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult
DecayedAdagradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> FtrlOp::getElementwiseState() {
  return {getSquaredAttr(), getLinearAttr()};
}

LogicalResult FtrlOp::verify() {
  if (failed(verifyNonNegative(*this, "l1", getL1().convertToDouble())) ||
      failed(verifyNonNegative(*this, "l2", getL2().convertToDouble())))
    return failure();
  // A positive power would divide by the zero the accumulator starts at.
  double power = getLrPower().convertToDouble();
  if (power <= 0)
    return success();
  return emitOpError("lr_power must not be positive, got ") << power;
}

LogicalResult FtrlOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

SmallVector<FlatSymbolRefAttr> AdamaxOp::getElementwiseState() {
  return {getMomentAttr(), getInfNormAttr()};
}

SmallVector<FlatSymbolRefAttr> AdamaxOp::getScalarState() {
  return {getBeta1PowAttr()};
}

LogicalResult AdamaxOp::verify() {
  if (failed(verifyDecayRate(*this, "beta1", getBeta1().convertToDouble())) ||
      failed(verifyDecayRate(*this, "beta2", getBeta2().convertToDouble())))
    return failure();
  return verifyEpsilon(*this, getEpsilon().convertToDouble());
}

LogicalResult AdamaxOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyOptimizerSymbolUses(*this, symbolTable);
}

//===----------------------------------------------------------------------===//
// Between autodiff and the optimizer
//===----------------------------------------------------------------------===//

LogicalResult
ParamGradOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  FailureOr<ParameterOpInterface> param =
      lookupParameter(*this, getParamAttr(), symbolTable);
  if (failed(param))
    return failure();
  if (!param->isTrainable())
    return emitOpError("names a gradient for frozen parameter ")
           << getParamAttr();
  if (param->getParameterType() != getDenseType(getGrad().getType()))
    return emitOpError("gradient type ")
           << getGrad().getType() << " does not match parameter "
           << getParamAttr() << " of type " << param->getParameterType();
  return success();
}

LogicalResult ClipByGlobalNormOp::verify() {
  if (getGrads().empty())
    return emitOpError("needs at least one gradient");
  if (!(getMaxNorm().convertToDouble() > 0))
    return emitOpError("max_norm must be positive, got ")
           << getMaxNorm().convertToDouble();
  return success();
}

LogicalResult ClipOp::verify() {
  double min = getMin().convertToDouble(), max = getMax().convertToDouble();
  if (min <= max)
    return success();
  return emitOpError("min must not exceed max, got [")
         << min << ", " << max << "]";
}

LogicalResult ClipByNormOp::verify() {
  if (getMaxNorm().convertToDouble() > 0)
    return success();
  return emitOpError("max_norm must be positive, got ")
         << getMaxNorm().convertToDouble();
}

//===----------------------------------------------------------------------===//
// Learning-rate schedules
//===----------------------------------------------------------------------===//

LogicalResult ExponentialDecayOp::verify() {
  if (getDecayStepsAttr().getInt() < 1)
    return emitOpError("decay_steps must be at least 1, got ")
           << getDecayStepsAttr().getInt();
  if (!(getDecayRate().convertToDouble() > 0))
    return emitOpError("decay_rate must be positive, got ")
           << getDecayRate().convertToDouble();
  return success();
}

LogicalResult PiecewiseDecayOp::verify() {
  ArrayRef<int64_t> boundaries = getBoundaries();
  if (getValues().size() != boundaries.size() + 1)
    return emitOpError("needs one more value than boundaries, got ")
           << getValues().size() << " values for " << boundaries.size()
           << " boundaries";
  for (size_t i = 1; i < boundaries.size(); ++i)
    if (boundaries[i] <= boundaries[i - 1])
      return emitOpError("boundaries must increase strictly, but ")
             << boundaries[i] << " follows " << boundaries[i - 1];
  return success();
}
