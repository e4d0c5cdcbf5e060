//===- BuildServers.cpp - One program per parameter server ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"

#include "TranspileState.h"
#include "openks/Dialect/PS/IR/PSNaming.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringSet.h"

namespace openks {
#define GEN_PASS_DEF_BUILDSERVERSPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

/// Builds the servers of one module.
class ServerBuilder {
public:
  ServerBuilder(ModuleOp module, ps::JobAttr job) : module(module), job(job) {}

  LogicalResult build(MutableArrayRef<ParamUpdate> updates, StringRef pass);

private:
  /// Declares `param` (or rows [rowBegin, rowBegin + rows) of it, when
  /// `sliced`) on `server` under `name`, once.
  void declare(ps::ServerOp server, train::ParamOp param, StringRef name,
               bool sliced, int64_t rowBegin, int64_t rows);
  /// Declares on `server` the norm `name` that its updates share with
  /// other servers, once; reports a block of that name.
  LogicalResult declareNorm(ps::ServerOp server, StringRef name, Location loc);
  /// Adds the update region of one block, whose copies of the update's ops
  /// use the server names in `renamed`. `sliced` says whether the block is
  /// a part of its parameter.
  LogicalResult addUpdate(ps::ServerOp server, ParamUpdate &update,
                          const ParamBlock &block, bool sliced,
                          const llvm::StringMap<std::string> &renamed);
  /// Adds, at `builder`, a clip of `value` by the norm `name` that the job
  /// computes across servers, declared on `server`; returns the clipped
  /// value.
  FailureOr<Value> clipBySharedNorm(OpBuilder &builder, ps::ServerOp server,
                                    Location loc, Value value, StringRef name,
                                    double maxNorm);

  ModuleOp module;
  ps::JobAttr job;
  /// The server of each job endpoint, in endpoint order.
  SmallVector<ps::ServerOp> servers;
  llvm::StringMap<llvm::StringSet<>> declared;
  llvm::StringMap<llvm::StringSet<>> declaredNorms;
  /// Each server's first update region: norms are declared before it.
  llvm::DenseMap<Operation *, Operation *> firstUpdate;
  /// Each server's first norm or update region: blocks are declared before
  /// it.
  llvm::DenseMap<Operation *, Operation *> firstAfterBlocks;
  SymbolTableCollection symbols;
};

} // namespace

void ServerBuilder::declare(ps::ServerOp server, train::ParamOp param,
                            StringRef name, bool sliced, int64_t rowBegin,
                            int64_t rows) {
  if (!declared[server.getSymName()].insert(name).second)
    return;
  // Blocks come before the norms and the update regions.
  Block &body = server.getBody().front();
  Operation *before = firstAfterBlocks.lookup(server);
  OpBuilder builder(&body, before ? before->getIterator() : body.end());
  RankedTensorType type = param.getParameterType();
  MLIRContext *context = module.getContext();
  auto rowAttr = [&](int64_t row) {
    return IntegerAttr::get(IntegerType::get(context, 64), row);
  };
  ps::BlockOp::create(
      builder, param.getLoc(), name, sliced ? withRows(type, rows) : type,
      sliced ? FlatSymbolRefAttr::get(param.getSymNameAttr()) : nullptr,
      sliced ? TypeAttr::get(type) : nullptr,
      sliced ? rowAttr(rowBegin) : nullptr,
      sliced ? rowAttr(rowBegin + rows) : nullptr, param.getInitializer(),
      !param.isTrainable());
}

LogicalResult ServerBuilder::declareNorm(ps::ServerOp server, StringRef name,
                                         Location loc) {
  if (declared[server.getSymName()].contains(name))
    return emitError(loc) << "cannot declare the shared norm @" << name
                          << " on @" << server.getSymName()
                          << ": a block has that name";
  if (!declaredNorms[server.getSymName()].insert(name).second)
    return success();
  Block &body = server.getBody().front();
  Operation *before = firstUpdate.lookup(server);
  OpBuilder builder(&body, before ? before->getIterator() : body.end());
  auto norm = ps::NormOp::create(builder, loc, name);
  // The first norm goes right after the blocks.
  if (firstAfterBlocks.lookup(server) == before)
    firstAfterBlocks[server] = norm;
  return success();
}

FailureOr<Value> ServerBuilder::clipBySharedNorm(OpBuilder &builder,
                                                 ps::ServerOp server,
                                                 Location loc, Value value,
                                                 StringRef name,
                                                 double maxNorm) {
  if (failed(declareNorm(server, name, loc)))
    return failure();
  auto clip = ps::ClipByGlobalNormOp::create(
      builder, loc, value.getType(), value,
      FlatSymbolRefAttr::get(module.getContext(), name),
      builder.getF64FloatAttr(maxNorm));
  return clip.getClipped();
}

