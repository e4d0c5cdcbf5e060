//===- BuildServers.cpp - One program per parameter server ----------------===//
//
// Part of the OpenKS Fleet compiler.
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
  /// Adds the update region of one block, whose copies of the update's ops
  /// use the server names in `renamed`.
  void addUpdate(ps::ServerOp server, ParamUpdate &update,
                 const ParamBlock &block,
                 const llvm::StringMap<std::string> &renamed);

  ModuleOp module;
  ps::JobAttr job;
  /// The server of each job endpoint, in endpoint order.
  SmallVector<ps::ServerOp> servers;
  llvm::StringMap<llvm::StringSet<>> declared;
  /// Each server's first update region: blocks are declared before it.
  llvm::DenseMap<Operation *, Operation *> firstUpdate;
  SymbolTableCollection symbols;
};

} // namespace

void ServerBuilder::declare(ps::ServerOp server, train::ParamOp param,
                            StringRef name, bool sliced, int64_t rowBegin,
                            int64_t rows) {
  if (!declared[server.getSymName()].insert(name).second)
    return;
  // Blocks come before the update regions.
  Block &body = server.getBody().front();
  Operation *before = firstUpdate.lookup(server);
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

void ServerBuilder::addUpdate(ps::ServerOp server, ParamUpdate &update,
                              const ParamBlock &block,
                              const llvm::StringMap<std::string> &renamed) {
  RankedTensorType paramType = update.param.getParameterType();
  RankedTensorType blockType = withRows(paramType, block.rows);
  bool geo = job.getMode() == ps::Mode::Geo;

  OpBuilder builder(&server.getBody().front(), server.getBody().front().end());
  Location loc = update.optimizer->getLoc();
  auto region =
      ps::UpdateOp::create(builder, loc, block.name, server.getUpdateKind());
  firstUpdate.try_emplace(server, region);
  Block *body = builder.createBlock(&region.getBody(), {}, {blockType}, {loc});
  Value incoming = body->getArgument(0);
  auto blockRef = FlatSymbolRefAttr::get(module.getContext(), block.name);

  if (geo) {
    // Servers accumulate the trainers' averaged deltas.
    auto current = train::ReadOp::create(builder, loc, blockType, blockRef);
    auto sum = train::AddOp::create(builder, loc, current, incoming);
    train::WriteOp::create(builder, loc, sum, blockRef);
    return;
  }
  Value grad = incoming;
  if (job.getMode() == ps::Mode::Sync && job.getTrainers() > 1) {
    // The average of the trainers' gradients, as Paddle's sum + scale.
    auto average = train::ScaleOp::create(
        builder, loc, blockType, incoming,
        builder.getF64FloatAttr(1.0 / static_cast<double>(job.getTrainers())));
    train::setRole(average, train::Role::Optimize);
    grad = average;
  }

  // A copy of the update's ops on the block: the parameter's name and shape
  // become the block's, and per-block state gets its server name.
  IRMapping mapping;
  mapping.map(update.grad, grad);
  for (Operation *op : update.ops) {
    Operation *clone = builder.clone(*op, mapping);
    for (NamedAttribute attribute : clone->getAttrs())
      if (auto symbol = dyn_cast<FlatSymbolRefAttr>(attribute.getValue()))
        if (auto it = renamed.find(symbol.getValue()); it != renamed.end())
          clone->setAttr(
              attribute.getName(),
              FlatSymbolRefAttr::get(module.getContext(), it->second));
    for (OpResult result : clone->getResults())
      if (result.getType() == paramType)
        result.setType(blockType);
  }
}

/// Checks that the update of a parameter split into `blocks` blocks can run
/// on each block alone: a norm is that of the whole gradient, which no
/// server sees, so a parameter clipped by norm must stay whole.
static LogicalResult checkElementwise(ParamUpdate &update, size_t blocks,
                                      StringRef pass) {
  for (Operation *op : update.ops) {
    if (!isa<train::ClipByNormOp, train::ClipByGlobalNormOp>(op))
      continue;
    int64_t elements = update.param.getParameterType().getNumElements();
    return emitError(update.param.getLoc())
           << pass << ": @" << update.param.getSymName()
           << " is clipped by its norm on the servers, but is split into "
           << blocks << " blocks, and a server sees only its block; clip it "
           << "by value, or keep it whole with slice-var-up=false or a "
           << "min-block-size of at least " << elements / 2 + 1;
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
        failed(checkElementwise(update, blocks.size(), pass)))
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
        addUpdate(server, update, block, {});
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
      addUpdate(server, update, block, renamed);
    }
  }
  return success();
}

namespace {

struct BuildServersPass
    : public openks::impl::BuildServersPassBase<BuildServersPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkStage(module, getArgument(), TranspileStage::Dispatched,
                          TranspileStage::Dispatched)))
      return signalPassFailure();
    FailureOr<SmallVector<ParamUpdate>> updates =
        getParamUpdates(module, getArgument());
    if (failed(updates) || failed(ServerBuilder(module, getJob(module))
                                      .build(*updates, getArgument())))
      return signalPassFailure();
  }
};

} // namespace
