//===- AppendOptimizer.cpp - Optimizer updates from parameter gradients ---===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "CheckedOptionsPass.h"
#include "openks/Transforms/Passes.h"

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

#include <optional>

namespace openks {
#define GEN_PASS_DEF_APPENDOPTIMIZERPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;
using namespace openks::train;

/// Names Paddle gives the learning-rate schedule's step counter.
static constexpr llvm::StringLiteral kStepCounterName = "@LR_DECAY_COUNTER@";
static constexpr llvm::StringLiteral kLearningRateName = "learning_rate";

namespace {

struct AppendOptimizerPass
    : public CheckedOptionsPass<
          openks::impl::AppendOptimizerPassBase<AppendOptimizerPass>> {
  using CheckedOptionsPass::CheckedOptionsPass;
  template <typename OptionsT>
  friend std::string openks::checkAppendOptimizerOptions(const OptionsT &);

  std::string checkOptions() override {
    return checkAppendOptimizerOptions(*this);
  }

  void runOnOperation() override;

private:
  LogicalResult rewriteStep(StepOp step);
  /// Creates a frozen parameter `name` before `step`, or fails on `step` if
  /// the name is taken.
  FailureOr<FlatSymbolRefAttr> createState(StepOp step, StringRef name,
                                           RankedTensorType type, double value);

  /// The symbol table of the program being rewritten (one lookup structure
  /// for all state parameters keeps the pass linear).
  std::optional<SymbolTable> programSymbols;
  /// Emits the learning rate of this step, tagged with its roles.
  FailureOr<Value> emitLearningRate(OpBuilder &builder, StepOp step,
                                    Type elementType);
  /// Emits the update of one parameter.
  LogicalResult emitUpdate(OpBuilder &builder, StepOp step,
                           FlatSymbolRefAttr param, Value grad, Value lr);
};

} // namespace

FailureOr<FlatSymbolRefAttr>
AppendOptimizerPass::createState(StepOp step, StringRef name,
                                 RankedTensorType type, double value) {
  if (programSymbols->lookup(name))
    return emitOpErrorAt(step)
           << "needs optimizer state @" << name << ", but the name is taken";
  OpBuilder builder(step);
  auto param = ParamOp::create(
      builder, step.getLoc(), name, type,
      ConstantInitAttr::get(step.getContext(), llvm::APFloat(value)),
      /*frozen=*/true);
  programSymbols->insert(param);
  return FlatSymbolRefAttr::get(param.getSymNameAttr());
}

FailureOr<Value> AppendOptimizerPass::emitLearningRate(OpBuilder &builder,
                                                       StepOp step,
                                                       Type elementType) {
  Location loc = step.getLoc();
  auto scalar = RankedTensorType::get({}, elementType);
  if (lrSchedule == LRSchedule::Constant) {
    FailureOr<FlatSymbolRefAttr> rate =
        createState(step, kLearningRateName, scalar, learningRate);
    if (failed(rate))
      return failure();
    auto read = ReadOp::create(builder, loc, scalar, *rate);
    setRole(read, Role::Optimize);
    return read.getValue();
  }
  auto counterType = RankedTensorType::get({}, builder.getI64Type());
  FailureOr<FlatSymbolRefAttr> counter =
      createState(step, kStepCounterName, counterType, 0);
  if (failed(counter))
    return failure();
  auto stepValue = ReadOp::create(builder, loc, counterType, *counter);
  Value rate;
  if (lrSchedule == LRSchedule::Exponential)
    rate = ExponentialDecayOp::create(
        builder, loc, scalar, stepValue, builder.getF64FloatAttr(learningRate),
        builder.getF64FloatAttr(decayRate),
        builder.getI64IntegerAttr(decaySteps),
        staircase ? builder.getUnitAttr() : nullptr);
  else
    rate = PiecewiseDecayOp::create(
        builder, loc, scalar, stepValue,
        builder.getDenseI64ArrayAttr(
            SmallVector<int64_t>(boundaries.begin(), boundaries.end())),
        builder.getDenseF64ArrayAttr(
            SmallVector<double>(values.begin(), values.end())));
  auto next = IncrementOp::create(builder, loc, stepValue);
  auto write = WriteOp::create(builder, loc, next, *counter);
  for (Operation *op : {stepValue.getOperation(), rate.getDefiningOp(),
                        next.getOperation(), write.getOperation()})
    setRole(op, Role::LRSchedule);
  return rate;
}

LogicalResult AppendOptimizerPass::emitUpdate(OpBuilder &builder, StepOp step,
                                              FlatSymbolRefAttr param,
                                              Value grad, Value lr) {
  Location loc = grad.getLoc();
  auto type = cast<RankedTensorType>(grad.getType());
  std::string name = param.getValue().str();
  if (weightDecay > 0) {
    auto value = ReadOp::create(builder, loc, type, param);
    auto decay = ScaleOp::create(builder, loc, type, value,
                                 builder.getF64FloatAttr(weightDecay));
    auto regularized = AddOp::create(builder, loc, grad, decay);
    for (Operation *op : {value.getOperation(), decay.getOperation(),
                          regularized.getOperation()})
      setRole(op, Role::Optimize);
    grad = regularized;
  }
  auto scalar = RankedTensorType::get({}, type.getElementType());
  Operation *update = nullptr;
  switch (optimizer) {
  case OptimizerKind::SGD:
    update = SgdOp::create(builder, loc, param, grad, lr);
    break;
  case OptimizerKind::Momentum: {
    FailureOr<FlatSymbolRefAttr> velocity =
        createState(step, name + ".velocity", type, 0);
    if (failed(velocity))
      return failure();
    update = MomentumOp::create(builder, loc, param, grad, lr, *velocity,
                                builder.getF64FloatAttr(momentum),
                                nesterov ? builder.getUnitAttr() : nullptr);
    break;
  }
  case OptimizerKind::Adam: {
    SmallVector<FlatSymbolRefAttr, 4> state;
    for (auto [suffix, stateType, init] :
         {std::tuple(".moment1", type, 0.0), std::tuple(".moment2", type, 0.0),
          std::tuple(".beta1_pow", scalar, double(beta1)),
          std::tuple(".beta2_pow", scalar, double(beta2))}) {
      FailureOr<FlatSymbolRefAttr> symbol =
          createState(step, name + suffix, stateType, init);
      if (failed(symbol))
        return failure();
      state.push_back(*symbol);
    }
    update = AdamOp::create(
        builder, loc, param, grad, lr, state[0], state[1], state[2], state[3],
        builder.getF64FloatAttr(beta1), builder.getF64FloatAttr(beta2),
        builder.getF64FloatAttr(epsilon > 0 ? epsilon : 1e-8));
    break;
  }
  case OptimizerKind::Adagrad: {
    FailureOr<FlatSymbolRefAttr> moment =
        createState(step, name + ".moment", type, 0);
    if (failed(moment))
      return failure();
    update = AdagradOp::create(
        builder, loc, param, grad, lr, *moment,
        builder.getF64FloatAttr(epsilon > 0 ? epsilon : 1e-6));
    break;
  }
  }
  setRole(update, Role::Optimize);
  return success();
}

LogicalResult AppendOptimizerPass::rewriteStep(StepOp step) {
  SmallVector<ParamGradOp> paramGrads;
  step.walk([&](ParamGradOp op) { paramGrads.push_back(op); });
  if (paramGrads.empty())
    return emitOpErrorAt(step) << "has no parameter gradients to apply; run "
                                  "openks-append-backward first";
  llvm::sort(paramGrads, [](ParamGradOp a, ParamGradOp b) {
    return a.getParam() < b.getParam();
  });
  Type elementType = paramGrads.front().getGrad().getType().getElementType();
  for (ParamGradOp op : paramGrads)
    if (op.getGrad().getType().getElementType() != elementType)
      return op.emitOpError("has element type ")
             << op.getGrad().getType().getElementType()
             << ", but the first parameter has " << elementType
             << ": one learning rate serves only one element type";

  programSymbols.emplace(step->getParentOp());
  OpBuilder builder(step.getBody().front().getTerminator());
  SmallVector<Value> grads;
  for (ParamGradOp op : paramGrads)
    grads.push_back(op.getGrad());
  if (clipGlobalNorm > 0) {
    auto clip = ClipByGlobalNormOp::create(
        builder, step.getLoc(), ValueRange(grads).getTypes(), grads,
        builder.getF64FloatAttr(clipGlobalNorm));
    setRole(clip, Role::Backward);
    grads.assign(clip.getClipped().begin(), clip.getClipped().end());
  }
  FailureOr<Value> lr = emitLearningRate(builder, step, elementType);
  if (failed(lr))
    return failure();
  for (auto [op, grad] : llvm::zip(paramGrads, grads))
    if (failed(emitUpdate(builder, step, op.getParamAttr(), grad, *lr)))
      return failure();
  for (ParamGradOp op : paramGrads)
    op.erase();
  return success();
}

void AppendOptimizerPass::runOnOperation() {
  // Options parsed from text were checked then; these may come from C++.
  // Once slicing has started, new updates would have no blocks.
  if (failed(checkOptionsOnRun()) ||
      failed(checkStage(getOperation(), getArgument(), TranspileStage::Forward,
                        TranspileStage::Configured)))
    return signalPassFailure();
  SmallVector<StepOp> steps;
  getOperation().walk([&](StepOp step) { steps.push_back(step); });
  if (steps.empty()) {
    getOperation().emitError("openks-append-optimizer: no train.step to "
                             "optimize");
    return signalPassFailure();
  }
  for (StepOp step : steps)
    if (failed(rewriteStep(step)))
      return signalPassFailure();
}
