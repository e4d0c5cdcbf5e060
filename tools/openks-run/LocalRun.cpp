//===- LocalRun.cpp - Training in one process -----------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MetricsWriter.h"
#include "Progress.h"
#include "Runs.h"

#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/Loader/PlanBuilder.h"
#include "openks/Runtime/LocalTrainer.h"

#include <cmath>
#include <fmt/format.h>
#include <optional>

using namespace mlir;
using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

int openks::run::trainLocally(train::StepOp step, const RunSettings &settings) {
  PlanOptions options;
  options.maxBatch = settings.batchSize;
  options.runSeed = settings.seed;
  std::string planError =
      "cannot build an execution plan for @" + step.getSymName().str();
  FailureOr<ParameterStore> store = buildParameterStore(
      SymbolTable::getNearestSymbolTable(step->getParentOp()), options);
  if (failed(store))
    return fail(planError);
  FailureOr<Plan> plan = buildPlan(step.getBody(), *store, options);
  if (failed(plan))
    return fail(planError);
  StatusOr<std::unique_ptr<LocalTrainer>> trainer =
      LocalTrainer::create(std::move(*store), std::move(*plan), settings.data);
  if (!trainer)
    return fail(trainer.status().message());

  const std::vector<std::string> &names = (*trainer)->plan().outputNames();
  std::optional<MetricsWriter> metrics;
  if (!settings.metricsOut.empty()) {
    StatusOr<MetricsWriter> writer = MetricsWriter::create(
        settings.metricsOut,
        std::vector<std::string>(names.begin() + 1, names.end()));
    if (!writer)
      return fail(writer.status().message());
    metrics.emplace(std::move(*writer));
  }
  if (Status status = (*trainer)->start(); !status.isOk())
    return fail(status.message());
  int64_t startStep = 0;
  if (!settings.loadDir.empty()) {
    StatusOr<int64_t> resumed =
        (*trainer)->resume(settings.loadDir, settings.batchSize);
    if (!resumed)
      return fail(resumed.status().message());
    startStep = *resumed;
    if (startStep >= settings.steps)
      return fail(fmt::format("the checkpoint {} is of step {}; there is no "
                              "step left to run up to step {}",
                              settings.loadDir, startStep, settings.steps));
  }

  Progress progress(settings.steps, settings.logEvery);
  Progress::Clock::time_point start = Progress::Clock::now();
  int64_t totalRows = 0;
  double loss = 0;
  for (int64_t index = startStep + 1; index <= settings.steps; ++index) {
    Progress::Clock::time_point stepStart = Progress::Clock::now();
    if (Status status = (*trainer)->step(settings.batchSize); !status.isOk())
      return fail(fmt::format("step {}: {}", index, status.message()));
    Progress::Clock::time_point stepEnd = Progress::Clock::now();

    const std::vector<Tensor *> &inputs = (*trainer)->inputs();
    int64_t rows = inputs.empty() ? settings.batchSize : inputs.front()->dim(0);
    totalRows += rows;
    std::vector<std::optional<double>> values =
        getScalarValues((*trainer)->outputs());
    loss = *values.front();
    if (!std::isfinite(loss))
      return fail(fmt::format("step {}: the loss is {}; lower the learning "
                              "rate or check the data",
                              index, loss));
    if (metrics) {
      double seconds =
          std::chrono::duration<double>(stepEnd - stepStart).count();
      Status status = metrics->writeStep(
          index, loss, rows / std::max(seconds, 1e-9),
          std::vector<std::optional<double>>(values.begin() + 1, values.end()));
      if (!status.isOk())
        return fail(status.message());
    }
    progress.step(index, loss, rows, stepEnd);
    if (!settings.saveDir.empty() &&
        (index == settings.steps ||
         (settings.saveEvery > 0 && index % settings.saveEvery == 0)))
      if (Status status = saveCheckpoint(
              settings.saveDir, {&(*trainer)->store()}, "local", index);
          !status.isOk())
        return fail(fmt::format("step {}: {}", index, status.message()));
  }
  if (metrics)
    if (Status status = metrics->close(); !status.isOk())
      return fail(status.message());
  if (!settings.paramsOut.empty())
    if (Status status =
            writeParameters((*trainer)->store(), settings.paramsOut);
        !status.isOk())
      return fail(status.message());
  double seconds =
      std::chrono::duration<double>(Progress::Clock::now() - start).count();
  printTo(stdout,
          "trained {} steps ({} samples, {} epochs) in {:.2f} s: final "
          "loss {:.6f}\n",
          settings.steps - startStep, totalRows, (*trainer)->epoch(), seconds,
          loss);
  return 0;
}
