//===- EvaluationBuilder.cpp - Evaluation plans of a step -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each plan is built from a copy of the step, placed next to it so that its
// parameter references resolve, rewritten to fetch what the evaluation
// needs, pruned to what those fetches read, and erased once its plan is
// built.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/EvaluationBuilder.h"

#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallPtrSet.h"

#include <optional>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;

namespace {
/// A copy of a step that is erased when it goes out of scope.
class StepCopy {
public:
  explicit StepCopy(train::StepOp step) {
    OpBuilder builder(step->getContext());
    builder.setInsertionPointAfter(step);
    copy_ = cast<train::StepOp>(builder.clone(*step));
    copy_.setSymName((step.getSymName() + ".evaluation").str());
  }
  ~StepCopy() { copy_->erase(); }
  StepCopy(const StepCopy &) = delete;
  StepCopy &operator=(const StepCopy &) = delete;

  train::StepOp get() { return copy_; }
  Block &body() { return copy_.getBody().front(); }

  /// Fetches `values` (of the copy) instead of the step's results, keeping
  /// only the ops they need: no parameter is written.
  void fetchOnly(ValueRange values) {
    Operation *yield = body().getTerminator();
    yield->setOperands(values);
    for (Operation *op = yield->getPrevNode(); op;) {
      Operation *previous = op->getPrevNode();
      if (isa<train::WriteOp, train::ScatterRowsOp>(op) || op->use_empty())
        op->erase();
      op = previous;
    }
    copy_.walk([](train::DropoutOp dropout) { dropout.setIsTest(true); });
    updateType();
  }

  /// Drops the arguments from `count` on, which must be unused.
  void keepArguments(unsigned count) {
    body().eraseArguments(count, body().getNumArguments() - count);
    updateType();
  }

private:
  /// Makes the step's type that of its block and its yield.
  void updateType() {
    copy_.setFunctionType(
        FunctionType::get(copy_->getContext(), body().getArgumentTypes(),
                          body().getTerminator()->getOperandTypes()));
    copy_.removeResAttrsAttr();
    copy_.removeArgAttrsAttr();
  }

  train::StepOp copy_;
};
} // namespace

/// Returns the op whose per-row losses `loss` reduces, through means, sums
/// and scalings.
static Operation *findLossOp(Value loss) {
  Operation *op = loss.getDefiningOp();
  while (op && isa<train::MeanOp, train::ReduceSumOp, train::ScaleOp>(op))
    op = op->getOperand(0).getDefiningOp();
  return op;
}

/// Returns the argument number of `value` if it is an argument of `body`.
static std::optional<unsigned> getArgumentNumber(Value value, Block &body) {
  auto argument = dyn_cast<BlockArgument>(value);
  if (!argument || argument.getOwner() != &body)
    return std::nullopt;
  return argument.getArgNumber();
}

/// Returns whether `value` depends on no argument of `body` from `count` on.
static bool dependsOnlyOnFirstArguments(Value value, Block &body,
                                        unsigned count) {
  SmallVector<Value> worklist = {value};
  llvm::SmallPtrSet<Operation *, 16> visited;
  while (!worklist.empty()) {
    Value current = worklist.pop_back_val();
    if (std::optional<unsigned> number = getArgumentNumber(current, body)) {
      if (*number >= count)
        return false;
      continue;
    }
    Operation *op = current.getDefiningOp();
    if (op && visited.insert(op).second)
      llvm::append_range(worklist, op->getOperands());
  }
  return true;
}

/// Returns the rows of the table that an embedding looks the heads (the
/// first argument of `body`) up in, or 0 when none does.
static int64_t findEntityRows(Block &body) {
  for (Operation *user : body.getArgument(0).getUsers())
    if (auto embedding = dyn_cast<train::EmbeddingOp>(user))
      if (embedding.getIds() == body.getArgument(0))
        if (auto table =
                dyn_cast<RankedTensorType>(embedding.getTable().getType()))
          if (table.hasStaticShape())
            return table.getDimSize(0);
  return 0;
}

