//===- TrainSequenceOps.cpp - Pooling of variable-length id lists ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Result types and verifiers of the ops of TrainSequenceOps.td.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "TrainOpInference.h"

using namespace mlir;
using namespace openks::train;
using namespace openks::train::detail;

LogicalResult
SequencePoolOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                 Adaptor adaptor,
                                 SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferSequencePoolType(loc, tensorType(adaptor.getX()),
                                            tensorType(adaptor.getLengths())),
                      inferred);
}

LogicalResult
SequencePoolGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                     Adaptor adaptor,
                                     SmallVectorImpl<Type> &inferred) {
  Value x = adaptor.getX();
  return inferGradTypes(loc,
                        inferSequencePoolType(loc, tensorType(x),
                                              tensorType(adaptor.getLengths())),
                        adaptor.getDout(), x.getType(), inferred);
}

LogicalResult
EmbeddingPoolOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferEmbeddingPoolType(loc, tableType(adaptor.getTable()),
                                             tensorType(adaptor.getIds()),
                                             tensorType(adaptor.getLengths()),
                                             adaptor.getPaddingIdx()),
                      inferred);
}

LogicalResult EmbeddingPoolGradOp::verify() {
  RankedTensorType table = getDenseType(getDtable().getType());
  return verifyTableGradient(
      *this,
      inferEmbeddingPoolType(getLoc(), table, getIds().getType(),
                             getLengths().getType(), getPaddingIdx()),
      table, getDout());
}
