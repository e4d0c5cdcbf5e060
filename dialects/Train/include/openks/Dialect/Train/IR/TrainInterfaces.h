//===- TrainInterfaces.h - Train dialect op interfaces ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
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

namespace detail {
/// Checks what an optimizer op can check without symbol lookups.
llvm::LogicalResult verifyOptimizerOp(mlir::Operation *op);
} // namespace detail
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
