//===- PSOps.cpp - Parameter-server dialect ops ---------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainTypeInference.h"
#include "openks/Support/Endpoint.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace openks;
using namespace openks::ps;

static LogicalResult verifyEndpoint(Operation *op, StringRef endpoint) {
  if (StatusOr<Endpoint> parsed = parseEndpoint(endpoint); !parsed)
    return op->emitOpError(parsed.status().message());
  return success();
}

static LogicalResult verifyVarName(Operation *op, StringRef name) {
  if (!name.empty())
    return success();
  return op->emitOpError("variable name must not be empty");
}

//===----------------------------------------------------------------------===//
// Slicing
//===----------------------------------------------------------------------===//

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  auto input = cast<RankedTensorType>(adaptor.getInput().getType());
  ArrayRef<int64_t> sections = adaptor.getSections();
  if (input.getRank() < 1)
    return emitOptionalError(loc, "cannot split a rank-0 tensor into rows");
  if (sections.empty())
    return emitOptionalError(loc, "needs at least one section");
  int64_t total = 0;
  for (int64_t rows : sections) {
    if (rows <= 0)
      return emitOptionalError(loc, "section sizes must be positive, got ",
                               rows);
    total += rows;
  }
  int64_t inputRows = input.getDimSize(0);
  if (!ShapedType::isDynamic(inputRows) && total != inputRows)
    return emitOptionalError(loc, "sections cover ", total,
                             " rows, but the input has ", inputRows);
  SmallVector<int64_t> shape(input.getShape());
  for (int64_t rows : sections) {
    shape[0] = rows;
    inferred.push_back(RankedTensorType::get(shape, input.getElementType()));
  }
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  FailureOr<RankedTensorType> type =
      train::inferConcatType(loc, adaptor.getInputs().getTypes(), /*axis=*/0);
  if (failed(type))
    return failure();
  inferred.push_back(*type);
  return success();
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

LogicalResult SendOp::verify() {
  if (failed(verifyEndpoint(*this, getEndpoint())))
    return failure();
  return verifyVarName(*this, getVarName());
}

LogicalResult RecvOp::verify() {
  if (failed(verifyEndpoint(*this, getEndpoint())))
    return failure();
  return verifyVarName(*this, getVarName());
}

/// Checks a barrier's endpoint list: non-empty, well formed, distinct.
static LogicalResult verifyBarrierEndpoints(Operation *op,
                                            ArrayAttr endpoints) {
  std::vector<std::string> names;
  for (Attribute endpoint : endpoints)
    names.push_back(cast<StringAttr>(endpoint).str());
  if (auto canonical = canonicalEndpointList(names, "barrier endpoints");
      !canonical)
    return op->emitOpError(canonical.status().message());
  return success();
}

LogicalResult SendBarrierOp::verify() {
  return verifyBarrierEndpoints(*this, getEndpoints());
}

LogicalResult FetchBarrierOp::verify() {
  return verifyBarrierEndpoints(*this, getEndpoints());
}

//===----------------------------------------------------------------------===//
// Role programs
//===----------------------------------------------------------------------===//

LogicalResult ServerOp::verify() {
  if (failed(verifyEndpoint(*this, getEndpoint())))
    return failure();
  if (getFanIn() < 1)
    return emitOpError("fan_in must be at least 1, got ") << getFanIn();
  llvm::DenseSet<Attribute> updated;
  for (Operation &op : getBody().front()) {
    if (auto update = dyn_cast<UpdateOp>(op)) {
      if (!updated.insert(update.getBlockAttr()).second)
        return update.emitOpError("is the second update region of block ")
               << update.getBlockAttr();
      continue;
    }
    if (!isa<BlockOp>(op))
      return op.emitOpError("cannot appear in a server program, which holds "
                            "only 'ps.block' and 'ps.update' ops");
  }
  return success();
}

LogicalResult BlockOp::verify() {
  RankedTensorType type = getParameterType();
  if (!isSlice()) {
    if (getOriginType() || getRowBegin() || getRowEnd())
      return emitOpError("origin type and rows need an origin parameter");
    return train::verifyParameterDeclaration(*this, type, getInitializer(),
                                             isTrainable());
  }
  if (!getOriginType() || !getRowBegin() || !getRowEnd())
    return emitOpError("a slice needs its origin type and its row range");
  auto originType = cast<RankedTensorType>(*getOriginType());
  if (failed(train::verifyParameterDeclaration(
          *this, originType, getInitializer(), isTrainable())))
    return failure();
  if (originType.getRank() < 1 || type.getRank() != originType.getRank() ||
      type.getElementType() != originType.getElementType() ||
      type.getShape().drop_front() != originType.getShape().drop_front())
    return emitOpError("a slice must keep the origin's element type and "
                       "trailing dimensions: ")
           << type << " is not a row block of " << originType;
  int64_t begin = *getRowBegin(), end = *getRowEnd();
  if (begin < 0 || begin >= end || end > originType.getDimSize(0))
    return emitOpError("rows [")
           << begin << ", " << end << ") are not a non-empty range within the "
           << originType.getDimSize(0) << " rows of the origin";
  if (type.getDimSize(0) != end - begin)
    return emitOpError("type ")
           << type << " does not hold rows [" << begin << ", " << end << ")";
  return success();
}

ParseResult UpdateOp::parse(OpAsmParser &parser, OperationState &result) {
  FlatSymbolRefAttr block;
  StringAttr gradName;
  OpAsmParser::Argument argument;
  if (parser.parseAttribute(block, getBlockAttrName(result.name),
                            result.attributes) ||
      parser.parseKeyword("on") ||
      parser.parseAttribute(gradName, getGradNameAttrName(result.name),
                            result.attributes) ||
      parser.parseLParen() ||
      parser.parseArgument(argument, /*allowType=*/true) ||
      parser.parseRParen() ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), {argument});
}

void UpdateOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(getBlockAttr());
  printer << " on ";
  printer.printAttributeWithoutType(getGradNameAttr());
  printer << " (";
  if (getBody().getNumArguments() == 1)
    printer.printRegionArgument(getBody().getArgument(0));
  printer << ')';
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getBlockAttrName(), getGradNameAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult UpdateOp::verify() {
  if (getBody().getNumArguments() != 1 ||
      !isa<RankedTensorType>(getBody().getArgument(0).getType()))
    return emitOpError("region must take exactly one ranked tensor: the "
                       "received value");
  return verifyVarName(*this, getGradName());
}

LogicalResult UpdateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto block =
      symbolTable.lookupNearestSymbolFrom<BlockOp>(*this, getBlockAttr());
  if (!block)
    return emitOpError("refers to ")
           << getBlockAttr() << ", which is not a 'ps.block' of this server";
  Type received = getBody().getArgument(0).getType();
  if (received != block.getParameterType())
    return emitOpError("received value type ")
           << received << " does not match block " << getBlockAttr()
           << " of type " << block.getParameterType();
  return success();
}

#define GET_OP_CLASSES
#include "openks/Dialect/PS/IR/PSOps.cpp.inc"
