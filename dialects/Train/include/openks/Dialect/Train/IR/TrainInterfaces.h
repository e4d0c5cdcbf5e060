//===- TrainInterfaces.h - Train dialect op interfaces ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parameter-like symbols and optimizer ops, shared with the `ps` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAININTERFACES_H
#define OPENKS_DIALECT_TRAIN_IR_TRAININTERFACES_H

#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "openks/Dialect/Train/IR/TrainAttrs.h"

namespace openks::train {
class ParameterOpInterface;

/// Resolves `name`, seen from `user`, to a parameter-like op. Reports a
/// located error on `user` when the symbol is missing or is not a parameter.
mlir::FailureOr<ParameterOpInterface>
lookupParameter(mlir::Operation *user, mlir::FlatSymbolRefAttr name,
                mlir::SymbolTableCollection &symbolTable);

/// Checks a parameter declaration: `type` has a static shape and an f32, f64
/// or i64 element type, integer parameters are frozen, and `initializer` can
/// fill `type`. Errors are reported on `op`.
llvm::LogicalResult
verifyParameterDeclaration(mlir::Operation *op, mlir::RankedTensorType type,
                           InitializerAttrInterface initializer,
                           bool trainable);

/// Starts an error at `op`'s location, worded like Operation::emitOpError
/// ("'train.step' op ..."), but without the note that prints the op: for ops
/// whose body can be megabytes (programs, workers, servers, steps), whose
/// text would bury the message.
mlir::InFlightDiagnostic emitOpErrorAt(mlir::Operation *op);

/// Checks that `type`, when it is a ranked tensor, fits the bounds of
/// openks/Support/Limits.h: rank at most kMaxTensorRank, every static
/// dimension at least 1, at most kMaxTensorElements elements (dynamic
/// dimensions count as one). `emitError` starts the diagnostic, which goes
/// on with the type and what is wrong with it.
llvm::LogicalResult
verifyTensorBounds(mlir::Type type,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

namespace detail {
/// Checks what an optimizer op can check without symbol lookups.
llvm::LogicalResult verifyOptimizerOp(mlir::Operation *op);
/// Checks every operand, result and region argument of `op` with
/// verifyTensorBounds.
llvm::LogicalResult verifyBoundedTensors(mlir::Operation *op);
/// Checks that every float and float-array attribute of `op` is finite.
llvm::LogicalResult verifyFiniteFloatAttrs(mlir::Operation *op);
} // namespace detail

/// Ops whose tensors fit the bounds of openks/Support/Limits.h; every `train`
/// and `ps` op has this trait.
template <typename ConcreteType>
class BoundedTensors
    : public mlir::OpTrait::TraitBase<ConcreteType, BoundedTensors> {
public:
  static llvm::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifyBoundedTensors(op);
  }
};

/// Ops whose float attributes are finite; every `train` and `ps` op has this
/// trait.
template <typename ConcreteType>
class FiniteFloatAttrs
    : public mlir::OpTrait::TraitBase<ConcreteType, FiniteFloatAttrs> {
public:
  static llvm::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifyFiniteFloatAttrs(op);
  }
};
} // namespace openks::train

#include "openks/Dialect/Train/IR/TrainOpInterfaces.h.inc"

namespace openks::train {
/// Checks the symbols of an optimizer op: the parameter is trainable and
/// matches the gradient; each state parameter is frozen, distinct and of the
/// right type.
llvm::LogicalResult
verifyOptimizerSymbolUses(OptimizerOpInterface op,
                          mlir::SymbolTableCollection &symbolTable);
} // namespace openks::train

#endif // OPENKS_DIALECT_TRAIN_IR_TRAININTERFACES_H
