//===- LocalRun.cpp - Training in one process -----------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CheckpointHistory.h"
#include "HeldOutEvaluation.h"
#include "MetricsWriter.h"
#include "Progress.h"
#include "RunReport.h"
#include "Runs.h"

#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/Loader/PlanBuilder.h"
#include "openks/Runtime/LocalTrainer.h"

#include <cmath>
#include <cstring>
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
  StatusOr<std::pair<std::optional<HeldOutEvaluation>, CheckpointHistory>>
      tracking = trackRun(step, settings);
  if (!tracking)
    return fail(tracking.status().message());
  auto &[evaluation, history] = *tracking;
  std::vector<std::string> columns(names.begin() + 1, names.end());
  if (evaluation)
    llvm::append_range(columns, evaluation->metricNames());
  std::optional<MetricsWriter> metrics;
  if (!settings.metricsOut.empty()) {
    StatusOr<MetricsWriter> writer =
        MetricsWriter::create(settings.metricsOut, columns);
    if (!writer)
      return fail(writer.status().message());
    metrics.emplace(std::move(*writer));
  }
  std::optional<RunReport> report;
  if (!settings.reportOut.empty()) {
    StatusOr<RunReport> created = RunReport::create(
        settings.reportOut,
        {settings.input, "one process", settings.batchSize, settings.data},
        std::vector<std::string>(names.begin() + 1, names.end()));
    if (!created)
      return fail(created.status().message());
    report.emplace(std::move(*created));
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
    double samplesPerSecond =
        rows /
        std::max(std::chrono::duration<double>(stepEnd - stepStart).count(),
                 1e-9);
    std::vector<std::optional<double>> extra(values.begin() + 1, values.end());
    std::optional<std::vector<Metric>> heldOut;
    if (evaluation && evaluation->isDue(index)) {
      StatusOr<std::vector<Metric>> measured = evaluation->run(
          index, {&(*trainer)->store()}, report ? &*report : nullptr);
      if (!measured)
        return fail(measured.status().message());
      heldOut = std::move(*measured);
    }
    if (metrics) {
      std::vector<std::optional<double>> columns = extra;
      if (evaluation)
        llvm::append_range(columns, evaluation->getColumns(heldOut));
      if (Status status =
              metrics->writeStep(index, loss, samplesPerSecond, columns);
          !status.isOk())
        return fail(status.message());
    }
    if (report)
      report->addStep(index, loss, samplesPerSecond, extra);
    progress.step(index, loss, rows, stepEnd);
    if (Status saved = history.save(index, heldOut,
                                    [&](const std::string &dir) {
                                      return saveCheckpoint(
                                          dir, {&(*trainer)->store()}, "local",
                                          index, {}, settings.checkpointFiles);
                                    });
        !saved.isOk())
      return fail(fmt::format("step {}: {}", index, saved.message()));
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
  if (report) {
    report->setTotals(std::chrono::duration<double>(seconds), totalRows);
    if (Status status = report->write(); !status.isOk())
      return fail(status.message());
  }
  return 0;
}
