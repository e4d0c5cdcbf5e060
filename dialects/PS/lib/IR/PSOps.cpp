//===- PSOps.cpp - Parameter-server dialect ops ---------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSOps.h"
#include "PSJobVerifier.h"
#include "openks/Dialect/PS/IR/PSNaming.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Dialect/Train/IR/TrainTypeInference.h"
#include "openks/Support/Endpoint.h"
#include "openks/Support/Limits.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace openks;
using namespace openks::ps;

/// Checks a server's endpoint; the server's body is not printed with the
/// error.
static LogicalResult verifyEndpoint(Operation *op, StringRef endpoint) {
  if (StatusOr<Endpoint> parsed = parseEndpoint(endpoint); !parsed)
    return train::emitOpErrorAt(op) << parsed.status().message();
  return success();
}

//===----------------------------------------------------------------------===//
// Slicing
//===----------------------------------------------------------------------===//

/// Checks row sections (at least one, each positive) and returns the rows
/// they cover.
static FailureOr<int64_t> getSectionsTotal(std::optional<Location> loc,
                                           ArrayRef<int64_t> sections) {
  if (sections.empty())
    return emitOptionalError(loc, "needs at least one section");
  int64_t total = 0;
  for (int64_t rows : sections) {
    if (rows <= 0)
      return emitOptionalError(loc, "section sizes must be positive, got ",
                               rows);
    std::optional<int64_t> sum = checkedAdd(total, rows);
    if (!sum)
      return emitOptionalError(loc, "sections cover more than ",
                               std::numeric_limits<int64_t>::max(), " rows");
    total = *sum;
  }
  return total;
}

LogicalResult SplitOp::inferReturnTypes(MLIRContext *,
                                        std::optional<Location> loc,
                                        Adaptor adaptor,
                                        SmallVectorImpl<Type> &inferred) {
  // A row-sparse value splits into row-sparse values of its table's
  // sections.
  bool sparse = isa<train::RowsType>(adaptor.getInput().getType());
  RankedTensorType input = train::getDenseType(adaptor.getInput().getType());
  ArrayRef<int64_t> sections = adaptor.getSections();
  if (input.getRank() < 1)
    return emitOptionalError(loc, "cannot split a rank-0 tensor into rows");
  FailureOr<int64_t> total = getSectionsTotal(loc, sections);
  if (failed(total))
    return failure();
  int64_t inputRows = input.getDimSize(0);
  if (!ShapedType::isDynamic(inputRows) && *total != inputRows)
    return emitOptionalError(loc, "sections cover ", *total,
                             " rows, but the input has ", inputRows);
  SmallVector<int64_t> shape(input.getShape());
  for (int64_t sectionRows : sections) {
    shape[0] = sectionRows;
    auto section = RankedTensorType::get(shape, input.getElementType());
    inferred.push_back(sparse ? Type(train::RowsType::get(section)) : section);
  }
  return success();
}

LogicalResult ConcatOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         Adaptor adaptor,
                                         SmallVectorImpl<Type> &inferred) {
  // Row-sparse sections give a row-sparse whole.
  size_t sparse = llvm::count_if(adaptor.getInputs().getTypes(),
                                 llvm::IsaPred<train::RowsType>);
  if (sparse != 0 && sparse != adaptor.getInputs().size())
    return emitOptionalError(loc, "cannot concatenate row-sparse values with "
                                  "tensors");
  SmallVector<Type> sections;
  for (Type type : adaptor.getInputs().getTypes())
    sections.push_back(train::getDenseType(type));
  FailureOr<RankedTensorType> type =
      train::inferConcatType(loc, sections, /*axis=*/0);
  if (failed(type))
    return failure();
  inferred.push_back(sparse ? Type(train::RowsType::get(*type)) : *type);
  return success();
}

LogicalResult RouteIdsOp::inferReturnTypes(MLIRContext *context,
                                           std::optional<Location> loc,
                                           Adaptor adaptor,
                                           SmallVectorImpl<Type> &inferred) {
  if (adaptor.getIds().empty())
    return emitOptionalError(loc, "needs at least one id tensor");
  if (failed(getSectionsTotal(loc, adaptor.getSections())))
    return failure();
  auto ids = RankedTensorType::get({ShapedType::kDynamic},
                                   IntegerType::get(context, 64));
  inferred.append(adaptor.getSections().size(), ids);
  return success();
}

