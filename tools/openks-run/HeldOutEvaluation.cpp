//===- HeldOutEvaluation.cpp - Held-out metrics while training ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HeldOutEvaluation.h"

#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Loader/EvaluationBuilder.h"
#include "openks/Support/DurableFile.h"

#include <filesystem>
#include <fmt/format.h>

using namespace mlir;
using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

/// The rows of one run of a link predictor's distance plan.
static constexpr int64_t kDistanceBatch = 65536;

HeldOutEvaluation::HeldOutEvaluation(ParameterStore layout,
                                     EvaluationModel model,
                                     EvaluationOptions options, int64_t every,
                                     int64_t steps)
    : layout_(std::move(layout)), model_(std::move(model)),
      options_(std::move(options)), every_(every), steps_(steps) {
  for (const std::string &name : getMetricNames(model_))
    names_.push_back("eval_" + name);
}

StatusOr<HeldOutEvaluation>
HeldOutEvaluation::create(train::StepOp step, const RunSettings &settings) {
  EvaluationOptions options;
  options.batchSize = settings.batchSize;
  options.data = settings.evalData;
  options.filterData = settings.evalFilterData;
  StatusOr<std::vector<IdMap>> maps = readIdMaps(settings.data);
  if (!maps)
    return maps.status();
  std::shared_ptr<const std::string> mapsDir;
  if (!maps->empty()) {
    options.entities = static_cast<int64_t>(maps->front().names.size());
    StatusOr<std::string> dir = createUniqueDirectory(
        (std::filesystem::temp_directory_path() / "openks-run-maps.").string());
    if (!dir)
      return dir.status();
    mapsDir.reset(new std::string(*dir), [](const std::string *path) {
      std::error_code ignored;
      std::filesystem::remove_all(*path, ignored);
      delete path;
    });
    for (const IdMap &map : *maps)
      OPENKS_RETURN_IF_ERROR(
          writeFileSynced(*mapsDir + "/" + map.fileName, map.format()));
    auto numberByMaps = [&](std::string &spec) {
      if (numbersNamesItself(spec))
        spec += ",maps=" + *mapsDir;
    };
    numberByMaps(options.data);
    llvm::for_each(options.filterData, numberByMaps);
  }

  PlanOptions planOptions;
  planOptions.maxBatch = settings.batchSize;
  planOptions.runSeed = settings.seed;
  std::string error = "cannot evaluate @" + step.getSymName().str();
  FailureOr<ParameterStore> layout =
      buildParameterStore(step->getParentOp(), planOptions);
  if (failed(layout))
    return Status::invalidArgument(error);
  FailureOr<EvaluationModel> model =
      buildEvaluationModel(step, *layout, planOptions, kDistanceBatch);
  if (failed(model))
    return Status::invalidArgument(error);
  // A spec or file that cannot be read fails the run before it trains.
  std::unique_ptr<DataSource> source;
  OPENKS_RETURN_IF_ERROR(openDataSource(
      options.data, model->forward.inputSpecs(), Shard{}, source));
  HeldOutEvaluation evaluation(std::move(*layout), std::move(*model),
                               std::move(options), settings.evalEvery,
                               settings.steps);
  evaluation.mapsDir_ = std::move(mapsDir);
  return evaluation;
}

StatusOr<std::vector<Metric>>
HeldOutEvaluation::run(int64_t index,
                       const std::vector<const ParameterStore *> &trained,
                       RunReport *report) const {
  StatusOr<ParameterStore> copy = layout_.cloneLayout();
  if (!copy)
    return copy.status();
  for (ParameterId id = 0; id < copy->size(); ++id) {
    Parameter &parameter = (*copy)[id];
    StatusOr<Tensor> value = gatherVariable(trained, parameter.origin);
    if (!value)
      return value.status();
    parameter.value.copyFrom(*value);
  }
  StatusOr<std::vector<Metric>> metrics = evaluate(model_, *copy, options_);
  if (!metrics)
    return metrics.status().withContext(
        fmt::format("step {}: evaluating {}", index, options_.data));
  std::vector<std::string> shown;
  // The page says "held-out" itself.
  std::vector<std::pair<std::string, double>> reported;
  for (Metric &metric : *metrics) {
    reported.emplace_back(metric.name, metric.value);
    metric.name = "eval_" + metric.name;
    shown.push_back(fmt::format("{} {:.6f}", metric.name, metric.value));
  }
  printTo(stdout, "step {}/{}  {}\n", index, steps_, fmt::join(shown, "  "));
  if (report)
    report->addEvaluation(index, reported);
  return metrics;
}

std::vector<std::optional<double>> HeldOutEvaluation::getColumns(
    const std::optional<std::vector<Metric>> &measured) const {
  std::vector<std::optional<double>> columns(names_.size());
  for (size_t i = 0; measured && i < measured->size(); ++i)
    columns[i] = (*measured)[i].value;
  return columns;
}

StatusOr<std::pair<std::optional<HeldOutEvaluation>, CheckpointHistory>>
openks::run::trackRun(train::StepOp step, const RunSettings &settings) {
  std::optional<HeldOutEvaluation> evaluation;
  std::string bestMetric = settings.bestMetric;
  if (!settings.evalData.empty()) {
    StatusOr<HeldOutEvaluation> created =
        HeldOutEvaluation::create(step, settings);
    if (!created)
      return created.status().withContext("--eval-data");
    evaluation.emplace(std::move(*created));
    const std::vector<std::string> &evaluated = evaluation->metricNames();
    if (bestMetric.empty())
      bestMetric = evaluation->headlineMetric();
    if (!llvm::is_contained(evaluated, bestMetric))
      return Status::invalidArgument(
          "--best-metric: the evaluation measures {}, not {}",
          fmt::join(evaluated, ", "), bestMetric);
  }
  return std::make_pair(
      std::move(evaluation),
      CheckpointHistory(settings.saveDir, settings.saveEvery, settings.steps,
                        settings.keepCheckpoints, bestMetric));
}
