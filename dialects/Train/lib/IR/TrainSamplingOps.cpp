//===- TrainSamplingOps.cpp - Dropout and sampled losses ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Result types and verifiers of the ops of TrainSamplingOps.td.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "TrainOpInference.h"

using namespace mlir;
using namespace openks::train;
using namespace openks::train::detail;

/// Checks that a dropout probability lies in [0, 1].
static LogicalResult verifyDropoutProb(Operation *op, APFloat prob) {
  double value = prob.convertToDouble();
  if (value >= 0 && value <= 1)
    return success();
  return op->emitOpError("dropout_prob must be in [0, 1], got ") << value;
}

LogicalResult DropoutOp::verify() {
  if (!getStep() && !getIsTest())
    return emitOpError("needs a step counter to draw its mask in training "
                       "(or is_test for inference)");
  return verifyDropoutProb(*this, getDropoutProb());
}

LogicalResult DropoutGradOp::verify() {
  return verifyDropoutProb(*this, getDropoutProb());
}

/// Checks the number of negative classes an nce op draws per row.
static LogicalResult verifyNumNegSamples(Operation *op, int64_t count) {
  if (count >= 1)
    return success();
  return op->emitOpError("num_neg_samples must be at least 1, got ") << count;
}

LogicalResult NceOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                      Adaptor adaptor,
                                      SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferNceType(loc, tensorType(adaptor.getInput()),
                                   tensorType(adaptor.getLabels()),
                                   tensorType(adaptor.getWeight()),
                                   tensorType(adaptor.getBias())),
                      inferred);
}

LogicalResult NceOp::verify() {
  return verifyNumNegSamples(*this, getNumNegSamples());
}

LogicalResult NceGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                          Adaptor adaptor,
                                          SmallVectorImpl<Type> &inferred) {
  Value input = adaptor.getInput(), weight = adaptor.getWeight(),
        bias = adaptor.getBias();
  return inferGradTypes(
      loc,
      inferNceType(loc, tensorType(input), tensorType(adaptor.getLabels()),
                   tensorType(weight), tensorType(bias)),
      adaptor.getDcost(), {input.getType(), weight.getType(), bias.getType()},
      inferred);
}

LogicalResult NceGradOp::verify() {
  return verifyNumNegSamples(*this, getNumNegSamples());
}