//===----------------------------------------------------------------------===//
// Communication
//===----------------------------------------------------------------------===//

/// Checks that a communication op lies inside a worker program.
static LogicalResult verifyInWorker(Operation *op) {
  if (op->getParentOfType<WorkerOp>())
    return success();
  return op->emitOpError("must be inside a 'ps.worker'");
}

/// Returns the server `name` of the module around `op`, or reports on `op`
/// that there is none.
static FailureOr<ServerOp> lookupServer(Operation *op, FlatSymbolRefAttr name,
                                        SymbolTableCollection &symbolTables) {
  auto module = op->getParentOfType<ModuleOp>();
  auto server =
      module ? symbolTables.lookupSymbolIn<ServerOp>(module, name.getAttr())
             : ServerOp();
  if (!server)
    return op->emitOpError("refers to ")
           << name << ", which is not a 'ps.server' of the module";
  return server;
}

/// Returns the block `@server::@block` that `ref` names, after checking that
/// it has the type `type`, or reports on `op` what is wrong.
static FailureOr<BlockOp> lookupBlock(Operation *op, SymbolRefAttr ref,
                                      Type type,
                                      SymbolTableCollection &symbolTables) {
  if (ref.getNestedReferences().size() != 1)
    return op->emitOpError("must name a server and a block, as "
                           "@server::@block, got ")
           << ref;
  FailureOr<ServerOp> server = lookupServer(
      op, FlatSymbolRefAttr::get(ref.getRootReference()), symbolTables);
  if (failed(server))
    return failure();
  FlatSymbolRefAttr name = ref.getNestedReferences().front();
  auto block = symbolTables.lookupSymbolIn<BlockOp>(*server, name.getAttr());
  if (!block)
    return op->emitOpError("refers to ")
           << ref << ", but server @" << server->getSymName()
           << " holds no block " << name;
  if (block.getParameterType() != train::getDenseType(type))
    return op->emitOpError("has type ")
           << type << ", but block " << ref << " has type "
           << block.getParameterType();
  return block;
}

LogicalResult SendOp::verify() {
  if (getKind() == MessageKind::Param)
    return emitOpError("sends gradients and deltas; a worker receives "
                       "parameters with 'ps.recv'");
  return verifyInWorker(*this);
}

LogicalResult SendOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  return lookupBlock(*this, getTarget(), getValue().getType(), symbolTables);
}

LogicalResult PrefetchOp::verify() { return verifyInWorker(*this); }

LogicalResult
PrefetchOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  return lookupBlock(*this, getSource(), getValue().getType(), symbolTables);
}

LogicalResult RecvOp::verify() { return verifyInWorker(*this); }

LogicalResult RecvOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  return lookupBlock(*this, getSource(), getValue().getType(), symbolTables);
}

/// Checks a barrier's server list: non-empty, each server once.
static LogicalResult verifyBarrier(Operation *op, ArrayAttr servers) {
  if (servers.empty())
    return op->emitOpError("must list at least one server");
  llvm::DenseSet<Attribute> seen;
  for (Attribute server : servers)
    if (!seen.insert(server).second)
      return op->emitOpError("lists ") << server << " twice";
  return verifyInWorker(op);
}

/// Checks that every server a barrier lists exists.
static LogicalResult verifyBarrierServers(Operation *op, ArrayAttr servers,
                                          SymbolTableCollection &tables) {
  for (auto server : servers.getAsRange<FlatSymbolRefAttr>())
    if (failed(lookupServer(op, server, tables)))
      return failure();
  return success();
}

LogicalResult SendBarrierOp::verify() {
  return verifyBarrier(*this, getServers());
}

LogicalResult
SendBarrierOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  return verifyBarrierServers(*this, getServers(), symbolTables);
}

LogicalResult FetchBarrierOp::verify() {
  return verifyBarrier(*this, getServers());
}

