//===- TranspileState.cpp - What the transpile passes share ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TranspileState.h"
#include "openks/Dialect/PS/IR/PSNaming.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace openks;

SmallVector<OptimizerUse> openks::findOptimizers(ModuleOp module) {
  SymbolTableCollection symbols;
  SmallVector<OptimizerUse> uses;
  // The ops of one block share their nearest symbol table.
  Block *block = nullptr;
  Operation *table = nullptr;
  // Steps do not nest: once a step is walked, its body is skipped.
  module.walk<WalkOrder::PreOrder>([&](train::StepOp step) {
    step.walk([&](train::OptimizerOpInterface op) {
      if (op->getBlock() != block) {
        block = op->getBlock();
        table = SymbolTable::getNearestSymbolTable(op);
      }
      Operation *param = table ? symbols.getSymbolTable(table).lookup(
                                     op.getParamAttr().getAttr())
                               : nullptr;
      uses.push_back({op, dyn_cast_or_null<train::ParamOp>(param)});
    });
    return WalkResult::skip();
  });
  return uses;
}

/// Calls `fn` on every optimizer op of the training steps with the
/// parameter it updates. Reports an update of something that is not a
/// train.param.
static LogicalResult forEachOptimizer(
    ArrayRef<OptimizerUse> optimizers,
    function_ref<LogicalResult(train::OptimizerOpInterface, train::ParamOp)>
        fn) {
  for (auto [op, param] : optimizers) {
    if (!param)
      return op->emitOpError("updates ")
             << op.getParamAttr() << ", which is not a train.param";
    if (failed(fn(op, param)))
      return failure();
  }
  return success();
}

namespace {

/// The stage of a module and the op that shows it, for diagnostics; null
/// for the module's first step (or the module itself when it has none),
/// which is only looked for when a diagnostic needs it.
struct StageWitness {
  TranspileStage stage = TranspileStage::Forward;
  Operation *op = nullptr;
};

} // namespace

/// Returns how far `module` has come, and on which op to say so. Calls
/// `getOptimizers` only when the module has no servers yet.
static StageWitness
getStage(ModuleOp module,
         function_ref<ArrayRef<OptimizerUse>()> getOptimizers) {
  for (Operation &op : *module.getBody())
    if (isa<ps::WorkerOp>(op))
      return {TranspileStage::Transpiled, &op};
  for (Operation &op : *module.getBody())
    if (isa<ps::ServerOp>(op))
      return {TranspileStage::ServersBuilt, &op};

  // The parameters optimizer ops update.
  StageWitness witness{TranspileStage::Forward, nullptr};
  SmallVector<train::ParamOp> params;
  for (auto [op, param] : getOptimizers())
    if (param)
      params.push_back(param);
  if (params.empty())
    return witness;
  witness.stage = TranspileStage::Minimized;
  if (!module->hasAttr(ps::JobAttr::kAttrName))
    return witness;
  witness.stage = TranspileStage::Configured;
  for (StringRef attr :
       {ps::PSDialect::kSlicesAttrName, ps::PSDialect::kPlacementAttrName}) {
    for (train::ParamOp param : params)
      if (!param->hasAttr(attr))
        return {witness.stage, param};
    witness.stage = attr == ps::PSDialect::kSlicesAttrName
                        ? TranspileStage::Sliced
                        : TranspileStage::Dispatched;
  }
  return witness;
}

/// Returns the op a diagnostic about `module`'s stage points at: the
/// witness, or else the module's first step, or else the module.
static Operation *getWitnessOp(ModuleOp module, const StageWitness &witness) {
  if (witness.op)
    return witness.op;
  Operation *op = module;
  module.walk([&](train::StepOp step) {
    op = step;
    return WalkResult::interrupt();
  });
  return op;
}

