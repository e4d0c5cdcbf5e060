//===- InsertSendRecv.cpp - The worker program ----------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

namespace openks {
#define GEN_PASS_DEF_INSERTSENDRECVPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

/// A parameter the worker trades with the servers, with its blocks.
struct DistributedParam {
  ParamUpdate update;
  SmallVector<ParamBlock> blocks;
};

/// Rewrites one training program into its worker program.
class WorkerBuilder {
public:
  WorkerBuilder(ps::JobAttr job, train::StepOp step,
                MutableArrayRef<DistributedParam> params)
      : job(job), step(step), params(params),
        context(step.getContext()) {}

  LogicalResult build();

private:
  bool hasBarriers() const {
    return job.getMode() == ps::Mode::Sync ||
           job.getMode() == ps::Mode::HalfAsync;
  }
  SmallVector<Attribute> allEndpoints() const {
    return SmallVector<Attribute>(job.getEndpoints().getValue());
  }
  /// Splits `value` into the parameter's blocks (or returns it whole).
  SmallVector<Value> splitIntoBlocks(OpBuilder &builder, Location loc,
                                     Value value,
                                     const DistributedParam &param);
  /// Receives every block of `param` and returns them.
  SmallVector<Value> receiveBlocks(OpBuilder &builder, Location loc,
                                   DistributedParam &param);
  /// Joins received blocks back into the whole parameter.
  Value joinBlocks(OpBuilder &builder, Location loc, ArrayRef<Value> blocks);

  void insertSends();
  void moveOptimizerToServers();
  void receiveUpdatedParameters();
  LogicalResult addStartup();
  LogicalResult addGeoPush();

  ps::JobAttr job;
  train::StepOp step;
  MutableArrayRef<DistributedParam> params;
  MLIRContext *context;
};

} // namespace

SmallVector<Value> WorkerBuilder::splitIntoBlocks(OpBuilder &builder,
                                                  Location loc, Value value,
                                                  const DistributedParam &param) {
  if (param.blocks.size() == 1)
    return {value};
  SmallVector<int64_t> rows;
  for (const ParamBlock &block : param.blocks)
    rows.push_back(block.rows);
  auto split = ps::SplitOp::create(builder, loc, value,
                                   builder.getDenseI64ArrayAttr(rows));
  return SmallVector<Value>(split.getOutputs());
}

SmallVector<Value> WorkerBuilder::receiveBlocks(OpBuilder &builder,
                                                Location loc,
                                                DistributedParam &param) {
  RankedTensorType type = param.update.param.getParameterType();
  SmallVector<Value> received;
  for (const ParamBlock &block : param.blocks)
    received.push_back(ps::RecvOp::create(
        builder, loc, withRows(type, block.rows),
        builder.getStringAttr(block.name),
        builder.getStringAttr(block.endpoint)));
  return received;
}

Value WorkerBuilder::joinBlocks(OpBuilder &builder, Location loc,
                                ArrayRef<Value> blocks) {
  if (blocks.size() == 1)
    return blocks.front();
  return ps::ConcatOp::create(builder, loc, blocks);
}

void WorkerBuilder::insertSends() {
  // Sends follow the gradient's producer; several gradients of one producer
  // keep parameter order.
  llvm::DenseMap<Operation *, Operation *> lastInserted;
  Block &body = step.getBody().front();
  for (DistributedParam &param : params) {
    Value grad = param.update.grad;
    Operation *producer = grad.getDefiningOp();
    OpBuilder builder(context);
    if (Operation *last = lastInserted.lookup(producer))
      builder.setInsertionPointAfter(last);
    else if (producer)
      builder.setInsertionPointAfter(producer);
    else
      builder.setInsertionPointToStart(&body);
    Location loc = param.update.optimizer->getLoc();
    for (auto [part, block] :
         llvm::zip(splitIntoBlocks(builder, loc, grad, param), param.blocks))
      lastInserted[producer] =
          ps::SendOp::create(builder, loc, part,
                             builder.getStringAttr(block.endpoint),
                             builder.getStringAttr(block.name + "@GRAD"));
  }
}

