//===- AppendBackward.cpp - Reverse-mode autodiff of train steps ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace openks {
#define GEN_PASS_DEF_APPENDBACKWARDPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;
using namespace openks::train;

/// Returns whether `op` belongs to a backward pass or an optimizer.
static bool isBackwardOrOptimizer(Operation &op) {
  if (isa<ParamGradOp, OptimizerOpInterface>(op))
    return true;
  std::optional<Role> role = getRole(&op);
  return role && *role != Role::Forward;
}

namespace {

/// Tags ops with one role. An op without other discardable attributes (and,
/// without properties, without attributes) gets a dictionary built once,
/// where setRole would build and unique one per op.
class RoleTagger {
public:
  RoleTagger(MLIRContext *context, Role role)
      : role(role),
        alone(DictionaryAttr::get(
            context, {NamedAttribute(
                         StringAttr::get(context, TrainDialect::kRoleAttrName),
                         RoleAttr::get(context, role))})) {}

  void tag(Operation *op) const {
    if (op->getRawDictionaryAttrs().empty())
      op->setDiscardableAttrs(alone);
    else
      setRole(op, role);
  }

private:
  Role role;
  DictionaryAttr alone;
};

} // namespace

namespace {

/// Differentiates one step.
class StepDifferentiator {
public:
  StepDifferentiator(StepOp step, SymbolTableCollection &symbols)
      : step(step), symbols(symbols) {}

  LogicalResult run();

private:
  /// Marks the values that depend on a trainable parameter.
  void markDifferentiable();
  /// Adds `grad` to the gradient of `value`.
  void accumulate(OpBuilder &builder, Value value, Value grad);
  /// Warns when a parameter marked `sparse` gets a dense gradient.
  void checkSparseGradient(StringAttr name, Value grad);

  StepOp step;
  SymbolTableCollection &symbols;
  llvm::DenseSet<Value> differentiable;
  llvm::DenseMap<Value, Value> grads;
};

} // namespace

void StepDifferentiator::markDifferentiable() {
  for (Operation &op : step.getBody().front()) {
    if (auto read = dyn_cast<ReadOp>(op)) {
      auto param = symbols.lookupNearestSymbolFrom<ParameterOpInterface>(
          read, read.getParamAttr());
      if (param && param.isTrainable())
        differentiable.insert(read.getValue());
      continue;
    }
    if (isa<StopGradientOp>(op))
      continue;
    if (llvm::any_of(op.getOperands(),
                     [&](Value v) { return differentiable.contains(v); }))
      differentiable.insert(op.result_begin(), op.result_end());
  }
}

/// Returns the sum of two gradients of one value: row-sparse if both are,
/// else dense. Row-sparse sums extend one train.merge_rows as long as
/// nothing else uses it.
static Value addGradients(OpBuilder &builder, Value lhs, Value rhs) {
  Location loc = rhs.getLoc();
  if (isa<RowsType>(lhs.getType()) && isa<RowsType>(rhs.getType())) {
    auto merge = lhs.getDefiningOp<MergeRowsOp>();
    if (!merge || !merge->use_empty())
      return MergeRowsOp::create(builder, loc, ValueRange{lhs, rhs});
    merge.getInputsMutable().append(rhs);
    merge->moveBefore(builder.getInsertionBlock(), builder.getInsertionPoint());
    return merge;
  }
  auto densify = [&](Value grad) -> Value {
    if (auto rows = dyn_cast<RowsType>(grad.getType()))
      return RowsToDenseOp::create(builder, loc, rows.getTableType(), grad);
    return grad;
  };
  return AddOp::create(builder, loc, densify(lhs), densify(rhs));
}

void StepDifferentiator::accumulate(OpBuilder &builder, Value value,
                                    Value grad) {
  auto [it, inserted] = grads.try_emplace(value, grad);
  if (!inserted)
    it->second = addGradients(builder, it->second, grad);
}

void StepDifferentiator::checkSparseGradient(StringAttr name, Value grad) {
  if (isa<RowsType>(grad.getType()))
    return;
  auto param = symbols.lookupNearestSymbolFrom<ParamOp>(step, name);
  if (param && param.getSparse())
    param.emitWarning("@")
        << name.getValue()
        << " is marked sparse, but its gradient is dense: it is read other "
           "than by lookups (train.embedding, train.embedding_pool)";
}

