//===- TranspileState.cpp - What the transpile passes share ---------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "TranspileState.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace openks;

/// Walks the optimizer ops of the training steps (not those a server's
/// update regions hold).
static WalkResult
walkStepOptimizers(ModuleOp module,
                   function_ref<WalkResult(train::OptimizerOpInterface)> fn) {
  return module.walk([&](train::StepOp step) {
    return step.walk(
        [&](train::OptimizerOpInterface op) { return fn(op); });
  });
}

FailureOr<ps::JobAttr> openks::getJob(ModuleOp module, StringRef pass) {
  if (auto job = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName))
    return job;
  return module.emitError(pass)
         << ": the module has no '" << ps::JobAttr::kAttrName
         << "'; run openks-configure-job first";
}

FailureOr<SmallVector<train::ParamOp>>
openks::getOptimizedParameters(ModuleOp module, StringRef pass) {
  llvm::SetVector<Operation *> params;
  SymbolTableCollection symbols;
  WalkResult result = walkStepOptimizers(module, [&](train::OptimizerOpInterface op) {
    auto param = symbols.lookupNearestSymbolFrom<train::ParamOp>(
        op, op.getParamAttr());
    if (!param) {
      op->emitOpError("updates ")
          << op.getParamAttr() << ", which is not a train.param";
      return WalkResult::interrupt();
    }
    params.insert(param);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (params.empty())
    return module.emitError(pass)
           << ": no optimizer ops to distribute; run openks-minimize first";
  SmallVector<train::ParamOp> ordered;
  for (Operation *param : params)
    ordered.push_back(cast<train::ParamOp>(param));
  return ordered;
}

FailureOr<SmallVector<ParamBlock>> openks::getParamBlocks(train::ParamOp param,
                                                          StringRef pass) {
  auto slices =
      param->getAttrOfType<DenseI64ArrayAttr>(ps::PSDialect::kSlicesAttrName);
  auto placement =
      param->getAttrOfType<ArrayAttr>(ps::PSDialect::kPlacementAttrName);
  if (!slices || !placement)
    return param.emitOpError(pass)
           << " needs '" << ps::PSDialect::kSlicesAttrName << "' and '"
           << ps::PSDialect::kPlacementAttrName
           << "'; run openks-slice-variables and openks-dispatch first";
  SmallVector<ParamBlock> blocks;
  int64_t row = 0;
  for (auto [index, rows, endpoint] :
       llvm::enumerate(slices.asArrayRef(), placement)) {
    std::string name = param.getSymName().str();
    if (slices.size() > 1)
      name += ".block" + std::to_string(index);
    blocks.push_back(
        {name, row, rows, cast<StringAttr>(endpoint).getValue()});
    row += rows;
  }
  return blocks;
}

/// Returns the role an op was tagged with by the minimize passes.
static std::optional<train::Role> roleOf(Operation *op) {
  if (auto role = op->getAttrOfType<train::RoleAttr>(
          train::TrainDialect::kRoleAttrName))
    return role.getValue();
  return std::nullopt;
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
          producer ? roleOf(producer) : std::nullopt;
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
    return roleOf(op) == train::Role::LRSchedule;
  });
  if (usesSchedule)
    for (Operation &op : *update.optimizer->getBlock())
      if (roleOf(&op) == train::Role::LRSchedule)
        ops.insert(&op);
  update.ops = ops.takeVector();
  // Program order, for cloning.
  llvm::sort(update.ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  return success();
}

FailureOr<SmallVector<ParamUpdate>>
openks::getParamUpdates(ModuleOp module, StringRef pass) {
  SmallVector<ParamUpdate> updates;
  llvm::DenseSet<Operation *> seen;
  SymbolTableCollection symbols;
  WalkResult result = walkStepOptimizers(module, [&](train::OptimizerOpInterface op) {
    auto param = symbols.lookupNearestSymbolFrom<train::ParamOp>(
        op, op.getParamAttr());
    if (!param) {
      op->emitOpError("updates ")
          << op.getParamAttr() << ", which is not a train.param";
      return WalkResult::interrupt();
    }
    if (!seen.insert(param).second) {
      op->emitOpError("updates ")
          << op.getParamAttr() << " a second time; " << pass
          << " expects one update per parameter";
      return WalkResult::interrupt();
    }
    ParamUpdate &update = updates.emplace_back();
    update.param = param;
    update.optimizer = op;
    return failed(collectUpdate(update)) ? WalkResult::interrupt()
                                         : WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (updates.empty())
    return module.emitError(pass)
           << ": no optimizer ops to distribute; run openks-minimize first";
  return updates;
}
