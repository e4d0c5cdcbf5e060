//===- InsertSendRecv.cpp - The worker program ----------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSNaming.h"
#include "openks/Support/Endpoint.h"
#include "openks/Transforms/Passes.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SetVector.h"

namespace openks {
#define GEN_PASS_DEF_INSERTSENDRECVPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

/// A block of a parameter the worker trades with a server, and where it
/// lives: `@server::@block`.
struct RemoteBlock {
  ParamBlock block;
  SymbolRefAttr symbol;
};

/// A parameter the worker trades with the servers, with its blocks.
struct DistributedParam {
  ParamUpdate update;
  SmallVector<RemoteBlock> blocks;
  /// The lookups that read a sparse table the worker prefetches rows of,
  /// instead of holding it whole; empty for the other parameters.
  SmallVector<Operation *> lookups;
};

/// A norm that servers share, and the servers that declare it.
struct SharedNorm {
  FlatSymbolRefAttr name;
  ArrayAttr servers;
};

/// Rewrites one training program into its worker program.
class WorkerBuilder {
public:
  WorkerBuilder(ps::JobAttr job, train::StepOp step,
                MutableArrayRef<DistributedParam> params, ArrayAttr servers,
                ArrayRef<SharedNorm> norms)
      : job(job), step(step), params(params), servers(servers), norms(norms),
        context(step.getContext()) {}

  LogicalResult build();

private:
  /// Splits `value` into the parameter's blocks (or returns it whole).
  SmallVector<Value> splitIntoBlocks(OpBuilder &builder, Location loc,
                                     Value value,
                                     const DistributedParam &param);
  /// A parameter the worker holds whole, and the blocks it receives of it.
  using HeldBlocks = std::pair<DistributedParam *, SmallVector<Value>>;
  /// Receives every block of each parameter the worker holds whole (every
  /// one but the prefetched tables).
  std::vector<HeldBlocks> receiveHeldParameters(OpBuilder &builder,
                                                Location loc);
  /// Receives every block of `param` and returns them.
  SmallVector<Value> receiveBlocks(OpBuilder &builder, Location loc,
                                   DistributedParam &param);
  /// Joins received blocks back into the whole parameter.
  Value joinBlocks(OpBuilder &builder, Location loc, ArrayRef<Value> blocks);
  /// Fetches the rows of the sparse table `param` at the distinct ids of
  /// `ids` from the servers that hold them, as rows of the whole table.
  Value fetchRows(OpBuilder &builder, Location loc, DistributedParam &param,
                  ValueRange ids);
  /// Returns whether the servers clip `param`'s gradient by the global norm
  /// (sync mode), so that the worker sends it unclipped.
  bool isClippedOnServers(const DistributedParam &param) const {
    return job.getMode() == ps::Mode::Sync && param.update.globalClip;
  }

  void insertSends();
  void moveOptimizerToServers();
  /// Finds the sparse tables the worker need not hold: every use in the
  /// program is a lookup in the step.
  void findPrefetchedTables();
  /// Replaces the table of each lookup of a prefetched table by the rows
  /// the step fetches of it.
  void prefetchRows(DistributedParam &param);
  void receiveUpdatedParameters();
  FailureOr<train::StepOp> addStartup();
  FailureOr<train::StepOp> addGeoPush();

  ps::JobAttr job;
  train::StepOp step;
  MutableArrayRef<DistributedParam> params;
  /// The servers that hold the parameters' blocks, the ones every step's
  /// barriers list.
  ArrayAttr servers;
  /// The norms the servers' updates clip by (sync mode).
  ArrayRef<SharedNorm> norms;
  MLIRContext *context;
};

} // namespace

SmallVector<Value>
WorkerBuilder::splitIntoBlocks(OpBuilder &builder, Location loc, Value value,
                               const DistributedParam &param) {
  if (param.blocks.size() == 1)
    return {value};
  SmallVector<int64_t> rows;
  for (const RemoteBlock &remote : param.blocks)
    rows.push_back(remote.block.rows);
  auto split = ps::SplitOp::create(builder, loc, value,
                                   builder.getDenseI64ArrayAttr(rows));
  return SmallVector<Value>(split.getOutputs());
}