LogicalResult StepDifferentiator::run() {
  Block &body = step.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (yield.getResults().empty())
    return emitOpErrorAt(step) << "fetches no loss to differentiate: its first "
                                  "result must be a rank-0 float tensor";
  Value loss = yield.getResults().front();
  auto lossType = dyn_cast<RankedTensorType>(loss.getType());
  if (!lossType || lossType.getRank() != 0 ||
      !isa<FloatType>(lossType.getElementType()))
    return emitOpErrorAt(step)
           << "first result " << loss.getType()
           << " is not a loss to differentiate (a rank-0 float tensor)";
  for (Operation &op : body)
    if (isBackwardOrOptimizer(op))
      return op.emitOpError("is part of a backward pass or an optimizer: "
                            "step @")
             << step.getSymName() << " was already differentiated";

  markDifferentiable();
  if (!differentiable.contains(loss))
    return emitOpErrorAt(step) << "loss does not depend on any trainable "
                                  "parameter";

  SmallVector<Operation *> forward;
  RoleTagger forwardRole(step.getContext(), Role::Forward);
  for (Operation &op : body.without_terminator()) {
    forwardRole.tag(&op);
    forward.push_back(&op);
  }

  OpBuilder builder(yield);
  Operation *lastForward = forward.empty() ? nullptr : forward.back();
  grads[loss] = FillOp::create(builder, loss.getLoc(), lossType,
                               builder.getF64FloatAttr(1.0));

  // Parameter gradients, in order of first read; sorted by name below.
  SmallVector<std::pair<StringAttr, SmallVector<Value>>> paramGrads;
  llvm::DenseMap<StringAttr, unsigned> paramGradIndex;
  for (Operation *op : llvm::reverse(forward)) {
    SmallVector<Value> resultGrads;
    bool anyGrad = false;
    for (Value result : op->getResults()) {
      resultGrads.push_back(grads.lookup(result));
      anyGrad |= static_cast<bool>(resultGrads.back());
    }
    if (!anyGrad)
      continue;
    if (auto read = dyn_cast<ReadOp>(op)) {
      auto [it, inserted] = paramGradIndex.try_emplace(
          read.getParamAttr().getAttr(), paramGrads.size());
      if (inserted)
        paramGrads.emplace_back(read.getParamAttr().getAttr(),
                                SmallVector<Value>());
      paramGrads[it->second].second.push_back(resultGrads.front());
      continue;
    }
    auto rule = dyn_cast<GradientOpInterface>(op);
    if (!rule)
      return op->emitOpError("has no gradient rule, but the loss of step @")
             << step.getSymName()
             << " depends on its result through trainable parameters";
    SmallVector<Value> operandGrads;
    if (failed(rule.emitGradient(builder, resultGrads, operandGrads)))
      return failure();
    for (auto [operand, grad] : llvm::zip(op->getOperands(), operandGrads))
      if (grad && differentiable.contains(operand))
        accumulate(builder, operand, grad);
  }

  llvm::sort(paramGrads, [](const auto &a, const auto &b) {
    return a.first.getValue() < b.first.getValue();
  });
  for (auto &[name, reads] : paramGrads) {
    Value grad = reads.front();
    for (Value other : ArrayRef<Value>(reads).drop_front())
      grad = addGradients(builder, grad, other);
    checkSparseGradient(name, grad);
    ParamGradOp::create(builder, yield.getLoc(), FlatSymbolRefAttr::get(name),
                        grad);
  }

  // Everything between the forward ops and the yield is new.
  Block::iterator first =
      lastForward ? std::next(lastForward->getIterator()) : body.begin();
  RoleTagger backwardRole(step.getContext(), Role::Backward);
  for (Operation &op : llvm::make_range(first, yield->getIterator()))
    backwardRole.tag(&op);
  return success();
}

namespace {

/// Appends the backward pass of every step.
struct AppendBackwardPass
    : public openks::impl::AppendBackwardPassBase<AppendBackwardPass> {
  void runOnOperation() override {
    // Once slicing has started, new gradients would have no blocks.
    if (failed(checkStage(getOperation(), getArgument(),
                          TranspileStage::Forward, TranspileStage::Configured)))
      return signalPassFailure();
    SymbolTableCollection symbols;
    WalkResult result = getOperation().walk([&](StepOp step) {
      return failed(StepDifferentiator(step, symbols).run())
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace
