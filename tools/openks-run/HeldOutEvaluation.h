//===- HeldOutEvaluation.h - Held-out metrics while training ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --eval-data and --eval-every: every N steps and after the last, the
// trained parameters (of one process, or gathered from a job's servers as a
// checkpoint gathers them) are copied and evaluated on the held-out data as
// openks-eval would evaluate a checkpoint of them (Runtime/Evaluator.h);
// the metrics are named "eval_<metric>". Held-out
// triples of names are numbered as the training data numbers them: by its
// maps, or by its own numbering, kept in a temporary directory while the
// run lasts.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_HELDOUTEVALUATION_H
#define OPENKS_TOOLS_OPENKS_RUN_HELDOUTEVALUATION_H

#include "CheckpointHistory.h"
#include "RunReport.h"
#include "Runs.h"

#include "openks/Runtime/Evaluator.h"

#include <memory>
#include <optional>

namespace openks::run {

/// Evaluates a run's parameters on held-out data.
class HeldOutEvaluation {
public:
  /// Builds the evaluation of `step`, the step of the program being
  /// trained (minimized, before any transpiling), on `settings.evalData`.
  static StatusOr<HeldOutEvaluation> create(train::StepOp step,
                                            const RunSettings &settings);

  /// Returns whether step `index` is evaluated: every `evalEvery` steps and
  /// the last.
  bool isDue(int64_t index) const {
    return index == steps_ || (every_ > 0 && index % every_ == 0);
  }

  /// Returns the names of the metrics run() returns, in order.
  const std::vector<std::string> &metricNames() const { return names_; }
  /// Returns the name of the metric that says most of the model's quality
  /// (getHeadlineMetric).
  std::string headlineMetric() const {
    return "eval_" + runtime::getHeadlineMetric(model_);
  }

  /// Evaluates the program's parameters as `trained` hold them (whole, or
  /// in blocks: listed as saveCheckpoint takes them) after step `index`;
  /// prints the metrics as a progress line and adds them to `report` unless
  /// it is null. Returns them, named as metricNames() says.
  StatusOr<std::vector<runtime::Metric>>
  run(int64_t index,
      const std::vector<const runtime::ParameterStore *> &trained,
      RunReport *report) const;

  /// Returns the values of the metrics of run() in the order of
  /// metricNames(), none when `measured` is (a step not evaluated).
  std::vector<std::optional<double>>
  getColumns(const std::optional<std::vector<runtime::Metric>> &measured) const;

private:
  HeldOutEvaluation(runtime::ParameterStore layout,
                    runtime::EvaluationModel model,
                    runtime::EvaluationOptions options, int64_t every,
                    int64_t steps);

  /// The program's parameters, which the plans were built against.
  runtime::ParameterStore layout_;
  /// The directory of the training data's id maps, removed with them when
  /// the evaluation goes (none when the data has none).
  std::shared_ptr<const std::string> mapsDir_;
  runtime::EvaluationModel model_;
  runtime::EvaluationOptions options_;
  std::vector<std::string> names_;
  int64_t every_;
  int64_t steps_;
};

/// Returns the held-out evaluation of `step` that `settings` ask for with
/// --eval-data (none without it), and the checkpoint history of the run,
/// whose best checkpoint --best-metric chooses, else the evaluation's
/// headline metric. Fails when the evaluation cannot be built or does not
/// measure --best-metric.
StatusOr<std::pair<std::optional<HeldOutEvaluation>, CheckpointHistory>>
trackRun(train::StepOp step, const RunSettings &settings);

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_HELDOUTEVALUATION_H