SmallVector<Value> WorkerBuilder::receiveBlocks(OpBuilder &builder,
                                                Location loc,
                                                DistributedParam &param) {
  RankedTensorType type = param.update.param.getParameterType();
  SmallVector<Value> received;
  for (const RemoteBlock &remote : param.blocks)
    received.push_back(ps::RecvOp::create(
        builder, loc, withRows(type, remote.block.rows), remote.symbol));
  return received;
}

Value WorkerBuilder::joinBlocks(OpBuilder &builder, Location loc,
                                ArrayRef<Value> blocks) {
  if (blocks.size() == 1)
    return blocks.front();
  return ps::ConcatOp::create(builder, loc, blocks);
}

Value WorkerBuilder::fetchRows(OpBuilder &builder, Location loc,
                               DistributedParam &param, ValueRange ids) {
  train::ParamOp table = param.update.param;
  RankedTensorType type = table.getParameterType();
  SmallVector<int64_t> sections;
  for (const RemoteBlock &remote : param.blocks)
    sections.push_back(remote.block.rows);
  auto route = ps::RouteIdsOp::create(
      builder, loc, ids, FlatSymbolRefAttr::get(table.getSymNameAttr()),
      builder.getDenseI64ArrayAttr(sections));
  SmallVector<Value> parts;
  for (auto [local, remote] : llvm::zip(route.getLocalIds(), param.blocks))
    parts.push_back(ps::PrefetchOp::create(
        builder, loc, train::RowsType::get(withRows(type, remote.block.rows)),
        local, remote.symbol));
  return joinBlocks(builder, loc, parts);
}

void WorkerBuilder::insertSends() {
  // Sends follow the gradient's producer; several gradients of one producer
  // keep parameter order.
  llvm::DenseMap<Operation *, Operation *> lastInserted;
  Block &body = step.getBody().front();
  for (DistributedParam &param : params) {
    Value grad = isClippedOnServers(param) ? param.update.unclippedGrad
                                           : param.update.grad;
    Operation *producer = grad.getDefiningOp();
    OpBuilder builder(context);
    if (Operation *last = lastInserted.lookup(producer))
      builder.setInsertionPointAfter(last);
    else if (producer)
      builder.setInsertionPointAfter(producer);
    else
      builder.setInsertionPointToStart(&body);
    // A row-sparse gradient splits into the rows of each block, with
    // block-local ids: only the touched rows travel.
    Location loc = param.update.optimizer->getLoc();
    for (auto [part, remote] :
         llvm::zip(splitIntoBlocks(builder, loc, grad, param), param.blocks))
      lastInserted[producer] = ps::SendOp::create(
          builder, loc, part, ps::MessageKind::Grad, remote.symbol);
  }
}

/// Adds to `roots` the root of each symbol reference that `attr` holds
/// (itself, or nested in it); `memo` keeps those of each attribute walked.
static void
addSymbolRoots(Attribute attr, llvm::DenseSet<Attribute> &roots,
               llvm::DenseMap<Attribute, SmallVector<Attribute, 1>> &memo) {
  if (auto symbol = dyn_cast<SymbolRefAttr>(attr)) {
    roots.insert(symbol.getRootReference());
    return;
  }
  auto [it, inserted] = memo.try_emplace(attr);
  if (inserted)
    attr.walk<WalkOrder::PreOrder>([&](SymbolRefAttr symbol) {
      it->second.push_back(symbol.getRootReference());
      return WalkResult::skip();
    });
  roots.insert(it->second.begin(), it->second.end());
}