LogicalResult
FetchBarrierOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  return verifyBarrierServers(*this, getServers(), symbolTables);
}

//===----------------------------------------------------------------------===//
// Norms across servers
//===----------------------------------------------------------------------===//

LogicalResult ReduceNormOp::verify() {
  return verifyBarrier(*this, getServers());
}

LogicalResult
ReduceNormOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  for (auto name : getServers().getAsRange<FlatSymbolRefAttr>()) {
    FailureOr<ServerOp> server = lookupServer(*this, name, symbolTables);
    if (failed(server))
      return failure();
    if (!symbolTables.lookupSymbolIn<NormOp>(*server, getNormAttr().getAttr()))
      return emitOpError("lists ")
             << name << ", which declares no 'ps.norm' " << getNormAttr();
  }
  return success();
}

LogicalResult ClipByGlobalNormOp::verify() {
  if (getMaxNorm().convertToDouble() <= 0)
    return emitOpError("max_norm must be positive, got ")
           << getMaxNorm().convertToDouble();
  return success();
}

LogicalResult
ClipByGlobalNormOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  auto server = (*this)->getParentOfType<ServerOp>();
  if (!server ||
      !symbolTables.lookupSymbolIn<NormOp>(server, getNormAttr().getAttr()))
    return emitOpError("clips by ")
           << getNormAttr() << ", which its server does not declare with "
           << "'ps.norm'";
  return success();
}

//===----------------------------------------------------------------------===//
// Role programs
//===----------------------------------------------------------------------===//

/// Returns the step `name` of `worker`, or reports on the worker that its
/// `role` step is missing.
static FailureOr<train::StepOp> lookupStep(WorkerOp worker,
                                           FlatSymbolRefAttr name,
                                           StringRef role,
                                           SymbolTableCollection &tables) {
  auto step = tables.lookupSymbolIn<train::StepOp>(worker, name.getAttr());
  if (!step)
    return train::emitOpErrorAt(worker)
           << "names " << name << " as its " << role
           << " step, but it holds no such 'train.step'";
  return step;
}

LogicalResult WorkerOp::verifySymbolUses(SymbolTableCollection &symbolTables) {
  FailureOr<train::StepOp> main =
      lookupStep(*this, getMainAttr(), "main", symbolTables);
  FailureOr<train::StepOp> startup =
      lookupStep(*this, getStartupAttr(), "startup", symbolTables);
  if (failed(main) || failed(startup))
    return failure();
  FailureOr<train::StepOp> geoPush = train::StepOp();
  if (getGeoPushAttr())
    geoPush = lookupStep(*this, getGeoPushAttr(), "geo_push", symbolTables);
  if (failed(geoPush))
    return failure();
  for (train::StepOp step : {*startup, *geoPush}) {
    if (step && (step.getNumArguments() != 0 || step.getNumResults() != 0))
      return train::emitOpErrorAt(*this)
             << "step @" << step.getSymName()
             << " runs between mini-batches and must take and return "
                "nothing";
  }
  if (*main == *startup || *main == *geoPush || *startup == *geoPush)
    return train::emitOpErrorAt(*this)
           << "must name a different step for each role";
  return verifyJob(*this, {*main, *startup, *geoPush});
}

LogicalResult ServerOp::verify() {
  if (failed(verifyEndpoint(*this, getEndpoint())))
    return failure();
  if (getNumTrainers() < 1)
    return train::emitOpErrorAt(*this)
           << "fan_in must be at least 1, got " << getNumTrainers();
  return success();
}

