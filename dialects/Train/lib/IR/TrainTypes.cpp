//===- TrainTypes.cpp - Train dialect types -------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainTypes.h"

#include "openks/Dialect/Train/IR/TrainDialect.h"
#include "openks/Support/Limits.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks::train;

#define GET_TYPEDEF_CLASSES
#include "openks/Dialect/Train/IR/TrainTypes.cpp.inc"

LogicalResult RowsType::verify(function_ref<InFlightDiagnostic()> emitError,
                               RankedTensorType tableType) {
  if (!tableType || !tableType.hasStaticShape() || tableType.getRank() < 1)
    return emitError() << "row-sparse values stand for a table of static "
                          "shape and rank at least 1, got "
                       << tableType;
  if (tableType.getRank() > openks::kMaxTensorRank)
    return emitError() << "table type " << tableType << " has rank above "
                       << openks::kMaxTensorRank;
  if (!isa<Float32Type, Float64Type>(tableType.getElementType()))
    return emitError() << "row-sparse values hold f32 or f64 rows, got "
                       << tableType;
  return success();
}

RankedTensorType openks::train::getDenseType(Type type) {
  if (auto rows = dyn_cast<RowsType>(type))
    return rows.getTableType();
  return dyn_cast<RankedTensorType>(type);
}

void TrainDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "openks/Dialect/Train/IR/TrainTypes.cpp.inc"
      >();
}
