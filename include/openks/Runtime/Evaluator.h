//===- Evaluator.h - Held-out metrics and predictions -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a model's forward pass, without its optimizer, over one pass of a
// data file and measures it: the mean loss always, and what the model's
// loss says it predicts. A softmax cross-entropy model is a classifier
// (accuracy, log loss, and AUC of two classes), a sigmoid cross-entropy
// model a click model (accuracy, log loss, AUC), and a margin loss over
// triple distances a link predictor, which ranks every entity as the head
// and as the tail of each triple (raw and filtered MR, MRR, Hits@1/3/10).
// The plans come from Loader/EvaluationBuilder.h.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_EVALUATOR_H
#define OPENKS_RUNTIME_EVALUATOR_H

#include "openks/Runtime/Metrics.h"
#include "openks/Runtime/ParameterStore.h"
#include "openks/Runtime/Plan.h"
#include "openks/Support/Status.h"

#include <optional>
#include <string>
#include <vector>

namespace openks::runtime {

/// What a model predicts, by the loss it minimizes.
enum class EvaluationTask {
  /// A loss the evaluator does not know: only the mean loss is measured.
  Loss,
  /// Softmax cross-entropy over class logits: class probabilities.
  Classification,
  /// Sigmoid cross-entropy over one logit: the positive class probability.
  Binary,
  /// A margin loss over the distances of (head, relation, tail) triples.
  LinkPrediction,
};

/// Returns the task's name: "loss", "classification", "binary" or
/// "link-prediction".
const char *getTaskName(EvaluationTask task);

/// The plans an evaluation runs, all built against one store layout.
struct EvaluationModel {
  explicit EvaluationModel(Plan forward) : forward(std::move(forward)) {}

  EvaluationTask task = EvaluationTask::Loss;
  /// The forward pass: the step's inputs; outputs the mean loss, then for
  /// Classification and Binary the probabilities ([B, C] or [B, 1]).
  Plan forward;
  /// Classification and Binary: the input that holds the labels, and the
  /// classes (2 for Binary).
  int64_t labelInput = -1;
  int64_t classes = 0;
  /// LinkPrediction: inputs heads, relations and tails ([B] i64), output
  /// each triple's distance ([B]; lower is better).
  std::optional<Plan> distance;
  /// LinkPrediction: the most rows one run of `distance` takes.
  int64_t distanceBatch = 0;
  /// LinkPrediction: the rows of the entity table the heads index.
  int64_t entityRows = 0;
};

/// What to evaluate on and what to write.
struct EvaluationOptions {
  /// The data source spec (DataSource.h); one pass over it is evaluated.
  std::string data;
  /// Rows per run of the forward plan (at most its batch).
  int64_t batchSize = 1;
  /// LinkPrediction: the triples data specs of the known true triples that
  /// filtered ranks leave out (train, valid, ...); `data` always counts.
  std::vector<std::string> filterData;
  /// LinkPrediction: the candidate entities are [0, entities); 0 means
  /// every row of the entity table.
  int64_t entities = 0;
  /// Where to write one prediction per row of `data` (none when empty):
  /// a class and its probability, a probability, or a triple's distance;
  /// with `topK`, the K most probable classes or the K nearest tails.
  std::string predictOut;
  int64_t topK = 0;
  /// LinkPrediction: the entities' names, written instead of their ids.
  std::vector<std::string> entityNames;
};

/// Returns the names of the metrics evaluate() returns for `model`, in
/// order.
std::vector<std::string> getMetricNames(const EvaluationModel &model);

/// Returns the metric that says most of how good `model` is: "accuracy" of
/// a classifier, "auc" of a click model, "filtered_mrr" of a link
/// predictor, else "loss".
std::string getHeadlineMetric(const EvaluationModel &model);

/// Evaluates `model` on `store` (of the layout its plans were built
/// against) as `options` say; returns the metrics: "loss", then the task's.
/// Fails naming the problem on bad data (labels out of range, entities
/// beyond the table), a failing kernel or an unwritable prediction file.
StatusOr<std::vector<Metric>> evaluate(const EvaluationModel &model,
                                       ParameterStore &store,
                                       const EvaluationOptions &options);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_EVALUATOR_H