/// Returns what a module at `stage` lacks to reach the next stage, and the
/// pass that provides it.
static std::pair<StringRef, StringRef> getNextStep(TranspileStage stage) {
  switch (stage) {
  case TranspileStage::Forward:
    return {"has no optimizer ops", "openks-minimize"};
  case TranspileStage::Minimized:
    return {"has no '#ps.job'", "openks-configure-job"};
  case TranspileStage::Configured:
    return {"has no 'ps.slices'", "openks-slice-variables"};
  case TranspileStage::Sliced:
    return {"has no 'ps.placement'", "openks-dispatch"};
  case TranspileStage::Dispatched:
    return {"has no 'ps.server'", "openks-build-servers"};
  case TranspileStage::ServersBuilt:
    return {"has no 'ps.worker'", "openks-insert-send-recv"};
  case TranspileStage::Transpiled:
    break;
  }
  llvm_unreachable("a transpiled module needs nothing more");
}

/// Returns what a module at `stage` has become, for "already" messages.
static StringRef describeStage(TranspileStage stage) {
  switch (stage) {
  case TranspileStage::Forward:
  case TranspileStage::Minimized:
    return "minimized";
  case TranspileStage::Configured:
    return "configured";
  case TranspileStage::Sliced:
    return "sliced";
  case TranspileStage::Dispatched:
    return "dispatched";
  case TranspileStage::ServersBuilt:
    return "given its servers";
  case TranspileStage::Transpiled:
    return "transpiled";
  }
  llvm_unreachable("unknown stage");
}

/// Checks the stage of `module` as checkStage does; `getOptimizers` is
/// called at most once.
static LogicalResult
checkStageImpl(ModuleOp module,
               function_ref<ArrayRef<OptimizerUse>()> getOptimizers,
               StringRef pass, TranspileStage first, TranspileStage last) {
  StageWitness witness = getStage(module, getOptimizers);
  if (witness.stage < first) {
    auto [lack, next] = getNextStep(witness.stage);
    Operation *op = getWitnessOp(module, witness);
    // The witness may be a large program or step: no op text in the error.
    return emitError(op->getLoc())
           << pass << ": the " << (isa<ModuleOp>(op) ? "module" : "program")
           << " " << lack << "; run " << next << " first";
  }
  if (witness.stage > last) {
    StringRef next = getNextStep(last).second;
    InFlightDiagnostic diag = emitError(getWitnessOp(module, witness)->getLoc())
                              << pass << ": the module is already "
                              << describeStage(witness.stage) << "; ";
    if (next == pass)
      return diag << pass << " has already run";
    return diag << pass << " must run before " << next;
  }
  return success();
}

LogicalResult openks::checkStage(ModuleOp module, StringRef pass,
                                 TranspileStage first, TranspileStage last) {
  SmallVector<OptimizerUse> optimizers;
  return checkStageImpl(
      module,
      [&]() -> ArrayRef<OptimizerUse> {
        optimizers = findOptimizers(module);
        return optimizers;
      },
      pass, first, last);
}

LogicalResult openks::checkStage(ModuleOp module,
                                 ArrayRef<OptimizerUse> optimizers,
                                 StringRef pass, TranspileStage first,
                                 TranspileStage last) {
  return checkStageImpl(
      module, [&]() { return optimizers; }, pass, first, last);
}

ps::JobAttr openks::getJob(ModuleOp module) {
  return module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
}

FailureOr<SmallVector<train::ParamOp>>
openks::getOptimizedParameters(ArrayRef<OptimizerUse> optimizers) {
  llvm::SetVector<Operation *> params;
  if (failed(forEachOptimizer(
          optimizers, [&](train::OptimizerOpInterface, train::ParamOp param) {
            params.insert(param);
            return success();
          })))
    return failure();
  SmallVector<train::ParamOp> ordered;
  for (Operation *param : params)
    ordered.push_back(cast<train::ParamOp>(param));
  return ordered;
}

RankedTensorType openks::withRows(RankedTensorType type, int64_t rows) {
  if (type.getRank() == 0)
    return type;
  SmallVector<int64_t> shape(type.getShape());
  shape[0] = rows;
  return RankedTensorType::get(shape, type.getElementType());
}

