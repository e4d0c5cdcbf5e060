//===- PaddleAttrs.h - Paddle dialect attributes ----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The enums of Paddle's ProgramDesc format, its tensor descriptions and
// slots, and the attribute kinds that hold Paddle op attribute values.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PADDLE_IR_PADDLEATTRS_H
#define OPENKS_DIALECT_PADDLE_IR_PADDLEATTRS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/DialectImplementation.h"

#include "openks/Dialect/Paddle/IR/PaddleEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "openks/Dialect/Paddle/IR/PaddleAttrs.h.inc"

namespace openks::paddle {

/// Returns the Paddle type tag of an op attribute value, or nothing if
/// `value` is not one: i32 and i64 integers are INT and LONG, f32 and f64
/// floats FLOAT and FLOAT64, a bool BOOLEAN, a string STRING, dense i32,
/// i64, f32, f64 and i1 arrays INTS, LONGS, FLOATS, FLOAT64S and BOOLEANS,
/// an array of strings STRINGS, and the `paddle` reference attributes
/// BLOCK, BLOCKS, VAR, VARS, SCALAR and SCALARS.
std::optional<AttrType> getAttrType(mlir::Attribute value);

/// Returns whether `value` is what a Paddle Scalar holds: a bool, an i64
/// integer, an f64 float, or a two-element f64 array (a complex number).
bool isScalarValue(mlir::Attribute value);

} // namespace openks::paddle

#endif // OPENKS_DIALECT_PADDLE_IR_PADDLEATTRS_H
