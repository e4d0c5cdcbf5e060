//===- AppendOptimizer.cpp - Optimizer updates from parameter gradients ---===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Paddle's Optimizer.apply_gradients: per parameter, in name order, the
// gradient is clipped, regularized and applied with the parameter's
// learning rate. A parameter's own settings (its ParamAttr) take precedence
// over the optimizer's.
//
//===----------------------------------------------------------------------===//

#include "CheckedOptionsPass.h"
#include "openks/Transforms/Passes.h"

#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Support/OptimizerNames.h"

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

using namespace openks::optimizer_names;

/// The names Paddle gives the learning-rate schedule's step counter and the
/// learning rate.
static constexpr llvm::StringRef kStepCounterName = kStepCounter;
static constexpr llvm::StringRef kLearningRateName = kLearningRate;

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
  /// One state parameter an optimizer needs: `<param><suffix>`, of `type`,
  /// starting at `init`.
  struct StateSpec {
    StringRef suffix;
    RankedTensorType type;
    double init;
  };

  LogicalResult rewriteStep(StepOp step);
  /// Creates a frozen parameter `name` before `step`, or fails on `step` if
  /// the name is taken.
  FailureOr<FlatSymbolRefAttr> createState(StepOp step, StringRef name,
                                           RankedTensorType type, double value);
  /// Creates the state parameters of `param` that `specs` describe.
  FailureOr<SmallVector<FlatSymbolRefAttr>>
  createStates(StepOp step, ParamOp param, ArrayRef<StateSpec> specs);

  /// The symbol table of the program being rewritten (one lookup structure
  /// for all state parameters keeps the pass linear).
  std::optional<SymbolTable> programSymbols;
  /// Emits the learning rate of this step, tagged with its roles.
  FailureOr<Value> emitLearningRate(OpBuilder &builder, StepOp step,
                                    Type elementType);
  /// Emits the parameter's own clipping of `grad`, if it has one.
  Value emitClip(OpBuilder &builder, ParamOp param, Value grad);
  /// Emits the regularization of `grad`: the parameter's own, or else the
  /// optimizer's weight decay.
  Value emitRegularization(OpBuilder &builder, ParamOp param, Value grad);
  /// Emits the update of one parameter.
  LogicalResult emitUpdate(OpBuilder &builder, StepOp step, ParamOp param,
                           Value grad, Value lr);
  /// Emits the optimizer op of `param` with its state.
  FailureOr<Operation *> emitOptimizer(OpBuilder &builder, StepOp step,
                                       ParamOp param, Value grad, Value lr);
  /// Returns the epsilon option, or `fallback` when it is 0.
  double epsilonOr(double fallback) const {
    return epsilon > 0 ? double(epsilon) : fallback;
  }
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

