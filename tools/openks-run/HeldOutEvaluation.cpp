//===- HeldOutEvaluation.cpp - Held-out metrics while training ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "HeldOutEvaluation.h"

#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Loader/EvaluationBuilder.h"
#include "openks/Support/DurableFile.h"

#include <filesystem>
#include <numeric>

using namespace mlir;
using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

/// The rows of one run of a link predictor's distance plan.
static constexpr int64_t kDistanceBatch = 65536;

HeldOutEvaluation::HeldOutEvaluation(EvaluationModel model,
                                     EvaluationOptions options, int64_t every,
                                     int64_t steps)
    : model_(std::move(model)), options_(std::move(options)), every_(every),
      steps_(steps) {
  for (const std::string &name : getMetricNames(model_))
    names_.push_back("eval_" + name);
}

StatusOr<HeldOutEvaluation>
HeldOutEvaluation::create(train::StepOp step, const ParameterStore &layout,
                          const RunSettings &settings) {
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
  FailureOr<EvaluationModel> model =
      buildEvaluationModel(step, layout, planOptions, kDistanceBatch);
  if (failed(model))
    return Status::invalidArgument("cannot evaluate @{}",
                                   step.getSymName().str());
  // A spec or file that cannot be read fails the run before it trains.
  std::unique_ptr<DataSource> source;
  OPENKS_RETURN_IF_ERROR(openDataSource(
      options.data, model->forward.inputSpecs(), Shard{}, source));
  HeldOutEvaluation evaluation(std::move(*model), std::move(options),
                               settings.evalEvery, settings.steps);
  evaluation.mapsDir_ = std::move(mapsDir);
  return evaluation;
}

StatusOr<std::vector<Metric>>
HeldOutEvaluation::run(const ParameterStore &trained) const {
  std::vector<ParameterId> ids(trained.size());
  std::iota(ids.begin(), ids.end(), 0);
  StatusOr<ParameterStore> copy = trained.copyOf(ids);
  if (!copy)
    return copy.status();
  StatusOr<std::vector<Metric>> metrics = evaluate(model_, *copy, options_);
  if (!metrics)
    return metrics.status().withContext("evaluating " + options_.data);
  for (Metric &metric : *metrics)
    metric.name = "eval_" + metric.name;
  return metrics;
}