SmallVector<ParamBlock> openks::getParamBlocks(train::ParamOp param) {
  auto slices =
      param->getAttrOfType<DenseI64ArrayAttr>(ps::PSDialect::kSlicesAttrName);
  auto placement = param->getAttrOfType<DenseI64ArrayAttr>(
      ps::PSDialect::kPlacementAttrName);
  SmallVector<ParamBlock> blocks;
  int64_t row = 0;
  for (auto [index, rows, server] :
       llvm::enumerate(slices.asArrayRef(), placement.asArrayRef())) {
    blocks.push_back(
        {ps::getBlockName(param.getSymName(), index, slices.size()), row, rows,
         server});
    row += rows;
  }
  return blocks;
}

/// Collects the optimize-role ops `optimizer` depends on and the one value
/// from outside them, the gradient.
static LogicalResult collectUpdate(ParamUpdate &update) {
  llvm::SetVector<Operation *> ops;
  SmallVector<Operation *> worklist = {update.optimizer};
  while (!worklist.empty()) {
    Operation *op = worklist.pop_back_val();
    if (!ops.insert(op))
      continue;
    for (Value operand : op->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      std::optional<train::Role> role =
          producer ? train::getRole(producer) : std::nullopt;
      if (role == train::Role::Optimize || role == train::Role::LRSchedule) {
        worklist.push_back(producer);
        continue;
      }
      if (update.grad && update.grad != operand)
        return update.optimizer->emitOpError("depends on two values from "
                                             "outside its optimize-role ops ")
               << "(gradients), where the transpiler expects one";
      update.grad = operand;
    }
  }
  // The schedule's side effects (advancing its step counter) belong to
  // every update that reads its rate.
  bool usesSchedule = llvm::any_of(ops, [](Operation *op) {
    return train::getRole(op) == train::Role::LRSchedule;
  });
  if (usesSchedule)
    for (Operation &op : *update.optimizer->getBlock())
      if (train::getRole(&op) == train::Role::LRSchedule)
        ops.insert(&op);
  update.ops = ops.takeVector();
  // Program order, for cloning.
  llvm::sort(update.ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });

  llvm::SetVector<StringAttr> state;
  for (FlatSymbolRefAttr name : update.optimizer.getElementwiseState())
    state.insert(name.getAttr());
  for (FlatSymbolRefAttr name : update.optimizer.getScalarState())
    state.insert(name.getAttr());
  for (Operation *op : update.ops) {
    if (auto read = dyn_cast<train::ReadOp>(op))
      state.insert(read.getParamAttr().getAttr());
    if (auto write = dyn_cast<train::WriteOp>(op))
      state.insert(write.getParamAttr().getAttr());
  }
  state.remove(update.param.getSymNameAttr());
  update.state = state.takeVector();

  if (auto result = dyn_cast<OpResult>(update.grad))
    if (auto clip = dyn_cast<train::ClipByGlobalNormOp>(result.getOwner())) {
      update.globalClip = clip;
      update.unclippedGrad = clip.getGrads()[result.getResultNumber()];
    }
  return success();
}

FailureOr<SmallVector<ParamUpdate>>
openks::getParamUpdates(ArrayRef<OptimizerUse> optimizers, StringRef pass) {
  SmallVector<ParamUpdate> updates;
  llvm::DenseSet<Operation *> seen;
  if (failed(forEachOptimizer(optimizers,
                              [&](train::OptimizerOpInterface op,
                                  train::ParamOp param) -> LogicalResult {
                                if (!seen.insert(param).second)
                                  return op->emitOpError("updates ")
                                         << op.getParamAttr()
                                         << " a second time; " << pass
                                         << " expects one update per parameter";
                                ParamUpdate &update = updates.emplace_back();
                                update.param = param;
                                update.optimizer = op;
                                return collectUpdate(update);
                              })))
    return failure();
  return updates;
}
