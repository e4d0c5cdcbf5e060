//===- TrainOpInference.h - Result types of train ops -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to dialects/Train/lib/IR: the glue between the shape rules of
// TrainTypeInference.h and the inferReturnTypes and verifiers of the ops,
// shared by the files that define them.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECTS_TRAIN_LIB_IR_TRAINOPINFERENCE_H
#define OPENKS_DIALECTS_TRAIN_LIB_IR_TRAINOPINFERENCE_H

#include "openks/Dialect/Train/IR/TrainTypeInference.h"
#include "openks/Dialect/Train/IR/TrainTypes.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

namespace openks::train::detail {

/// Returns operand `value`'s ranked tensor type (guaranteed by ODS).
inline mlir::RankedTensorType tensorType(mlir::Value value) {
  return llvm::cast<mlir::RankedTensorType>(value.getType());
}

/// Returns the tensor type of a lookup's table operand `value`: a tensor, or
/// the table a row-sparse value holds rows of (guaranteed by ODS).
inline mlir::RankedTensorType tableType(mlir::Value value) {
  return getDenseType(value.getType());
}

/// Appends an inferred type, or fails.
inline llvm::LogicalResult
pushInferred(mlir::FailureOr<mlir::RankedTensorType> type,
             llvm::SmallVectorImpl<mlir::Type> &inferred) {
  if (mlir::failed(type))
    return mlir::failure();
  inferred.push_back(*type);
  return mlir::success();
}

/// Checks the incoming gradient against the forward result type `forward`
/// and, on success, infers `resultTypes` (the types of the forward inputs).
inline llvm::LogicalResult
inferGradTypes(OptionalLoc loc, mlir::FailureOr<mlir::RankedTensorType> forward,
               mlir::Value dout, mlir::TypeRange resultTypes,
               llvm::SmallVectorImpl<mlir::Type> &inferred) {
  if (mlir::failed(forward) ||
      mlir::failed(verifyGradientType(loc, dout.getType(), *forward)))
    return mlir::failure();
  llvm::append_range(inferred, resultTypes);
  return mlir::success();
}

/// Checks the table gradient of an embedding or an embedding_pool, dense or
/// row-sparse, whose forward result type `forward` was inferred from the
/// table type `dtable`: it has a static shape and `dout` matches `forward`.
inline llvm::LogicalResult
verifyTableGradient(mlir::Operation *op,
                    mlir::FailureOr<mlir::RankedTensorType> forward,
                    mlir::RankedTensorType dtable, mlir::Value dout) {
  if (mlir::failed(forward))
    return mlir::failure();
  if (!dtable.hasStaticShape())
    return op->emitOpError("table gradient must have a static shape, got ")
           << dtable;
  return verifyGradientType(op->getLoc(), dout.getType(), *forward);
}

} // namespace openks::train::detail

#endif // OPENKS_DIALECTS_TRAIN_LIB_IR_TRAINOPINFERENCE_H