/// Adds to `roots` the root of every symbol reference that the ops of
/// `region` use, without looking into nested symbol tables: the roots of
/// SymbolTable::getSymbolUses. Like it, returns false when an unregistered
/// op with a region might be a symbol table. It reads each op's inherent
/// attributes one by one instead of gathering them into a dictionary, and
/// walks each distinct attribute once.
static bool collectSymbolUses(Region &region,
                              llvm::DenseSet<Attribute> &roots) {
  llvm::DenseMap<Attribute, SmallVector<Attribute, 1>> memo;
  SmallVector<Region *> worklist = {&region};
  while (!worklist.empty()) {
    for (Operation &op : worklist.pop_back_val()->getOps()) {
      if (op.getNumRegions() == 1 && !op.getDialect())
        return false;
      // Without properties, the dictionary holds the inherent attributes
      // too.
      for (NamedAttribute attr : op.getRawDictionaryAttrs())
        addSymbolRoots(attr.getValue(), roots, memo);
      if (op.getPropertiesStorageSize())
        for (StringAttr name : op.getName().getAttributeNames())
          if (std::optional<Attribute> attr = op.getInherentAttr(name);
              attr && *attr)
            addSymbolRoots(*attr, roots, memo);
      // A nested symbol table is a scope of its own.
      if (!op.hasTrait<OpTrait::SymbolTable>())
        for (Region &nested : op.getRegions())
          worklist.push_back(&nested);
    }
  }
  return true;
}

void WorkerBuilder::moveOptimizerToServers() {
  llvm::DenseSet<Operation *> serverOps;
  llvm::DenseSet<Attribute> stateNames;
  for (DistributedParam &param : params) {
    serverOps.insert(param.update.ops.begin(), param.update.ops.end());
    stateNames.insert(param.update.state.begin(), param.update.state.end());
    if (isClippedOnServers(param))
      serverOps.insert(param.update.globalClip);
  }
  // Users come after their producers: erase from the back.
  Block &body = step.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (serverOps.contains(&op) && op.use_empty())
      op.erase();
  // Optimizer state and the learning rate live on the servers only.
  Operation *program = step->getParentOp();
  llvm::DenseSet<Attribute> stillUsed;
  if (!collectSymbolUses(program->getRegion(0), stillUsed))
    stillUsed.clear();
  for (Operation &op :
       llvm::make_early_inc_range(program->getRegion(0).front()))
    if (auto param = dyn_cast<train::ParamOp>(op);
        param && stateNames.contains(param.getSymNameAttr()) &&
        !stillUsed.contains(param.getSymNameAttr()))
      param.erase();
}

