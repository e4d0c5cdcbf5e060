//===- TrainInterfaces.cpp - Train dialect op interfaces ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainInterfaces.h"
#include "openks/Dialect/Train/IR/TrainTypes.h"
#include "openks/Support/Limits.h"

#include <cmath>

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallPtrSet.h"

using namespace mlir;
using namespace openks::train;

#include "openks/Dialect/Train/IR/TrainOpInterfaces.cpp.inc"

FailureOr<ParameterOpInterface>
openks::train::lookupParameter(Operation *user, FlatSymbolRefAttr name,
                               SymbolTableCollection &symbolTable) {
  Operation *symbol = symbolTable.lookupNearestSymbolFrom(user, name);
  if (auto param = dyn_cast_or_null<ParameterOpInterface>(symbol))
    return param;
  if (!symbol)
    return user->emitOpError("refers to ")
           << name << ", which is not defined in an enclosing symbol table";
  return user->emitOpError("refers to ")
         << name << ", which is a '" << symbol->getName()
         << "', not a parameter";
}

LogicalResult
openks::train::verifyParameterDeclaration(Operation *op, RankedTensorType type,
                                          InitializerAttrInterface initializer,
                                          bool trainable) {
  if (!type.hasStaticShape())
    return op->emitOpError("parameter type must have a static shape, got ")
           << type;
  if (failed(verifyTensorBounds(
          type, [&] { return op->emitOpError("parameter type "); })))
    return failure();
  Type element = type.getElementType();
  if (!element.isF32() && !element.isF64() && !element.isInteger(64))
    return op->emitOpError(
               "parameter element type must be f32, f64 or i64, got ")
           << element;
  if (trainable && !isa<FloatType>(element))
    return op->emitOpError(
        "an integer parameter must be frozen: it has no gradient");
  return initializer.verifyFor(type, [&] { return op->emitOpError(); });
}

InFlightDiagnostic openks::train::emitOpErrorAt(Operation *op) {
  return mlir::emitError(op->getLoc()) << "'" << op->getName() << "' op ";
}

LogicalResult openks::train::verifyTensorBounds(
    Type type, function_ref<InFlightDiagnostic()> emitError) {
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor)
    return success();
  if (tensor.getRank() > kMaxTensorRank)
    return emitError() << type << " has rank " << tensor.getRank()
                       << "; tensors have at most " << kMaxTensorRank
                       << " dimensions";
  SmallVector<int64_t> staticDims;
  for (int64_t dim : tensor.getShape()) {
    if (ShapedType::isDynamic(dim))
      continue;
    if (dim < 1)
      return emitError() << type << " has a dimension of size " << dim
                         << "; every dimension must be at least 1";
    staticDims.push_back(dim);
  }
  if (!boundedProduct(staticDims))
    return emitError() << type << " has more than " << kMaxTensorElements
                       << " elements (2^40)";
  return success();
}

LogicalResult openks::train::detail::verifyBoundedTensors(Operation *op) {
  auto check = [&](Type type, StringRef what, unsigned index) {
    return verifyTensorBounds(type, [&] {
      return op->emitOpError() << what << " #" << index << " of type ";
    });
  };
  for (auto [index, type] : llvm::enumerate(op->getOperandTypes()))
    if (failed(check(type, "operand", index)))
      return failure();
  for (auto [index, type] : llvm::enumerate(op->getResultTypes()))
    if (failed(check(type, "result", index)))
      return failure();
  for (Region &region : op->getRegions())
    if (!region.empty())
      for (BlockArgument argument : region.front().getArguments())
        if (failed(check(argument.getType(), "region argument",
                         argument.getArgNumber())))
          return failure();
  return success();
}

LogicalResult openks::train::detail::verifyFiniteFloatAttrs(Operation *op) {
  auto check = [&](StringAttr name, Attribute value) -> LogicalResult {
    auto report = [&](double number) {
      return op->emitOpError("attribute '")
             << name.getValue() << "' must be finite, got "
             << (std::isnan(number) ? "nan"
                 : number > 0       ? "inf"
                                    : "-inf");
    };
    if (auto number = dyn_cast<FloatAttr>(value)) {
      if (!number.getValue().isFinite())
        return report(number.getValueAsDouble());
    } else if (auto array = dyn_cast<DenseF64ArrayAttr>(value)) {
      for (double number : array.asArrayRef())
        if (!std::isfinite(number))
          return report(number);
    }
    return success();
  };
  // Inherent attributes one by one: getAttrs() would build a dictionary of
  // the op's properties for every op verified.
  for (StringAttr name : op->getName().getAttributeNames())
    if (std::optional<Attribute> value = op->getInherentAttr(name);
        value && *value && failed(check(name, *value)))
      return failure();
  for (NamedAttribute attribute : op->getDiscardableAttrs())
    if (failed(check(attribute.getName(), attribute.getValue())))
      return failure();
  return success();
}

LogicalResult openks::train::detail::verifyOptimizerOp(Operation *op) {
  auto optimizer = cast<OptimizerOpInterface>(op);
  Type gradElement =
      getDenseType(optimizer.getGrad().getType()).getElementType();
  Type lrElement = getElementTypeOrSelf(optimizer.getLr().getType());
  if (gradElement != lrElement)
    return op->emitOpError("learning rate element type ")
           << lrElement << " does not match gradient element type "
           << gradElement;
  return success();
}

/// Checks one state parameter of an optimizer: it exists, is frozen and has
/// the expected type.
static LogicalResult verifyStateParameter(OptimizerOpInterface op,
                                          FlatSymbolRefAttr name,
                                          RankedTensorType expected,
                                          SymbolTableCollection &symbolTable) {
  FailureOr<ParameterOpInterface> state =
      lookupParameter(op, name, symbolTable);
  if (failed(state))
    return failure();
  if (state->isTrainable())
    return op->emitOpError("state parameter ")
           << name << " must be frozen, or autodiff would train it";
  if (state->getParameterType() != expected)
    return op->emitOpError("state parameter ")
           << name << " has type " << state->getParameterType() << ", expected "
           << expected;
  return success();
}

LogicalResult
openks::train::verifyOptimizerSymbolUses(OptimizerOpInterface op,
                                         SymbolTableCollection &symbolTable) {
  FlatSymbolRefAttr paramName = op.getParamAttr();
  FailureOr<ParameterOpInterface> param =
      lookupParameter(op, paramName, symbolTable);
  if (failed(param))
    return failure();
  if (!param->isTrainable())
    return op->emitOpError("cannot update frozen parameter ") << paramName;
  RankedTensorType paramType = param->getParameterType();
  if (getDenseType(op.getGrad().getType()) != paramType)
    return op->emitOpError("gradient type ")
           << op.getGrad().getType() << " does not match parameter "
           << paramName << " of type " << paramType;

  llvm::SmallPtrSet<Attribute, 8> seen = {paramName};
  auto checkDistinct = [&](FlatSymbolRefAttr name) -> LogicalResult {
    if (seen.insert(name).second)
      return success();
    return op->emitOpError() << name << " is used twice by this optimizer";
  };
  for (FlatSymbolRefAttr name : op.getElementwiseState())
    if (failed(checkDistinct(name)) ||
        failed(verifyStateParameter(op, name, paramType, symbolTable)))
      return failure();
  auto scalarType = RankedTensorType::get({}, paramType.getElementType());
  for (FlatSymbolRefAttr name : op.getScalarState())
    if (failed(checkDistinct(name)) ||
        failed(verifyStateParameter(op, name, scalarType, symbolTable)))
      return failure();
  return success();
}
