//===- TrainMathOps.cpp - Element-wise math, norms, cosines ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Result types and verifiers of the ops of TrainMathOps.td (sub and div
// share theirs with add and mul, in TrainOps.cpp).
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "TrainOpInference.h"

using namespace mlir;
using namespace openks::train;
using namespace openks::train::detail;

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

/// Returns the type of the norm of `x` along `axis`.
static FailureOr<RankedTensorType> inferPNormType(OptionalLoc loc, Value x,
                                                  int64_t axis, bool keepDims) {
  return inferReduceSumType(loc, tensorType(x), {axis}, keepDims);
}

/// Checks the order and epsilon of a norm or its gradient.
static LogicalResult verifyNormAttrs(Operation *op, int64_t p, double epsilon) {
  if (p != 1 && p != 2)
    return op->emitOpError("p must be 1 or 2, got ") << p;
  if (!(epsilon >= 0))
    return op->emitOpError("epsilon must be non-negative, got ") << epsilon;
  return success();
}

LogicalResult PNormOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferPNormType(loc, adaptor.getX(), adaptor.getAxis(),
                                     adaptor.getKeepDims()),
                      inferred);
}

LogicalResult PNormOp::verify() {
  return verifyNormAttrs(*this, getP(), getEpsilon().convertToDouble());
}

LogicalResult PNormGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  Value x = adaptor.getX(), out = adaptor.getOut();
  FailureOr<RankedTensorType> forward =
      inferPNormType(loc, x, adaptor.getAxis(), adaptor.getKeepDims());
  if (failed(forward))
    return failure();
  if (tensorType(out).getElementType() != forward->getElementType() ||
      failed(verifyCompatibleShape(out.getType(), *forward)))
    return emitOptionalError(loc, "forward result type ", out.getType(),
                             " does not match the norm's type ", *forward);
  return inferGradTypes(loc, forward, adaptor.getDout(), x.getType(), inferred);
}

LogicalResult PNormGradOp::verify() {
  return verifyNormAttrs(*this, getP(), getEpsilon().convertToDouble());
}

//===----------------------------------------------------------------------===//
// Cosine similarity
//===----------------------------------------------------------------------===//

LogicalResult CosSimOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferCosSimType(loc, tensorType(adaptor.getX()),
                                      tensorType(adaptor.getY())),
                      inferred);
}

LogicalResult CosSimGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  Value x = adaptor.getX(), y = adaptor.getY();
  return inferGradTypes(loc, inferCosSimType(loc, tensorType(x), tensorType(y)),
                        adaptor.getDout(), {x.getType(), y.getType()},
                        inferred);
}