/// Points the flat symbol references among `op`'s attributes at the names
/// `renamed` gives them. Reads the inherent attributes one by one rather
/// than building the op's attribute dictionary.
static void renameSymbols(Operation *op,
                          const llvm::StringMap<std::string> &renamed) {
  SmallVector<NamedAttribute> replacements;
  auto rename = [&](StringAttr name, Attribute value) {
    if (auto symbol = dyn_cast_or_null<FlatSymbolRefAttr>(value))
      if (auto it = renamed.find(symbol.getValue()); it != renamed.end())
        replacements.emplace_back(
            name, FlatSymbolRefAttr::get(op->getContext(), it->second));
  };
  // Without properties, the dictionary holds the inherent attributes too.
  for (NamedAttribute attribute : op->getRawDictionaryAttrs())
    rename(attribute.getName(), attribute.getValue());
  if (op->getPropertiesStorageSize())
    for (StringAttr name : op->getName().getAttributeNames())
      if (std::optional<Attribute> value = op->getInherentAttr(name))
        rename(name, *value);
  for (NamedAttribute replacement : replacements)
    op->setAttr(replacement.getName(), replacement.getValue());
}

LogicalResult
ServerBuilder::addUpdate(ps::ServerOp server, ParamUpdate &update,
                         const ParamBlock &block, bool sliced,
                         const llvm::StringMap<std::string> &renamed) {
  RankedTensorType paramType = update.param.getParameterType();
  RankedTensorType blockType = withRows(paramType, block.rows);
  bool geo = job.getMode() == ps::Mode::Geo;
  // The gradient of a sparse table arrives as the rows the trainer touched,
  // and in GEO mode its delta as the rows that changed.
  Type receivedType = blockType;
  if (geo ? update.param.getSparse()
          : isa<train::RowsType>(update.grad.getType()))
    receivedType = train::RowsType::get(blockType);

  OpBuilder builder(&server.getBody().front(), server.getBody().front().end());
  Location loc = update.optimizer->getLoc();
  auto region =
      ps::UpdateOp::create(builder, loc, block.name, server.getUpdateKind());
  firstUpdate.try_emplace(server, region);
  firstAfterBlocks.try_emplace(server, region);
  Block *body =
      builder.createBlock(&region.getBody(), {}, {receivedType}, {loc});
  Value incoming = body->getArgument(0);
  auto blockRef = FlatSymbolRefAttr::get(module.getContext(), block.name);

  if (geo && isa<train::RowsType>(receivedType)) {
    // Servers accumulate the trainers' averaged deltas, row by row.
    train::ScatterRowsOp::create(builder, loc, incoming, blockRef,
                                 /*accumulate=*/builder.getUnitAttr());
    return success();
  }
  if (geo) {
    // Servers accumulate the trainers' averaged deltas.
    auto current = train::ReadOp::create(builder, loc, blockType, blockRef);
    auto sum = train::AddOp::create(builder, loc, current, incoming);
    train::WriteOp::create(builder, loc, sum, blockRef);
    return success();
  }
  bool sync = job.getMode() == ps::Mode::Sync;
  Value grad = incoming;
  if (sync && job.getTrainers() > 1) {
    // The average of the trainers' gradients, as Paddle's sum + scale.
    auto average = train::ScaleOp::create(
        builder, loc, receivedType, incoming,
        builder.getF64FloatAttr(1.0 / static_cast<double>(job.getTrainers())));
    train::setRole(average, train::Role::Optimize);
    grad = average;
  }
  // A sync step clips by the global norm of the averaged gradients, which
  // the servers compute together: single-process training clips the
  // batch's gradient, not each trainer's shard of it.
  if (sync && update.globalClip) {
    FailureOr<Value> clipped = clipBySharedNorm(
        builder, server, update.globalClip.getLoc(), grad, ps::kGlobalNormName,
        update.globalClip.getMaxNorm().convertToDouble());
    if (failed(clipped))
      return failure();
    grad = *clipped;
  }

  // A copy of the update's ops on the block: the parameter's name and shape
  // become the block's, and per-block state gets its server name.
  IRMapping mapping;
  mapping.map(update.grad, grad);
  for (Operation *op : update.ops) {
    // The norm of a sliced parameter's gradient is shared by its blocks'
    // servers (sync mode; checkElementwise refuses it in the others).
    if (auto clip = dyn_cast<train::ClipByNormOp>(op); clip && sliced) {
      FailureOr<Value> clipped = clipBySharedNorm(
          builder, server, clip.getLoc(), mapping.lookup(clip.getX()),
          ps::getParamNormName(update.param.getSymName()),
          clip.getMaxNorm().convertToDouble());
      if (failed(clipped))
        return failure();
      mapping.map(clip.getOut(), *clipped);
      continue;
    }
    Operation *clone = builder.clone(*op, mapping);
    renameSymbols(clone, renamed);
    for (OpResult result : clone->getResults())
      if (result.getType() == paramType)
        result.setType(blockType);
  }
  return success();
}

