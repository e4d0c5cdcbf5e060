//===- PaddleAttrs.cpp - Paddle dialect attributes ------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleAttrs.h"
#include "openks/Dialect/Paddle/IR/PaddleDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks::paddle;

#define GET_ATTRDEF_CLASSES
#include "openks/Dialect/Paddle/IR/PaddleAttrs.cpp.inc"

//===----------------------------------------------------------------------===//
// Attribute values
//===----------------------------------------------------------------------===//

/// Returns whether every element of `array` is a string.
static bool allStrings(ArrayAttr array) {
  return llvm::all_of(array, [](Attribute a) { return isa<StringAttr>(a); });
}

bool openks::paddle::isScalarValue(Attribute value) {
  if (isa<BoolAttr>(value))
    return true;
  if (auto integer = dyn_cast<IntegerAttr>(value))
    return integer.getType().isSignlessInteger(64);
  if (auto real = dyn_cast<FloatAttr>(value))
    return real.getType().isF64();
  if (auto complex = dyn_cast<DenseF64ArrayAttr>(value))
    return complex.size() == 2;
  return false;
}

std::optional<AttrType> openks::paddle::getAttrType(Attribute value) {
  // BoolAttr is an IntegerAttr of i1, so it goes first.
  if (isa<BoolAttr>(value))
    return AttrType::Boolean;
  if (auto integer = dyn_cast<IntegerAttr>(value)) {
    if (integer.getType().isSignlessInteger(32))
      return AttrType::Int;
    if (integer.getType().isSignlessInteger(64))
      return AttrType::Long;
    return std::nullopt;
  }
  if (auto real = dyn_cast<FloatAttr>(value)) {
    if (real.getType().isF32())
      return AttrType::Float;
    if (real.getType().isF64())
      return AttrType::Float64;
    return std::nullopt;
  }
  if (auto strings = dyn_cast<ArrayAttr>(value))
    return allStrings(strings) ? std::optional(AttrType::Strings)
                               : std::nullopt;
  return TypeSwitch<Attribute, std::optional<AttrType>>(value)
      .Case([](StringAttr) { return AttrType::String; })
      .Case([](DenseI32ArrayAttr) { return AttrType::Ints; })
      .Case([](DenseI64ArrayAttr) { return AttrType::Longs; })
      .Case([](DenseF32ArrayAttr) { return AttrType::Floats; })
      .Case([](DenseF64ArrayAttr) { return AttrType::Float64s; })
      .Case([](DenseBoolArrayAttr) { return AttrType::Booleans; })
      .Case([](BlockRefAttr) { return AttrType::Block; })
      .Case([](BlockRefsAttr) { return AttrType::Blocks; })
      .Case([](VarRefAttr) { return AttrType::Var; })
      .Case([](VarRefsAttr) { return AttrType::Vars; })
      .Case([](ScalarAttr) { return AttrType::Scalar; })
      .Case([](ScalarsAttr) { return AttrType::Scalars; })
      .Default([](Attribute) { return std::nullopt; });
}

//===----------------------------------------------------------------------===//
// TensorDescAttr
//===----------------------------------------------------------------------===//

/// Parses `[a, b, ...]` (possibly empty) into `values`.
template <typename IntT>
static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<IntT> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, [&] {
    IntT value;
    if (parser.parseInteger(value))
      return failure();
    values.push_back(value);
    return success();
  });
}

template <typename IntT>
static void printIntList(AsmPrinter &printer, ArrayRef<IntT> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

Attribute TensorDescAttr::parse(AsmParser &parser, Type) {
  if (parser.parseLess())
    return {};
  return parseBody(parser);
}

Attribute TensorDescAttr::parseBody(AsmParser &parser) {
  StringRef keyword;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&keyword))
    return {};
  std::optional<VarTypeKind> dataType = symbolizeVarTypeKind(keyword);
  if (!dataType) {
    parser.emitError(loc, "unknown Paddle data type '") << keyword << "'";
    return {};
  }
  SmallVector<int64_t> dims;
  if (parseIntList(parser, dims))
    return {};
  std::optional<int32_t> lodLevel;
  if (succeeded(parser.parseOptionalComma())) {
    int32_t level;
    if (parser.parseKeyword("lod_level") || parser.parseEqual() ||
        parser.parseInteger(level))
      return {};
    lodLevel = level;
  }
  if (parser.parseGreater())
    return {};
  return TensorDescAttr::get(parser.getContext(), *dataType, dims, lodLevel);
}

void TensorDescAttr::print(AsmPrinter &printer) const {
  printer << '<' << stringifyVarTypeKind(getDataType()) << ' ';
  printIntList(printer, getDims());
  if (std::optional<int32_t> lodLevel = getLodLevel())
    printer << ", lod_level = " << *lodLevel;
  printer << '>';
}

//===----------------------------------------------------------------------===//
// Reference attributes
//===----------------------------------------------------------------------===//

Attribute BlockRefsAttr::parse(AsmParser &parser, Type) {
  SmallVector<int32_t> indices;
  if (parser.parseLess() || parseIntList(parser, indices) ||
      parser.parseGreater())
    return {};
  return BlockRefsAttr::get(parser.getContext(), indices);
}

void BlockRefsAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printIntList(printer, getIndices());
  printer << '>';
}

LogicalResult SlotAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                               StringAttr parameter, ArrayAttr arguments) {
  if (!allStrings(arguments))
    return emitError() << "slot '" << parameter.getValue()
                       << "' binds something other than variable names";
  return success();
}

LogicalResult VarRefsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayAttr names) {
  if (!allStrings(names))
    return emitError() << "#paddle.vars holds something other than names";
  return success();
}

LogicalResult ScalarAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 Attribute value) {
  if (!isScalarValue(value))
    return emitError() << "a Paddle scalar is a bool, an i64, an f64 or an "
                          "array<f64: re, im>, got "
                       << value;
  return success();
}

LogicalResult ScalarsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayAttr values) {
  for (Attribute value : values)
    if (failed(ScalarAttr::verify(emitError, value)))
      return failure();
  return success();
}

void PaddleDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "openks/Dialect/Paddle/IR/PaddleAttrs.cpp.inc"
      >();
}
