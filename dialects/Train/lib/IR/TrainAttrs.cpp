//===- TrainAttrs.cpp - Train dialect attributes --------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainAttrs.h"
#include "openks/Dialect/Train/IR/TrainDialect.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"
#include <cmath>

using namespace mlir;
using namespace openks::train;

FailureOr<APFloat> openks::train::parseDoubleParameter(AsmParser &parser) {
  double value;
  if (failed(parser.parseFloat(value)))
    return failure();
  return APFloat(value);
}

LogicalResult openks::train::verifyRepresentable(
    double value, Type elementType,
    function_ref<InFlightDiagnostic()> emitError) {
  if (auto integer = dyn_cast<IntegerType>(elementType)) {
    if (std::trunc(value) != value)
      return emitError() << "value " << value
                         << " is not an integer, but the element type is "
                         << elementType;
    // Both bounds are powers of two, so exact as doubles.
    double bound = std::ldexp(1.0, integer.getWidth() - 1);
    if (value < -bound || value >= bound)
      return emitError() << "value " << value << " does not fit in "
                         << elementType;
    return success();
  }
  auto floatType = cast<FloatType>(elementType);
  bool losesInfo = false;
  APFloat converted(value);
  converted.convert(floatType.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
  if (converted.isFinite())
    return success();
  return emitError() << "value " << value << " does not fit in " << elementType;
}

/// Random initializers draw floating-point values.
static LogicalResult
verifyFloatParameter(StringRef initializer, RankedTensorType type,
                     function_ref<InFlightDiagnostic()> emitError) {
  if (isa<FloatType>(type.getElementType()))
    return success();
  return emitError() << initializer
                     << " initializer needs a floating-point parameter, got "
                     << type;
}

//===----------------------------------------------------------------------===//
// ConstantInitAttr
//===----------------------------------------------------------------------===//

LogicalResult
ConstantInitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         APFloat value) {
  if (value.isFinite())
    return success();
  return emitError() << "constant initializer value must be finite";
}

LogicalResult ConstantInitAttr::verifyFor(
    RankedTensorType type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyRepresentable(getValue().convertToDouble(),
                             type.getElementType(), emitError);
}

//===----------------------------------------------------------------------===//
// UniformInitAttr
//===----------------------------------------------------------------------===//

LogicalResult
UniformInitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                        APFloat min, APFloat max, uint64_t) {
  if (min.isFinite() && max.isFinite() &&
      min.compare(max) == APFloat::cmpLessThan)
    return success();
  return emitError() << "uniform initializer needs finite bounds with min < "
                        "max, got ["
                     << min.convertToDouble() << ", " << max.convertToDouble()
                     << ")";
}

LogicalResult
UniformInitAttr::verifyFor(RankedTensorType type,
                           function_ref<InFlightDiagnostic()> emitError) const {
  return verifyFloatParameter("uniform", type, emitError);
}

//===----------------------------------------------------------------------===//
// GaussianInitAttr
//===----------------------------------------------------------------------===//

LogicalResult
GaussianInitAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                         APFloat mean, APFloat std, uint64_t) {
  if (mean.isFinite() && std.isFinite() && !std.isNegative() && !std.isZero())
    return success();
  return emitError() << "gaussian initializer needs a finite mean and a "
                        "positive, finite std";
}

LogicalResult GaussianInitAttr::verifyFor(
    RankedTensorType type, function_ref<InFlightDiagnostic()> emitError) const {
  return verifyFloatParameter("gaussian", type, emitError);
}

//===----------------------------------------------------------------------===//
// XavierInitAttr
//===----------------------------------------------------------------------===//

LogicalResult
XavierInitAttr::verifyFor(RankedTensorType type,
                          function_ref<InFlightDiagnostic()> emitError) const {
  if (failed(verifyFloatParameter("xavier", type, emitError)))
    return failure();
  if (type.getRank() >= 1)
    return success();
  return emitError() << "xavier initializer needs a parameter of rank >= 1 "
                        "to take fan-in and fan-out from";
}

//===----------------------------------------------------------------------===//
// TableGen'd definitions
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainAttrInterfaces.cpp.inc"
#include "openks/Dialect/Train/IR/TrainEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "openks/Dialect/Train/IR/TrainAttrs.cpp.inc"

void TrainDialect::registerAttributes() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "openks/Dialect/Train/IR/TrainAttrs.cpp.inc"
      >();
}