void WorkerBuilder::moveOptimizerToServers() {
  llvm::DenseSet<Operation *> serverOps;
  llvm::DenseSet<Attribute> stateNames;
  for (DistributedParam &param : params) {
    serverOps.insert(param.update.ops.begin(), param.update.ops.end());
    stateNames.insert(param.update.state.begin(), param.update.state.end());
  }
  // Users come after their producers: erase from the back.
  Block &body = step.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (serverOps.contains(&op) && op.use_empty())
      op.erase();
  // Optimizer state and the learning rate live on the servers only.
  Operation *program = step->getParentOp();
  llvm::DenseSet<Attribute> stillUsed;
  if (std::optional<SymbolTable::UseRange> uses =
          SymbolTable::getSymbolUses(&program->getRegion(0)))
    for (const SymbolTable::SymbolUse &use : *uses)
      stillUsed.insert(use.getSymbolRef().getRootReference());
  for (Operation &op : llvm::make_early_inc_range(program->getRegion(0).front()))
    if (auto param = dyn_cast<train::ParamOp>(op);
        param && stateNames.contains(param.getSymNameAttr()) &&
        !stillUsed.contains(param.getSymNameAttr()))
      param.erase();
}

void WorkerBuilder::receiveUpdatedParameters() {
  Block &body = step.getBody().front();
  OpBuilder builder(body.getTerminator());
  Location loc = step.getLoc();
  if (hasBarriers())
    ps::SendBarrierOp::create(builder, loc,
                              builder.getArrayAttr(allEndpoints()));
  SmallVector<SmallVector<Value>> received;
  for (DistributedParam &param : params)
    received.push_back(receiveBlocks(builder, loc, param));
  if (job.getMode() == ps::Mode::Sync)
    ps::FetchBarrierOp::create(builder, loc,
                               builder.getArrayAttr(allEndpoints()));
  for (auto [param, blocks] : llvm::zip(params, received))
    train::WriteOp::create(builder, loc, joinBlocks(builder, loc, blocks),
                           FlatSymbolRefAttr::get(
                               param.update.param.getSymNameAttr()));
}

/// Returns the name of the GEO copy of `param`'s last synchronised value.
static std::string geoOldName(train::ParamOp param) {
  return (param.getSymName() + ".geo_old").str();
}

LogicalResult WorkerBuilder::addStartup() {
  Operation *program = step->getParentOp();
  if (SymbolTable::lookupSymbolIn(program, "startup"))
    return step.emitOpError("shares its program with a symbol @startup; the "
                            "worker's startup step needs that name");
  OpBuilder builder(context);
  builder.setInsertionPointAfter(step);
  Location loc = step.getLoc();
  auto startup = train::StepOp::create(builder, loc, "startup",
                                       builder.getFunctionType({}, {}));
  builder.setInsertionPointToStart(&startup.getBody().front());
  SmallVector<SmallVector<Value>> received;
  for (DistributedParam &param : params)
    received.push_back(receiveBlocks(builder, loc, param));
  ps::FetchBarrierOp::create(builder, loc,
                             builder.getArrayAttr(allEndpoints()));
  for (auto [param, blocks] : llvm::zip(params, received)) {
    Value whole = joinBlocks(builder, loc, blocks);
    train::ParamOp paramOp = param.update.param;
    train::WriteOp::create(builder, loc, whole,
                           FlatSymbolRefAttr::get(paramOp.getSymNameAttr()));
    if (job.getMode() == ps::Mode::Geo)
      train::WriteOp::create(
          builder, loc, whole,
          FlatSymbolRefAttr::get(context, geoOldName(paramOp)));
  }
  train::YieldOp::create(builder, loc);
  return success();
}

