//===- TrainTypes.h - Train dialect types -----------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Row-sparse values (`!train.rows`) and the helpers that treat a gradient
// the same whether it is dense or row-sparse.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINTYPES_H
#define OPENKS_DIALECT_TRAIN_IR_TRAINTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectImplementation.h"

#define GET_TYPEDEF_CLASSES
#include "openks/Dialect/Train/IR/TrainTypes.h.inc"

namespace openks::train {

/// Returns the dense tensor type a gradient of type `type` stands for: the
/// table type of a row-sparse value, `type` itself for a ranked tensor, and
/// null for anything else.
mlir::RankedTensorType getDenseType(mlir::Type type);

} // namespace openks::train

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINTYPES_H
