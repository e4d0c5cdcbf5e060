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

/// Calls `fn` on every optimizer op of the training steps (not those a
/// server's update regions hold) with the parameter it updates. Reports an
/// update of something that is not a train.param, and a module without
/// optimizer ops.
static LogicalResult forEachOptimizer(
    ModuleOp module, StringRef pass,
    function_ref<LogicalResult(train::OptimizerOpInterface, train::ParamOp)>
        fn) {
  SymbolTableCollection symbols;
  bool any = false;
  WalkResult result = module.walk([&](train::StepOp step) {
    return step.walk([&](train::OptimizerOpInterface op) {
      any = true;
      auto param = symbols.lookupNearestSymbolFrom<train::ParamOp>(
          op, op.getParamAttr());
      if (!param) {
        op->emitOpError("updates ")
            << op.getParamAttr() << ", which is not a train.param";
        return WalkResult::interrupt();
      }
      return failed(fn(op, param)) ? WalkResult::interrupt()
                                   : WalkResult::advance();
    });
  });
  if (result.wasInterrupted())
    return failure();
  if (!any)
    return module.emitError(pass)
           << ": no optimizer ops to distribute; run openks-minimize first";
  return success();
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
  if (failed(forEachOptimizer(module, pass,
                              [&](train::OptimizerOpInterface,
                                  train::ParamOp param) {
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
  llvm::sort(update.ops, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });

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
  return success();
}

FailureOr<SmallVector<ParamUpdate>>
openks::getParamUpdates(ModuleOp module, StringRef pass) {
  SmallVector<ParamUpdate> updates;
  llvm::DenseSet<Operation *> seen;
  if (failed(forEachOptimizer(
          module, pass,
          [&](train::OptimizerOpInterface op,
              train::ParamOp param) -> LogicalResult {
            if (!seen.insert(param).second)
              return op->emitOpError("updates ")
                     << op.getParamAttr() << " a second time; " << pass
                     << " expects one update per parameter";
            ParamUpdate &update = updates.emplace_back();
            update.param = param;
            update.optimizer = op;
            return collectUpdate(update);
          })))
    return failure();
  return updates;
}
