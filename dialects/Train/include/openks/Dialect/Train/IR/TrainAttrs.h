//===- TrainAttrs.h - Train dialect attributes ------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parameter initializer attributes and the interface they share.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINATTRS_H
#define OPENKS_DIALECT_TRAIN_IR_TRAINATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"

namespace openks::train {

/// Parses an MLIR float literal into a double-precision APFloat (attribute
/// parameter parser).
mlir::FailureOr<llvm::APFloat> parseDoubleParameter(mlir::AsmParser &parser);

/// Checks that `value` is exactly an element of `elementType`'s range: an
/// integer within range for integer types, finite and within range for
/// float types. Reports through `emitError` otherwise.
llvm::LogicalResult
verifyRepresentable(double value, mlir::Type elementType,
                    llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

} // namespace openks::train

#include "openks/Dialect/Train/IR/TrainAttrInterfaces.h.inc"
#include "openks/Dialect/Train/IR/TrainEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "openks/Dialect/Train/IR/TrainAttrs.h.inc"

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINATTRS_H