FailureOr<SmallVector<FlatSymbolRefAttr>>
AppendOptimizerPass::createStates(StepOp step, ParamOp param,
                                  ArrayRef<StateSpec> specs) {
  SmallVector<FlatSymbolRefAttr> state;
  for (const StateSpec &spec : specs) {
    FailureOr<FlatSymbolRefAttr> symbol = createState(
        step, (param.getSymName() + spec.suffix).str(), spec.type, spec.init);
    if (failed(symbol))
      return failure();
    state.push_back(*symbol);
  }
  return state;
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

/// Tags `ops` as optimize-role ops and returns the value of the last.
static Value optimizeRole(std::initializer_list<Operation *> ops) {
  for (Operation *op : ops)
    setRole(op, Role::Optimize);
  return ops.end()[-1]->getResult(0);
}

/// Returns `grad` as a dense tensor. A row-sparse gradient is scattered into
/// its table by an op of role `role`, with a warning that `param`'s update
/// becomes dense because `reason`.
static Value densify(OpBuilder &builder, ParamOp param, Value grad, Role role,
                     StringRef reason) {
  auto rows = dyn_cast<RowsType>(grad.getType());
  if (!rows)
    return grad;
  param.emitWarning("@") << param.getSymName()
                         << " is marked sparse, but its update is dense: "
                         << reason;
  auto dense =
      RowsToDenseOp::create(builder, grad.getLoc(), rows.getTableType(), grad);
  setRole(dense, role);
  return dense;
}

Value AppendOptimizerPass::emitClip(OpBuilder &builder, ParamOp param,
                                    Value grad) {
  Location loc = grad.getLoc();
  if (param.getClipMax() || param.getClipNorm())
    grad = densify(builder, param, grad, Role::Optimize,
                   "clipping acts on the whole gradient");
  if (std::optional<APFloat> max = param.getClipMax()) {
    double upper = max->convertToDouble();
    double lower =
        param.getClipMin() ? param.getClipMin()->convertToDouble() : -upper;
    return optimizeRole(
        {ClipOp::create(builder, loc, grad, builder.getF64FloatAttr(lower),
                        builder.getF64FloatAttr(upper))});
  }
  if (std::optional<APFloat> norm = param.getClipNorm())
    return optimizeRole({ClipByNormOp::create(
        builder, loc, grad, builder.getF64FloatAttr(norm->convertToDouble()))});
  return grad;
}

Value AppendOptimizerPass::emitRegularization(OpBuilder &builder, ParamOp param,
                                              Value grad) {
  // A regularizer of the parameter's own replaces the optimizer's, as in
  // Paddle; a coefficient of 0 turns regularization off for it.
  double l1 = 0, l2 = weightDecay;
  if (param.getL1Decay() || param.getL2Decay()) {
    l1 = param.getL1Decay() ? param.getL1Decay()->convertToDouble() : 0;
    l2 = param.getL2Decay() ? param.getL2Decay()->convertToDouble() : 0;
  }
  if (l1 == 0 && l2 == 0)
    return grad;
  grad = densify(builder, param, grad, Role::Optimize,
                 "regularization decays every row of the table");
  Location loc = grad.getLoc();
  auto value = ReadOp::create(builder, loc, param.getParameterType(),
                              FlatSymbolRefAttr::get(param.getSymNameAttr()));
  setRole(value, Role::Optimize);
  // L1 adds l1 * sign(param) (Paddle's sign + scale), L2 l2 * param.
  Value decayed = value;
  if (l1 > 0)
    decayed = optimizeRole({SignOp::create(builder, loc, value)});
  auto decay = ScaleOp::create(builder, loc, decayed,
                               builder.getF64FloatAttr(l1 > 0 ? l1 : l2));
  return optimizeRole({decay, AddOp::create(builder, loc, grad, decay)});
}

LogicalResult AppendOptimizerPass::emitUpdate(OpBuilder &builder, StepOp step,
                                              ParamOp param, Value grad,
                                              Value lr) {
  grad = emitClip(builder, param, grad);
  grad = emitRegularization(builder, param, grad);
  if (std::optional<APFloat> scale = param.getLrScale();
      scale && !scale->isExactlyValue(1.0))
    lr = optimizeRole(
        {ScaleOp::create(builder, lr.getLoc(), lr,
                         builder.getF64FloatAttr(scale->convertToDouble()))});
  FailureOr<Operation *> update = emitOptimizer(builder, step, param, grad, lr);
  if (failed(update))
    return failure();
  setRole(*update, Role::Optimize);
  return success();
}

FailureOr<Operation *>
AppendOptimizerPass::emitOptimizer(OpBuilder &builder, StepOp step,
                                   ParamOp param, Value grad, Value lr) {
  Location loc = grad.getLoc();
  RankedTensorType type = param.getParameterType();
  auto scalar = RankedTensorType::get({}, type.getElementType());
  auto name = FlatSymbolRefAttr::get(param.getSymNameAttr());
  auto f64 = [&](double value) { return builder.getF64FloatAttr(value); };
  FailureOr<SmallVector<FlatSymbolRefAttr>> state;
  switch (optimizer) {
  case OptimizerKind::SGD:
    return SgdOp::create(builder, loc, name, grad, lr).getOperation();
  case OptimizerKind::Momentum:
    if (failed(state = createStates(step, param, {{kVelocitySuffix, type, 0}})))
      return failure();
    return MomentumOp::create(builder, loc, name, grad, lr, (*state)[0],
                              f64(momentum),
                              nesterov ? builder.getUnitAttr() : nullptr)
        .getOperation();
  case OptimizerKind::Adam:
    if (failed(state = createStates(step, param,
                                    {{kMoment1Suffix, type, 0},
                                     {kMoment2Suffix, type, 0},
                                     {kBeta1PowSuffix, scalar, beta1},
                                     {kBeta2PowSuffix, scalar, beta2}})))
      return failure();
    return AdamOp::create(builder, loc, name, grad, lr, (*state)[0],
                          (*state)[1], (*state)[2], (*state)[3], f64(beta1),
                          f64(beta2), f64(epsilonOr(1e-8)))
        .getOperation();
  case OptimizerKind::Adagrad:
    if (failed(state = createStates(step, param, {{kMomentSuffix, type, 0}})))
      return failure();
    return AdagradOp::create(builder, loc, name, grad, lr, (*state)[0],
                             f64(epsilonOr(1e-6)))
        .getOperation();
  case OptimizerKind::RMSProp: {
    SmallVector<StateSpec, 3> specs = {{kMeanSquareSuffix, type, 0},
                                       {kMomentSuffix, type, 0}};
    if (centered)
      specs.push_back({kMeanGradSuffix, type, 0});
    if (failed(state = createStates(step, param, specs)))
      return failure();
    return RmspropOp::create(builder, loc, name, grad, lr, (*state)[0],
                             (*state)[1], centered ? (*state)[2] : nullptr,
                             f64(rho), f64(epsilonOr(1e-6)),
                             f64(rmspropMomentum))
        .getOperation();
  }
  case OptimizerKind::DecayedAdagrad:
    if (failed(state = createStates(step, param, {{kMomentSuffix, type, 0}})))
      return failure();
    return DecayedAdagradOp::create(builder, loc, name, grad, lr, (*state)[0],
                                    f64(rho), f64(epsilonOr(1e-6)))
        .getOperation();
  case OptimizerKind::Ftrl:
    if (failed(state = createStates(
                   step, param,
                   {{kSquaredSuffix, type, 0}, {kLinearSuffix, type, 0}})))
      return failure();
    return FtrlOp::create(builder, loc, name, grad, lr, (*state)[0],
                          (*state)[1], f64(ftrlL1), f64(ftrlL2), f64(lrPower))
        .getOperation();
  case OptimizerKind::Adamax:
    if (failed(state = createStates(step, param,
                                    {{kMomentSuffix, type, 0},
                                     {kInfNormSuffix, type, 0},
                                     {kBeta1PowSuffix, scalar, beta1}})))
      return failure();
    return AdamaxOp::create(builder, loc, name, grad, lr, (*state)[0],
                            (*state)[1], (*state)[2], f64(beta1), f64(beta2),
                            f64(epsilonOr(1e-8)))
        .getOperation();
  }
  llvm_unreachable("unknown optimizer");
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
  auto elementTypeOf = [](ParamGradOp op) {
    return getDenseType(op.getGrad().getType()).getElementType();
  };
  Type elementType = elementTypeOf(paramGrads.front());
  for (ParamGradOp op : paramGrads)
    if (elementTypeOf(op) != elementType)
      return op.emitOpError("has element type ")
             << elementTypeOf(op) << ", but the first parameter has "
             << elementType
             << ": one learning rate serves only one element type";

  programSymbols.emplace(step->getParentOp());
  OpBuilder builder(step.getBody().front().getTerminator());
  SmallVector<ParamOp> params;
  SmallVector<Value> grads;
  for (ParamGradOp op : paramGrads) {
    auto param = programSymbols->lookup<ParamOp>(op.getParam());
    if (!param)
      return op.emitOpError("names ")
             << op.getParamAttr() << ", which is not a train.param";
    params.push_back(param);
    grads.push_back(op.getGrad());
  }
  // Global-norm clipping covers the gradients without a clip of their own.
  SmallVector<unsigned> globallyClipped;
  for (auto [index, param] : llvm::enumerate(params))
    if (!param.getClipMax() && !param.getClipNorm())
      globallyClipped.push_back(index);
  if (clipGlobalNorm > 0 && !globallyClipped.empty()) {
    SmallVector<Value> clipped;
    for (unsigned index : globallyClipped)
      clipped.push_back(densify(builder, params[index], grads[index],
                                Role::Backward,
                                "the global norm clip scales every row"));
    auto clip = ClipByGlobalNormOp::create(
        builder, step.getLoc(), ValueRange(clipped).getTypes(), clipped,
        builder.getF64FloatAttr(clipGlobalNorm));
    setRole(clip, Role::Backward);
    for (auto [index, value] : llvm::zip(globallyClipped, clip.getClipped()))
      grads[index] = value;
  }
  FailureOr<Value> lr = emitLearningRate(builder, step, elementType);
  if (failed(lr))
    return failure();
  for (auto [param, grad] : llvm::zip(params, grads))
    if (failed(emitUpdate(builder, step, param, grad, *lr)))
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