LogicalResult WorkerBuilder::addGeoPush() {
  Operation *program = step->getParentOp();
  if (SymbolTable::lookupSymbolIn(program, "geo_push"))
    return step.emitOpError("shares its program with a symbol @geo_push; "
                            "the GEO push step needs that name");
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
                           paramOp.getParameterType(),
                           paramOp.getInitializer(), /*frozen=*/true);
  }

  builder.setInsertionPointAfter(step);
  auto push = train::StepOp::create(builder, loc, "geo_push",
                                    builder.getFunctionType({}, {}));
  builder.setInsertionPointToStart(&push.getBody().front());
  double share = 1.0 / static_cast<double>(job.getTrainers());
  struct Pushed {
    SmallVector<Value> local, negativeOld;
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
    blocks.local = splitIntoBlocks(builder, loc, local, param);
    for (auto [localBlock, oldBlock, block] :
         llvm::zip(blocks.local, splitIntoBlocks(builder, loc, old, param),
                   param.blocks)) {
      // delta = (local - old) / trainers
      Value negativeOld =
          train::ScaleOp::create(builder, loc, oldBlock.getType(), oldBlock,
                                 builder.getF64FloatAttr(-1.0));
      blocks.negativeOld.push_back(negativeOld);
      Value change = train::AddOp::create(builder, loc, localBlock,
                                          negativeOld);
      Value delta = train::ScaleOp::create(builder, loc, change.getType(),
                                           change,
                                           builder.getF64FloatAttr(share));
      ps::SendOp::create(builder, loc, delta,
                         builder.getStringAttr(block.endpoint),
                         builder.getStringAttr(block.name + ".delta"));
    }
  }
  for (auto [param, blocks] : llvm::zip(params, pushed)) {
    SmallVector<Value> server = receiveBlocks(builder, loc, param);
    SmallVector<Value> updated;
    for (auto [serverBlock, localBlock, negativeOld] :
         llvm::zip(server, blocks.local, blocks.negativeOld)) {
      // local += server - old
      Value change =
          train::AddOp::create(builder, loc, serverBlock, negativeOld);
      updated.push_back(
          train::AddOp::create(builder, loc, localBlock, change));
    }
    train::ParamOp paramOp = param.update.param;
    train::WriteOp::create(builder, loc, joinBlocks(builder, loc, updated),
                           FlatSymbolRefAttr::get(paramOp.getSymNameAttr()));
    train::WriteOp::create(builder, loc, joinBlocks(builder, loc, server),
                           FlatSymbolRefAttr::get(context,
                                                  geoOldName(paramOp)));
  }
  train::YieldOp::create(builder, loc);
  return success();
}

LogicalResult WorkerBuilder::build() {
  if (job.getMode() == ps::Mode::Geo) {
    if (failed(addGeoPush()))
      return failure();
  } else {
    insertSends();
    moveOptimizerToServers();
    receiveUpdatedParameters();
  }
  if (failed(addStartup()))
    return failure();

  // The training program becomes the worker program.
  auto program = cast<train::ProgramOp>(step->getParentOp());
  OpBuilder builder(program);
  auto worker =
      ps::WorkerOp::create(builder, program.getLoc(), program.getSymName());
  worker.getBody().takeBody(program.getBody());
  program.erase();
  return success();
}

namespace {

struct InsertSendRecvPass
    : public openks::impl::InsertSendRecvPassBase<InsertSendRecvPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ps::JobAttr> job = getJob(module, getArgument());
    if (failed(job))
      return signalPassFailure();
    FailureOr<SmallVector<ParamUpdate>> updates =
        getParamUpdates(module, getArgument());
    if (failed(updates))
      return signalPassFailure();

    SmallVector<DistributedParam> params;
    auto step = (*updates)[0].optimizer->getParentOfType<train::StepOp>();
    for (ParamUpdate &update : *updates) {
      if (update.optimizer->getParentOfType<train::StepOp>() != step) {
        update.optimizer->emitOpError(
            "is in another step than the first optimizer op; ")
            << getArgument() << " distributes one training step";
        return signalPassFailure();
      }
      FailureOr<SmallVector<ParamBlock>> blocks =
          getParamBlocks(update.param, getArgument());
      if (failed(blocks))
        return signalPassFailure();
      params.push_back({update, *blocks});
    }
    if (!isa_and_nonnull<train::ProgramOp>(step->getParentOp())) {
      step.emitOpError("is not in a train.program; ")
          << getArgument() << " rewrites training programs";
      return signalPassFailure();
    }
    if (failed(WorkerBuilder(*job, step, params).build()))
      return signalPassFailure();
  }
};

} // namespace