LogicalResult ServerOp::verifyRegions() {
  llvm::DenseSet<Attribute> updated;
  // The norms the update regions clip by.
  llvm::DenseSet<Attribute> clippedBy;
  for (Operation &op : getBody().front()) {
    if (auto update = dyn_cast<UpdateOp>(op)) {
      if (!updated.insert(update.getBlockAttr()).second)
        return update.emitOpError("is the second update region of block ")
               << update.getBlockAttr();
      if (update.getKind() != getUpdateKind())
        return update.emitOpError("runs on ")
               << describeMessageKind(update.getKind()) << "s, but a server in "
               << stringifyMode(getMode()) << " mode receives "
               << describeMessageKind(getUpdateKind()) << "s";
      update.getBody().walk([&](ClipByGlobalNormOp clip) {
        clippedBy.insert(clip.getNormAttr().getAttr());
      });
      continue;
    }
    if (isa<NormOp>(op) && getMode() != Mode::Sync)
      return op.emitOpError("needs a sync server: a norm is shared within a "
                            "step, and a server in ")
             << stringifyMode(getMode()) << " mode has no steps";
    if (!isa<BlockOp, NormOp>(op))
      return op.emitOpError("cannot appear in a server program, which holds "
                            "only 'ps.block', 'ps.norm' and 'ps.update' ops");
  }
  for (NormOp norm : getBody().getOps<NormOp>())
    if (!clippedBy.contains(norm.getSymNameAttr()))
      return norm.emitOpError("is never clipped by: no update region of @")
             << getSymName() << " has a 'ps.clip_by_global_norm' by it";
  for (BlockOp block : getBody().getOps<BlockOp>())
    if (block.isTrainable() &&
        !updated.contains(FlatSymbolRefAttr::get(block.getSymNameAttr())))
      return block.emitOpError("is trainable but has no 'ps.update' region; "
                               "mark it frozen or add one");
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
  auto [begin, end] = getRows();
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
  StringRef kindName;
  OpAsmParser::Argument argument;
  SMLoc kindLoc;
  if (parser.parseAttribute(block, getBlockAttrName(result.name),
                            result.attributes) ||
      parser.parseKeyword("on") || parser.getCurrentLocation(&kindLoc) ||
      parser.parseKeyword(&kindName))
    return failure();
  std::optional<MessageKind> kind = symbolizeMessageKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc, "expected 'grad' or 'delta', got '")
           << kindName << "'";
  result.addAttribute(getKindAttrName(result.name),
                      MessageKindAttr::get(parser.getContext(), *kind));
  if (parser.parseLParen() ||
      parser.parseArgument(argument, /*allowType=*/true) ||
      parser.parseRParen() ||
      parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  return parser.parseRegion(*result.addRegion(), {argument});
}

void UpdateOp::print(OpAsmPrinter &printer) {
  printer << ' ';
  printer.printAttributeWithoutType(getBlockAttr());
  printer << " on " << stringifyMessageKind(getKind()) << " (";
  if (getBody().getNumArguments() == 1)
    printer.printRegionArgument(getBody().getArgument(0));
  printer << ')';
  printer.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(), {getBlockAttrName(), getKindAttrName()});
  printer << ' ';
  printer.printRegion(getBody(), /*printEntryBlockArgs=*/false);
}

LogicalResult UpdateOp::verify() {
  if (getBody().getNumArguments() != 1 ||
      !isa<RankedTensorType, train::RowsType>(
          getBody().getArgument(0).getType()))
    return emitOpError("region must take exactly one ranked tensor or "
                       "row-sparse value: the received value");
  if (getKind() == MessageKind::Param)
    return emitOpError("runs on gradients or deltas, not on parameters");
  auto clips = getBody().getOps<ClipByGlobalNormOp>();
  if (!clips.empty() && std::next(clips.begin()) != clips.end())
    return (*std::next(clips.begin()))
               .emitOpError(
                   "is the second clip by a shared norm of the update of ")
           << getBlockAttr() << "; a region clips by one at most";
  return success();
}

LogicalResult UpdateOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto block =
      symbolTable.lookupNearestSymbolFrom<BlockOp>(*this, getBlockAttr());
  if (!block)
    return emitOpError("refers to ")
           << getBlockAttr() << ", which is not a 'ps.block' of this server";
  Type received = getBody().getArgument(0).getType();
  if (train::getDenseType(received) != block.getParameterType())
    return emitOpError("received value type ")
           << received << " does not match block " << getBlockAttr()
           << " of type " << block.getParameterType();
  return success();
}

#define GET_OP_CLASSES
#include "openks/Dialect/PS/IR/PSOps.cpp.inc"