/// Checks that the update of a parameter split into `blocks` blocks can run
/// on each block alone: a norm is that of the whole gradient, which no
/// server sees on its own. In sync mode the servers compute the norm of a
/// parameter clipped by its norm together; in async modes, where each
/// trainer's gradient is applied on arrival, such a parameter must stay
/// whole.
static LogicalResult checkElementwise(ParamUpdate &update, size_t blocks,
                                      ps::Mode mode, StringRef pass) {
  for (Operation *op : update.ops) {
    if (!isa<train::ClipByNormOp, train::ClipByGlobalNormOp>(op) ||
        (isa<train::ClipByNormOp>(op) && mode == ps::Mode::Sync))
      continue;
    int64_t elements = update.param.getParameterType().getNumElements();
    return emitError(update.param.getLoc())
           << pass << ": @" << update.param.getSymName()
           << " is clipped by its norm on the servers, but is split into "
           << blocks << " blocks, and in " << ps::stringifyMode(mode)
           << " mode a server sees only its block of a trainer's gradient; "
           << "clip it by value, train in sync mode, or keep it whole with "
           << "slice-var-up=false or a min-block-size of at least "
           << elements / 2 + 1;
  }
  return success();
}

LogicalResult ServerBuilder::build(MutableArrayRef<ParamUpdate> updates,
                                   StringRef pass) {
  OpBuilder builder(module.getBodyRegion());
  builder.setInsertionPointToEnd(module.getBody());
  for (auto [index, endpoint] : llvm::enumerate(job.getEndpointNames())) {
    std::string name = "ps" + std::to_string(index);
    if (Operation *taken = SymbolTable::lookupSymbolIn(module, name))
      return emitError(taken->getLoc()) << pass << ": cannot name a server @"
                                        << name << ": the name is taken";
    auto server = ps::ServerOp::create(builder, module.getLoc(), name, endpoint,
                                       static_cast<uint64_t>(job.getTrainers()),
                                       job.getMode());
    server.getBody().emplaceBlock();
    servers.push_back(server);
  }

  for (ParamUpdate &update : updates) {
    SmallVector<ParamBlock> blocks = getParamBlocks(update.param);
    bool sliced = blocks.size() > 1;
    if (sliced && job.getMode() != ps::Mode::Geo &&
        failed(checkElementwise(update, blocks.size(), job.getMode(), pass)))
      return failure();
    Operation *program = update.param->getParentOp();
    llvm::DenseSet<StringAttr> elementwise;
    for (FlatSymbolRefAttr name : update.optimizer.getElementwiseState())
      elementwise.insert(name.getAttr());
    for (auto [index, block] : llvm::enumerate(blocks)) {
      ps::ServerOp server = servers[block.server];
      declare(server, update.param, block.name, sliced, block.rowBegin,
              block.rows);
      // A GEO server only adds deltas: the optimizer and its state stay on
      // the trainers.
      if (job.getMode() == ps::Mode::Geo) {
        if (failed(addUpdate(server, update, block, sliced, {})))
          return failure();
        continue;
      }
      // The server names of what the update touches. State the update
      // writes itself (a schedule's step counter) is kept per block, so each
      // block's update advances its own; element-wise state follows the
      // parameter's rows and, when sliced, is named like its blocks; the
      // rest (rank-0 state, the learning rate) is copied whole.
      llvm::StringMap<std::string> renamed;
      renamed[update.param.getSymName()] = block.name;
      for (Operation *op : update.ops)
        if (auto write = dyn_cast<train::WriteOp>(op))
          renamed[write.getParam()] =
              ps::getPerBlockStateName(write.getParam(), block.name);
      for (StringAttr name : update.state) {
        auto state = dyn_cast_or_null<train::ParamOp>(
            symbols.lookupSymbolIn(program, name));
        if (!state)
          continue;
        bool slicedState = sliced && elementwise.contains(name);
        if (slicedState)
          renamed[name.getValue()] =
              ps::getBlockName(name.getValue(), index, blocks.size());
        auto it = renamed.find(name.getValue());
        declare(server, state,
                it != renamed.end() ? StringRef(it->second) : name.getValue(),
                slicedState, block.rowBegin, block.rows);
      }
      if (failed(addUpdate(server, update, block, sliced, renamed)))
        return failure();
    }
  }
  return success();
}

namespace {

struct BuildServersPass
    : public openks::impl::BuildServersPassBase<BuildServersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<OptimizerUse> optimizers = findOptimizers(module);
    if (failed(checkStage(module, optimizers, getArgument(),
                          TranspileStage::Dispatched,
                          TranspileStage::Dispatched)))
      return signalPassFailure();
    FailureOr<SmallVector<ParamUpdate>> updates =
        getParamUpdates(optimizers, getArgument());
    if (failed(updates) || failed(ServerBuilder(module, getJob(module))
                                      .build(*updates, getArgument())))
      return signalPassFailure();
  }
};

} // namespace