/// Returns the lookups that read `table`: every use of every read of it in
/// `program`, when each is the table of a `train.embedding` or
/// `train.embedding_pool` in `step`; nothing otherwise.
static std::optional<SmallVector<Operation *>>
getLookups(train::ParamOp table, train::StepOp step, Operation *program) {
  std::optional<SymbolTable::UseRange> uses = SymbolTable::getSymbolUses(
      table.getSymNameAttr(), &program->getRegion(0));
  if (!uses)
    return std::nullopt;
  SmallVector<Operation *> lookups;
  for (const SymbolTable::SymbolUse &use : *uses) {
    auto read = dyn_cast<train::ReadOp>(use.getUser());
    if (!read || read->getParentOp() != step)
      return std::nullopt;
    for (OpOperand &reader : read.getValue().getUses()) {
      if (!isa<train::EmbeddingOp, train::EmbeddingPoolOp>(reader.getOwner()) ||
          reader.getOperandNumber() != 0)
        return std::nullopt;
      lookups.push_back(reader.getOwner());
    }
  }
  llvm::sort(lookups,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return lookups;
}

void WorkerBuilder::findPrefetchedTables() {
  Operation *program = step->getParentOp();
  for (DistributedParam &param : params)
    if (param.update.param.getSparse())
      if (std::optional<SmallVector<Operation *>> lookups =
              getLookups(param.update.param, step, program))
        param.lookups = std::move(*lookups);
}

/// Returns whether `value` is available right before `op`, in its block.
static bool isAvailableBefore(Value value, Operation *op) {
  if (auto argument = dyn_cast<BlockArgument>(value))
    return argument.getOwner() == op->getBlock();
  Operation *producer = value.getDefiningOp();
  return producer->getBlock() == op->getBlock() &&
         producer->isBeforeInBlock(op);
}

void WorkerBuilder::prefetchRows(DistributedParam &param) {
  // The lookups whose ids are known before the first of them fetch their
  // rows together, each row once; a lookup of ids computed later starts a
  // new group.
  SmallVector<SmallVector<Operation *>> groups;
  for (Operation *lookup : param.lookups) {
    if (!groups.empty() &&
        isAvailableBefore(lookup->getOperand(1), groups.back().front()))
      groups.back().push_back(lookup);
    else
      groups.push_back({lookup});
  }
  for (ArrayRef<Operation *> group : groups) {
    OpBuilder builder(group.front());
    SmallVector<Value> ids;
    for (Operation *lookup : group)
      ids.push_back(lookup->getOperand(1));
    Value rows = fetchRows(builder, group.front()->getLoc(), param, ids);
    for (Operation *lookup : group) {
      Operation *read = lookup->getOperand(0).getDefiningOp();
      lookup->setOperand(0, rows);
      if (read->use_empty())
        read->erase();
    }
  }
}

void WorkerBuilder::receiveUpdatedParameters() {
  Block &body = step.getBody().front();
  OpBuilder builder(body.getTerminator());
  Location loc = step.getLoc();
  // Paddle's trainer order: the send barrier (sync, half-async), the
  // receives, the fetch barrier (sync). Before the receives, a sync step
  // completes the norms its servers clip by.
  if (job.getMode() != ps::Mode::Async)
    ps::SendBarrierOp::create(builder, loc, servers);
  for (const SharedNorm &norm : norms)
    ps::ReduceNormOp::create(builder, loc, norm.name, norm.servers);
  std::vector<HeldBlocks> received = receiveHeldParameters(builder, loc);
  if (job.getMode() == ps::Mode::Sync)
    ps::FetchBarrierOp::create(builder, loc, servers);
  for (auto &[param, blocks] : received)
    train::WriteOp::create(
        builder, loc, joinBlocks(builder, loc, blocks),
        FlatSymbolRefAttr::get(param->update.param.getSymNameAttr()));
}

std::vector<WorkerBuilder::HeldBlocks>
WorkerBuilder::receiveHeldParameters(OpBuilder &builder, Location loc) {
  // A prefetched table is not received: each step fetches its rows.
  std::vector<HeldBlocks> received;
  for (DistributedParam &param : params)
    if (param.lookups.empty())
      received.push_back({&param, receiveBlocks(builder, loc, param)});
  return received;
}

/// Returns the name of the GEO copy of `param`'s last synchronised value.
static std::string geoOldName(train::ParamOp param) {
  return ps::getGeoCopyName(param.getSymName());
}

FailureOr<train::StepOp> WorkerBuilder::addStartup() {
  Operation *program = step->getParentOp();
  if (SymbolTable::lookupSymbolIn(program, "startup"))
    return train::emitOpErrorAt(step)
           << "shares its program with a symbol @startup; the worker's "
              "startup step needs that name";
  OpBuilder builder(context);
  builder.setInsertionPointAfter(step);
  Location loc = step.getLoc();
  auto startup = train::StepOp::create(builder, loc, "startup",
                                       builder.getFunctionType({}, {}));
  builder.setInsertionPointToStart(&startup.getBody().front());
  std::vector<HeldBlocks> received = receiveHeldParameters(builder, loc);
  // A sync startup lets every server open its first step; in the other
  // modes it ends only what it received.
  ArrayAttr fetchedFrom = servers;
  if (job.getMode() != ps::Mode::Sync) {
    llvm::SetVector<Attribute> receivedFrom;
    for (auto &[param, blocks] : received)
      for (const RemoteBlock &remote : param->blocks)
        receivedFrom.insert(
            FlatSymbolRefAttr::get(remote.symbol.getRootReference()));
    // In the job's server order, as the main step lists them.
    SmallVector<Attribute> ordered;
    for (Attribute server : servers)
      if (receivedFrom.contains(server))
        ordered.push_back(server);
    fetchedFrom = ArrayAttr::get(context, ordered);
  }
  if (!fetchedFrom.empty())
    ps::FetchBarrierOp::create(builder, loc, fetchedFrom);
  for (auto &[param, blocks] : received) {
    Value whole = joinBlocks(builder, loc, blocks);
    train::ParamOp paramOp = param->update.param;
    train::WriteOp::create(builder, loc, whole,
                           FlatSymbolRefAttr::get(paramOp.getSymNameAttr()));
    if (job.getMode() == ps::Mode::Geo)
      train::WriteOp::create(
          builder, loc, whole,
          FlatSymbolRefAttr::get(context, geoOldName(paramOp)));
  }
  train::YieldOp::create(builder, loc);
  return startup;
}

FailureOr<train::StepOp> WorkerBuilder::addGeoPush() {
  Operation *program = step->getParentOp();
  if (SymbolTable::lookupSymbolIn(program, "geo_push"))
    return train::emitOpErrorAt(step)
           << "shares its program with a symbol @geo_push; the GEO push "
              "step needs that name";
  OpBuilder builder(context);
  Location loc = step.getLoc();
  SymbolTable programSymbols(program);
  for (DistributedParam &param : params) {
    train::ParamOp paramOp = param.update.param;
    if (programSymbols.lookup(geoOldName(paramOp)))
      return paramOp.emitOpError("needs a GEO copy @")
             << geoOldName(paramOp) << ", but the name is taken";
    builder.setInsertionPointAfter(paramOp);
    train::ParamOp::create(builder, paramOp.getLoc(), geoOldName(paramOp),
                           paramOp.getParameterType(), paramOp.getInitializer(),
                           /*frozen=*/true);
  }

  builder.setInsertionPointAfter(step);
  auto push = train::StepOp::create(builder, loc, "geo_push",
                                    builder.getFunctionType({}, {}));
  builder.setInsertionPointToStart(&push.getBody().front());
  double share = 1.0 / static_cast<double>(job.getTrainers());
  // What each block keeps of its own change once the push has sent its
  // delta: Paddle's `old += delta; local += server - old` leaves
  // local = server + (1 - 1/trainers) * (local - old).
  double kept = 1.0 - share;
  struct Pushed {
    /// What each block keeps of its change (of a sparse table: what the
    /// whole table keeps of the rows that changed).
    SmallVector<Value> unsent;
    /// Of a sparse table, the rows that changed.
    Value changedRows;
  };
  SmallVector<Pushed> pushed;
  for (DistributedParam &param : params) {
    train::ParamOp paramOp = param.update.param;
    RankedTensorType type = paramOp.getParameterType();
    auto local = train::ReadOp::create(
        builder, loc, type, FlatSymbolRefAttr::get(paramOp.getSymNameAttr()));
    auto old = train::ReadOp::create(
        builder, loc, type,
        FlatSymbolRefAttr::get(context, geoOldName(paramOp)));
    Pushed &blocks = pushed.emplace_back();
    if (paramOp.getSparse()) {
      // A sparse table sends the rows its steps changed, and only those.
      auto rowsType = train::RowsType::get(type);
      Value change =
          train::ChangedRowsOp::create(builder, loc, rowsType, local, old);
      Value delta = train::ScaleOp::create(builder, loc, rowsType, change,
                                           builder.getF64FloatAttr(share));
      for (auto [deltaBlock, remote] :
           llvm::zip(splitIntoBlocks(builder, loc, delta, param), param.blocks))
        ps::SendOp::create(builder, loc, deltaBlock, ps::MessageKind::Delta,
                           remote.symbol);
      blocks.changedRows = change;
      blocks.unsent.push_back(train::ScaleOp::create(
          builder, loc, rowsType, change, builder.getF64FloatAttr(kept)));
      continue;
    }
    for (auto [localBlock, oldBlock, remote] :
         llvm::zip(splitIntoBlocks(builder, loc, local, param),
                   splitIntoBlocks(builder, loc, old, param), param.blocks)) {
      // delta = (local - old) / trainers
      Value negativeOld =
          train::ScaleOp::create(builder, loc, oldBlock.getType(), oldBlock,
                                 builder.getF64FloatAttr(-1.0));
      Value change =
          train::AddOp::create(builder, loc, localBlock, negativeOld);
      Value delta =
          train::ScaleOp::create(builder, loc, change.getType(), change,
                                 builder.getF64FloatAttr(share));
      ps::SendOp::create(builder, loc, delta, ps::MessageKind::Delta,
                         remote.symbol);
      blocks.unsent.push_back(
          train::ScaleOp::create(builder, loc, change.getType(), change,
                                 builder.getF64FloatAttr(kept)));
    }
  }
  for (auto [param, blocks] : llvm::zip(params, pushed)) {
    train::ParamOp paramOp = param.update.param;
    if (blocks.changedRows) {
      // The same rows come back as the servers hold them now.
      auto ids = train::RowIdsOp::create(
          builder, loc,
          RankedTensorType::get({ShapedType::kDynamic}, builder.getI64Type()),
          blocks.changedRows);
      Value server = fetchRows(builder, loc, param, ids.getIds());
      Value updated =
          train::MergeRowsOp::create(builder, loc, server.getType(),
                                     ValueRange{server, blocks.unsent.front()});
      train::ScatterRowsOp::create(
          builder, loc, updated,
          FlatSymbolRefAttr::get(paramOp.getSymNameAttr()));
      train::ScatterRowsOp::create(
          builder, loc, server,
          FlatSymbolRefAttr::get(context, geoOldName(paramOp)));
      continue;
    }
    SmallVector<Value> server = receiveBlocks(builder, loc, param);
    SmallVector<Value> updated;
    for (auto [serverBlock, unsent] : llvm::zip(server, blocks.unsent))
      updated.push_back(
          train::AddOp::create(builder, loc, serverBlock, unsent));
    train::WriteOp::create(builder, loc, joinBlocks(builder, loc, updated),
                           FlatSymbolRefAttr::get(paramOp.getSymNameAttr()));
    train::WriteOp::create(
        builder, loc, joinBlocks(builder, loc, server),
        FlatSymbolRefAttr::get(context, geoOldName(paramOp)));
  }
  train::YieldOp::create(builder, loc);
  return push;
}

LogicalResult WorkerBuilder::build() {
  FailureOr<train::StepOp> geoPush = train::StepOp();
  if (job.getMode() == ps::Mode::Geo) {
    geoPush = addGeoPush();
  } else {
    insertSends();
    moveOptimizerToServers();
    findPrefetchedTables();
    for (DistributedParam &param : params)
      if (!param.lookups.empty())
        prefetchRows(param);
    receiveUpdatedParameters();
  }
  if (failed(geoPush))
    return failure();
  FailureOr<train::StepOp> startup = addStartup();
  if (failed(startup))
    return failure();

  // The training program becomes the worker program; its parameters are
  // now the worker's local copies, and where their blocks live is stated by
  // the communication ops; the worker holds no copy of a prefetched table.
  auto program = cast<train::ProgramOp>(step->getParentOp());
  for (DistributedParam &param : params) {
    param.update.param->removeAttr(ps::PSDialect::kSlicesAttrName);
    param.update.param->removeAttr(ps::PSDialect::kPlacementAttrName);
    if (!param.lookups.empty())
      param.update.param.erase();
  }
  OpBuilder builder(program);
  auto symbol = [](train::StepOp op) {
    return op ? FlatSymbolRefAttr::get(op.getSymNameAttr())
              : FlatSymbolRefAttr();
  };
  auto worker =
      ps::WorkerOp::create(builder, program.getLoc(), program.getSymNameAttr(),
                           symbol(step), symbol(*startup), symbol(*geoPush));
  worker.getBody().takeBody(program.getBody());
  program.erase();
  return success();
}

/// Returns the norms `servers` clip by, in order of first declaration, each
/// with the servers that declare it, in endpoint order.
static SmallVector<SharedNorm> getSharedNorms(ArrayRef<ps::ServerOp> servers) {
  llvm::MapVector<StringAttr, SmallVector<Attribute>> holders;
  for (ps::ServerOp server : servers)
    for (ps::NormOp norm : server.getBody().getOps<ps::NormOp>())
      holders[norm.getSymNameAttr()].push_back(
          FlatSymbolRefAttr::get(server.getSymNameAttr()));
  SmallVector<SharedNorm> norms;
  for (auto &[name, list] : holders)
    norms.push_back({FlatSymbolRefAttr::get(name),
                     ArrayAttr::get(name.getContext(), list)});
  return norms;
}

/// Returns the server of each of the job's endpoints, in endpoint order, or
/// reports a job endpoint without a server.
static FailureOr<SmallVector<ps::ServerOp>>
getServers(ModuleOp module, ps::JobAttr job, StringRef pass) {
  std::vector<std::string> endpoints = job.getEndpointNames();
  SmallVector<ps::ServerOp> servers(endpoints.size());
  for (ps::ServerOp server : module.getOps<ps::ServerOp>()) {
    StatusOr<Endpoint> endpoint = parseEndpoint(server.getEndpoint());
    auto it =
        endpoint ? llvm::find(endpoints, endpoint->str()) : endpoints.end();
    if (it != endpoints.end())
      servers[it - endpoints.begin()] = server;
  }
  for (auto [endpoint, server] : llvm::zip(endpoints, servers))
    if (!server)
      return emitError((*module.getOps<ps::ServerOp>().begin()).getLoc())
             << pass << ": the job's endpoint " << endpoint
             << " has no 'ps.server'; run openks-build-servers on the "
                "dispatched module";
  return servers;
}

namespace {

struct InsertSendRecvPass
    : public openks::impl::InsertSendRecvPassBase<InsertSendRecvPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkStage(module, getArgument(), TranspileStage::ServersBuilt,
                          TranspileStage::ServersBuilt)))
      return signalPassFailure();
    ps::JobAttr job = getJob(module);
    FailureOr<SmallVector<ps::ServerOp>> servers =
        getServers(module, job, getArgument());
    FailureOr<SmallVector<ParamUpdate>> updates =
        getParamUpdates(findOptimizers(module), getArgument());
    if (failed(servers) || failed(updates))
      return signalPassFailure();

    std::vector<DistributedParam> params;
    SymbolTableCollection symbols;
    SmallVector<bool> used(servers->size(), false);
    auto step = (*updates)[0].optimizer->getParentOfType<train::StepOp>();
    for (ParamUpdate &update : *updates) {
      if (update.optimizer->getParentOfType<train::StepOp>() != step) {
        update.optimizer->emitOpError(
            "is in another step than the first optimizer op; ")
            << getArgument() << " distributes one training step";
        return signalPassFailure();
      }
      DistributedParam &param = params.emplace_back();
      param.update = update;
      for (ParamBlock &block : getParamBlocks(update.param)) {
        ps::ServerOp server = (*servers)[block.server];
        if (!symbols.lookupSymbolIn<ps::BlockOp>(
                server, StringAttr::get(&getContext(), block.name))) {
          update.param.emitOpError(getArgument())
              << ": its block @" << block.name << " is placed on @"
              << server.getSymName()
              << ", which does not hold it; run openks-build-servers on the "
                 "dispatched module";
          return signalPassFailure();
        }
        used[block.server] = true;
        param.blocks.push_back(
            {block, SymbolRefAttr::get(
                        server.getSymNameAttr(),
                        {FlatSymbolRefAttr::get(&getContext(), block.name)})});
      }
    }
    if (!isa_and_nonnull<train::ProgramOp>(step->getParentOp())) {
      train::emitOpErrorAt(step)
          << "is not in a train.program; " << getArgument()
          << " rewrites training programs";
      return signalPassFailure();
    }
    SmallVector<Attribute> barrierServers;
    for (auto [server, isUsed] : llvm::zip(*servers, used))
      if (isUsed)
        barrierServers.push_back(
            FlatSymbolRefAttr::get(server.getSymNameAttr()));
    if (failed(WorkerBuilder(job, step, params,
                             ArrayAttr::get(&getContext(), barrierServers),
                             getSharedNorms(*servers))
                   .build()))
      return signalPassFailure();
  }
};

} // namespace