FailureOr<EvaluationModel> openks::runtime::buildEvaluationModel(
    Operation *stepOp, const ParameterStore &store, const PlanOptions &options,
    int64_t distanceBatch) {
  auto step = dyn_cast<train::StepOp>(stepOp);
  if (!step || !isa<train::ProgramOp>(step->getParentOp()))
    return stepOp->emitError("evaluation needs a train.step of a "
                             "train.program (evaluate the program before "
                             "transpiling; its checkpoints load in any "
                             "layout)");
  if (step.getResultTypes().empty())
    return step.emitError("the step fetches no loss to evaluate");

  EvaluationTask task = EvaluationTask::Loss;
  int64_t labelInput = -1, classes = 0, entityRows = 0;
  StepCopy forward(step);
  Block &body = forward.body();
  Value loss = body.getTerminator()->getOperand(0);
  Operation *lossOp = findLossOp(loss);
  SmallVector<Value> fetches = {loss};
  if (auto entropy = dyn_cast_or_null<train::SoftmaxCrossEntropyOp>(lossOp)) {
    auto logitType = cast<RankedTensorType>(entropy.getLogits().getType());
    std::optional<unsigned> label =
        getArgumentNumber(entropy.getLabels(), body);
    if (label && logitType.getRank() == 2 && !logitType.isDynamicDim(1)) {
      OpBuilder builder(body.getTerminator());
      Value logits = entropy.getLogits();
      classes = logitType.getDimSize(1);
      fetches.push_back(train::SoftmaxOp::create(builder, entropy.getLoc(),
                                                 logits.getType(), logits));
      task = EvaluationTask::Classification;
      labelInput = *label;
    }
  } else if (auto entropy =
                 dyn_cast_or_null<train::SigmoidCrossEntropyOp>(lossOp)) {
    std::optional<unsigned> label =
        getArgumentNumber(entropy.getLabels(), body);
    auto logitType = cast<RankedTensorType>(entropy.getLogits().getType());
    bool oneLogit = logitType.getRank() == 1 ||
                    (logitType.getRank() == 2 && logitType.getDimSize(1) == 1);
    if (label && oneLogit) {
      OpBuilder builder(body.getTerminator());
      Value logits = entropy.getLogits();
      fetches.push_back(train::SigmoidOp::create(builder, entropy.getLoc(),
                                                 logits.getType(), logits));
      task = EvaluationTask::Binary;
      labelInput = *label;
      classes = 2;
    }
  } else if (auto margin = dyn_cast_or_null<train::MarginLossOp>(lossOp)) {
    if (body.getNumArguments() >= 3 &&
        dependsOnlyOnFirstArguments(margin.getPos(), body, 3) &&
        (entityRows = findEntityRows(body)) > 0)
      task = EvaluationTask::LinkPrediction;
  }

  std::optional<Plan> distancePlan;
  if (task == EvaluationTask::LinkPrediction) {
    StepCopy distances(step);
    auto margin = cast<train::MarginLossOp>(
        findLossOp(distances.body().getTerminator()->getOperand(0)));
    distances.fetchOnly(margin.getPos());
    distances.keepArguments(3);
    PlanOptions distanceOptions = options;
    distanceOptions.maxBatch = distanceBatch;
    FailureOr<Plan> plan =
        buildPlan(distances.get().getBody(), store, distanceOptions);
    if (failed(plan))
      return failure();
    distancePlan = std::move(*plan);
  }

  forward.fetchOnly(fetches);
  FailureOr<Plan> plan = buildPlan(forward.get().getBody(), store, options);
  if (failed(plan))
    return failure();
  EvaluationModel model(std::move(*plan));
  model.task = task;
  model.labelInput = labelInput;
  model.classes = classes;
  model.entityRows = entityRows;
  model.distance = std::move(distancePlan);
  model.distanceBatch = distanceBatch;
  return model;
}
