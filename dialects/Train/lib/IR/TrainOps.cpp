//===- TrainOps.cpp - Train dialect ops -----------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "TrainOpInference.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"

using namespace mlir;
using namespace openks::train;
using namespace openks::train::detail;

//===----------------------------------------------------------------------===//
// Program structure
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state,
                      StringRef name) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addRegion()->emplaceBlock();
}

/// Returns an optional float attribute's value as a double.
static std::optional<double> toOptionalDouble(std::optional<APFloat> value) {
  if (!value)
    return std::nullopt;
  return value->convertToDouble();
}

/// Checks a parameter's own update settings (Paddle's ParamAttr): only a
/// trainable parameter has them; the learning-rate scale and the decays are
/// non-negative; there is at most one regularizer and one clip; a clip by
/// value has ordered bounds, a clip by norm a positive norm.
static LogicalResult verifyUpdateSettings(ParamOp op) {
  std::optional<double> lrScale = toOptionalDouble(op.getLrScale());
  std::optional<double> l1 = toOptionalDouble(op.getL1Decay());
  std::optional<double> l2 = toOptionalDouble(op.getL2Decay());
  std::optional<double> clipMin = toOptionalDouble(op.getClipMin());
  std::optional<double> clipMax = toOptionalDouble(op.getClipMax());
  std::optional<double> clipNorm = toOptionalDouble(op.getClipNorm());
  if (!op.isTrainable() &&
      (lrScale || l1 || l2 || clipMin || clipMax || clipNorm))
    return op.emitOpError("is frozen, so no optimizer applies its update "
                          "settings (lr_scale, l1_decay, l2_decay, clip_min, "
                          "clip_max, clip_norm)");
  for (auto [name, value] :
       {std::pair("lr_scale", lrScale), std::pair("l1_decay", l1),
        std::pair("l2_decay", l2)})
    if (value && *value < 0)
      return op.emitOpError()
             << name << " must be non-negative, got " << *value;
  if (l1 && l2)
    return op.emitOpError("has one regularizer: l1_decay or l2_decay, not "
                          "both");
  if (clipNorm && (clipMin || clipMax))
    return op.emitOpError("clips its gradient by value (clip_min, clip_max) "
                          "or by norm (clip_norm), not both");
  if (clipNorm && *clipNorm <= 0)
    return op.emitOpError("clip_norm must be positive, got ") << *clipNorm;
  if (clipMin && !clipMax)
    return op.emitOpError("clip_min needs clip_max");
  if (clipMax && !clipMin && *clipMax <= 0)
    return op.emitOpError("clip_max must be positive when clip_min, which "
                          "defaults to -clip_max, is not given; got ")
           << *clipMax;
  if (clipMin && *clipMin > *clipMax)
    return op.emitOpError("clip_min must not exceed clip_max, got [")
           << *clipMin << ", " << *clipMax << "]";
  return success();
}

LogicalResult ParamOp::verify() {
  if (failed(verifyParameterDeclaration(*this, getParameterType(),
                                        getInitializer(), isTrainable())))
    return failure();
  if (failed(verifyUpdateSettings(*this)))
    return failure();
  if (getSparse() && (!isTrainable() || getParameterType().getRank() < 1))
    return emitOpError("is sparse, which only a trainable table (a parameter "
                       "of rank 1 or more) can be");
  return success();
}

void StepOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   FunctionType type) {
  state.addAttribute(getSymNameAttrName(state.name),
                     builder.getStringAttr(name));
  state.addAttribute(getFunctionTypeAttrName(state.name), TypeAttr::get(type));
  Block &body = state.addRegion()->emplaceBlock();
  for (Type input : type.getInputs())
    body.addArgument(input, state.location);
}

ParseResult StepOp::parse(OpAsmParser &parser, OperationState &result) {
  auto buildType = [](Builder &builder, ArrayRef<Type> inputs,
                      ArrayRef<Type> results,
                      function_interface_impl::VariadicFlag, std::string &) {
    return builder.getFunctionType(inputs, results);
  };
  return function_interface_impl::parseFunctionOp(
      parser, result, /*allowVariadic=*/false,
      getFunctionTypeAttrName(result.name), buildType,
      getArgAttrsAttrName(result.name), getResAttrsAttrName(result.name));
}

void StepOp::print(OpAsmPrinter &printer) {
  function_interface_impl::printFunctionOp(
      printer, *this, /*isVariadic=*/false, getFunctionTypeAttrName(),
      getArgAttrsAttrName(), getResAttrsAttrName());
}

LogicalResult StepOp::verify() {
  for (auto [index, type] : llvm::enumerate(getArgumentTypes()))
    if (!isa<RankedTensorType>(type))
      return emitOpErrorAt(*this) << "fed input #" << index
                                  << " must be a ranked tensor, got " << type;
  for (auto [index, type] : llvm::enumerate(getResultTypes()))
    if (!isa<RankedTensorType>(type))
      return emitOpErrorAt(*this) << "fetched result #" << index
                                  << " must be a ranked tensor, got " << type;
  return success();
}

LogicalResult YieldOp::verify() {
  ArrayRef<Type> expected = (*this)->getParentOfType<StepOp>().getResultTypes();
  if (getResults().size() != expected.size())
    return emitOpError("yields ")
           << getResults().size() << " values, but the step has "
           << expected.size() << " results";
  for (auto [index, value, type] : llvm::enumerate(getResults(), expected))
    if (value.getType() != type)
      return emitOpError("operand #")
             << index << " has type " << value.getType()
             << ", but the step result has type " << type;
  return success();
}

/// Checks that a value read from or written to parameter `name` has its type.
static LogicalResult verifyParameterAccess(Operation *op,
                                           FlatSymbolRefAttr name, Type type,
                                           SymbolTableCollection &symbolTable) {
  FailureOr<ParameterOpInterface> param =
      lookupParameter(op, name, symbolTable);
  if (failed(param))
    return failure();
  if (param->getParameterType() != type)
    return op->emitOpError("value type ")
           << type << " does not match parameter " << name << " of type "
           << param->getParameterType();
  return success();
}

LogicalResult ReadOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyParameterAccess(*this, getParamAttr(), getValue().getType(),
                               symbolTable);
}

LogicalResult WriteOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyParameterAccess(*this, getParamAttr(), getValue().getType(),
                               symbolTable);
}

//===----------------------------------------------------------------------===//
// Forward ops
//===----------------------------------------------------------------------===//

LogicalResult FillOp::verify() {
  return verifyRepresentable(getValue().convertToDouble(),
                             getOut().getType().getElementType(),
                             [&] { return emitOpError(); });
}

LogicalResult SoftmaxOp::verify() {
  return verifyHasLastDim(getLoc(), getX().getType());
}

LogicalResult MatmulOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferMatmulType(loc, tensorType(adaptor.getA()),
                                      tensorType(adaptor.getB())),
                      inferred);
}

/// Infers the result type of a broadcasting binary op (add, sub, mul, div),
/// whose inferReturnTypes TrainOps.td generates.
static LogicalResult
inferBroadcastBinaryTypes(OptionalLoc loc, Value x, Value y,
                          SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferBroadcastBiasType(loc, tensorType(x), tensorType(y)),
                      inferred);
}

LogicalResult
SoftmaxCrossEntropyOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return pushInferred(
      inferSoftmaxCrossEntropyType(loc, tensorType(adaptor.getLogits()),
                                   tensorType(adaptor.getLabels())),
      inferred);
}

LogicalResult
SigmoidCrossEntropyOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  return pushInferred(
      inferSigmoidCrossEntropyType(loc, tensorType(adaptor.getLogits()),
                                   tensorType(adaptor.getLabels())),
      inferred);
}

LogicalResult MeanOp::inferReturnTypes(MLIRContext *, OptionalLoc,
                                       Adaptor adaptor,
                                       SmallVectorImpl<Type> &inferred) {
  inferred.push_back(
      RankedTensorType::get({}, tensorType(adaptor.getX()).getElementType()));
  return success();
}

LogicalResult ReduceSumOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferReduceSumType(loc, tensorType(adaptor.getX()),
                                         adaptor.getDims(),
                                         adaptor.getKeepDims()),
                      inferred);
}

LogicalResult ReshapeOp::verify() {
  return verifyReshape(getLoc(), getX().getType(), getOut().getType());
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  return pushInferred(
      inferConcatType(loc, adaptor.getInputs().getTypes(), adaptor.getAxis()),
      inferred);
}

LogicalResult EmbeddingOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  return pushInferred(inferEmbeddingType(loc, tableType(adaptor.getTable()),
                                         tensorType(adaptor.getIds()),
                                         adaptor.getPaddingIdx()),
                      inferred);
}

//===----------------------------------------------------------------------===//
// Gradient ops
//===----------------------------------------------------------------------===//

LogicalResult MatmulGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  Value a = adaptor.getA(), b = adaptor.getB();
  return inferGradTypes(loc, inferMatmulType(loc, tensorType(a), tensorType(b)),
                        adaptor.getDout(), {a.getType(), b.getType()},
                        inferred);
}

/// Infers the result types of the grad op of a broadcasting binary op, whose
/// inferReturnTypes TrainOps.td generates.
static LogicalResult
inferBroadcastBinaryGradTypes(OptionalLoc loc, Value x, Value y, Value dout,
                              SmallVectorImpl<Type> &inferred) {
  return inferGradTypes(
      loc, inferBroadcastBiasType(loc, tensorType(x), tensorType(y)), dout,
      {x.getType(), y.getType()}, inferred);
}

LogicalResult SoftmaxGradOp::verify() {
  return verifyHasLastDim(getLoc(), getOut().getType());
}

LogicalResult
SoftmaxCrossEntropyGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  Value logits = adaptor.getLogits();
  return inferGradTypes(
      loc,
      inferSoftmaxCrossEntropyType(loc, tensorType(logits),
                                   tensorType(adaptor.getLabels())),
      adaptor.getDloss(), logits.getType(), inferred);
}

LogicalResult
SigmoidCrossEntropyGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                            Adaptor adaptor,
                                            SmallVectorImpl<Type> &inferred) {
  Value logits = adaptor.getLogits();
  return inferGradTypes(
      loc,
      inferSigmoidCrossEntropyType(loc, tensorType(logits),
                                   tensorType(adaptor.getLabels())),
      adaptor.getDloss(), logits.getType(), inferred);
}

LogicalResult MeanGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  Value x = adaptor.getX();
  return inferGradTypes(
      loc, RankedTensorType::get({}, tensorType(x).getElementType()),
      adaptor.getDout(), x.getType(), inferred);
}

LogicalResult
ReduceSumGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                  Adaptor adaptor,
                                  SmallVectorImpl<Type> &inferred) {
  Value x = adaptor.getX();
  return inferGradTypes(loc,
                        inferReduceSumType(loc, tensorType(x),
                                           adaptor.getDims(),
                                           adaptor.getKeepDims()),
                        adaptor.getDout(), x.getType(), inferred);
}

LogicalResult ReshapeGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                              Adaptor adaptor,
                                              SmallVectorImpl<Type> &inferred) {
  RankedTensorType x = tensorType(adaptor.getX());
  RankedTensorType dout = tensorType(adaptor.getDout());
  if (x.getElementType() != dout.getElementType())
    return emitOptionalError(loc, "operand element types differ: ",
                             x.getElementType(), " vs ", dout.getElementType());
  if (failed(verifyReshape(loc, x, dout)))
    return failure();
  inferred.push_back(x);
  return success();
}

LogicalResult ConcatGradOp::inferReturnTypes(MLIRContext *, OptionalLoc loc,
                                             Adaptor adaptor,
                                             SmallVectorImpl<Type> &inferred) {
  TypeRange inputs = adaptor.getInputs().getTypes();
  return inferGradTypes(loc, inferConcatType(loc, inputs, adaptor.getAxis()),
                        adaptor.getDout(), inputs, inferred);
}

LogicalResult EmbeddingGradOp::verify() {
  RankedTensorType table = getDenseType(getDtable().getType());
  return verifyTableGradient(
      *this,
      inferEmbeddingType(getLoc(), table, getIds().getType(), getPaddingIdx()),
      table, getDout());
}

LogicalResult RowsToDenseOp::verify() {
  if (getRows().getType().getTableType() != getOut().getType())
    return emitOpError("result type ")
           << getOut().getType() << " is not the table type of "
           << getRows().getType();
  return success();
}

LogicalResult ChangedRowsOp::verify() {
  if (getOut().getType().getTableType() != getLhs().getType())
    return emitOpError("result type ")
           << getOut().getType() << " is not the rows of "
           << getLhs().getType();
  return success();
}

LogicalResult
ScatterRowsOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  return verifyParameterAccess(*this, getParamAttr(),
                               getRows().getType().getTableType(), symbolTable);
}

#define GET_OP_CLASSES
#include "openks/Dialect/Train/IR/TrainOps.cpp.inc"
