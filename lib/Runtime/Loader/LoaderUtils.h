//===- LoaderUtils.h - Helpers shared by the IR loader ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime/Loader: how MLIR tensor and scalar types map to the
// runtime's dtypes and shapes.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_LOADER_LOADERUTILS_H
#define OPENKS_LIB_RUNTIME_LOADER_LOADERUTILS_H

#include "openks/Runtime/Tensor.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Operation.h"
#include "mlir/IR/TypeUtilities.h"

namespace openks::runtime::loader {

/// Maps the element type of `type` to a runtime dtype; reports on `op` an
/// element type the runtime has no tensors of.
inline mlir::FailureOr<DType> getDType(mlir::Operation *op, mlir::Type type) {
  mlir::Type element = mlir::getElementTypeOrSelf(type);
  if (element.isF32())
    return DType::F32;
  if (element.isF64())
    return DType::F64;
  // An index (tensor.dim's result, tensor.empty's sizes) is an i64.
  if (element.isInteger(64) || element.isIndex())
    return DType::I64;
  return op->emitOpError("the runtime has no tensors of ") << element;
}

/// Returns the runtime shape of a ranked tensor type, with -1 for dynamic
/// dimensions.
inline Shape getShape(mlir::RankedTensorType type) {
  Shape shape;
  for (int64_t size : type.getShape())
    shape.push_back(mlir::ShapedType::isDynamic(size) ? -1 : size);
  return shape;
}

} // namespace openks::runtime::loader

#endif // OPENKS_LIB_RUNTIME_LOADER_LOADERUTILS_H
