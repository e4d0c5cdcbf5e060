//===- JobRun.cpp - A transpiled job with every role a thread -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the job in process through the Fleet API (LocalJob: one fleet per
// role, each a thread), prints progress from the per-step
// figures of all trainers, and ends with a summary of what each server
// moved and how long trainers waited at barriers. With --verify, trainer 0
// also trains the minimized program in one process on the same global
// batches and compares every parameter after every step, each step from the
// parameters the job had after the step before.
//
//===----------------------------------------------------------------------===//

#include "HeldOutEvaluation.h"
#include "MetricsWriter.h"
#include "Progress.h"
#include "RunReport.h"
#include "Runs.h"
#include "Verification.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Fleet/LocalJob.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/Loader/PlanBuilder.h"
#include "openks/Runtime/LocalTrainer.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <mutex>
#include <optional>

using namespace mlir;
using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

int openks::run::trainJob(ModuleOp module, train::StepOp reference,
                          const RunSettings &settings) {
  auto jobAttr = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
  int64_t trainers = jobAttr.getTrainers();
  if (settings.batchSize < trainers)
    return fail(fmt::format("--batch-size {} gives the {} trainers less than "
                            "a row each",
                            settings.batchSize, trainers));
  fleet::FleetOptions options;
  // The largest shard of a global batch.
  options.maxBatch = (settings.batchSize + trainers - 1) / trainers;
  options.runSeed = settings.seed;
  options.timeout = settings.timeout;
  StatusOr<std::unique_ptr<fleet::LocalJob>> run =
      fleet::LocalJob::create(module, options);
  if (!run)
    return fail(run.status().message());
  const JobSpec &job = (*run)->job();

  // The steps a resumed run skips; the job checks the checkpoint in full.
  int64_t startStep = 0;
  if (!settings.loadDir.empty()) {
    StatusOr<CheckpointInfo> info = readCheckpointInfo(settings.loadDir);
    if (!info)
      return fail(info.status().message());
    startStep = info->step;
  }

  std::unique_ptr<Verification> verification;
  if (settings.verify) {
    if (job.mode != SyncMode::Sync)
      return fail(fmt::format("--verify checks sync training; this job is "
                              "{}",
                              describeMode(job.mode)));
    if (settings.batchSize % trainers != 0)
      return fail(fmt::format(
          "--verify needs equal shards: --batch-size {} is not a multiple of "
          "the {} trainers, and trainers' mean gradients of unequal shards "
          "do not average to the batch's",
          settings.batchSize, trainers));
    StatusOr<std::unique_ptr<Verification>> created =
        Verification::create(reference, settings, startStep);
    if (!created)
      return fail(created.status().message());
    verification = std::move(*created);
  }

  std::vector<std::string> columns = listJobColumns(job, verification.get());
  // Held-out evaluation and kept checkpoints read the job's parameters as
  // a checkpoint does; openks-run asks for them only with the program.
  std::optional<HeldOutEvaluation> evaluation;
  std::optional<CheckpointHistory> history;
  if (!settings.evalData.empty() || settings.keepCheckpoints) {
    StatusOr<std::pair<std::optional<HeldOutEvaluation>, CheckpointHistory>>
        tracking = trackRun(reference, settings);
    if (!tracking)
      return fail(tracking.status().message());
    evaluation = std::move(tracking->first);
    if (settings.keepCheckpoints)
      history.emplace(std::move(tracking->second));
  }
  std::vector<std::string> metricsColumns = columns;
  if (evaluation)
    llvm::append_range(metricsColumns, evaluation->metricNames());
  std::optional<MetricsWriter> metrics;
  if (!settings.metricsOut.empty()) {
    StatusOr<MetricsWriter> writer =
        MetricsWriter::create(settings.metricsOut, metricsColumns);
    if (!writer)
      return fail(writer.status().message());
    metrics.emplace(std::move(*writer));
  }
  std::optional<RunReport> report;
  if (!settings.reportOut.empty()) {
    StatusOr<RunReport> created = RunReport::createForJob(
        settings.reportOut,
        {settings.input, "a job, every server and trainer a thread",
         settings.batchSize, settings.data},
        columns, job);
    if (!created)
      return fail(created.status().message());
    report.emplace(std::move(*created));
  }

  Progress progress(settings.steps, settings.logEvery);
  Progress::Clock::time_point start = Progress::Clock::now();
  Progress::Clock::time_point previous = start;
  Status metricsStatus = Status::ok();
  double loss = 0;
  int64_t totalRows = 0;
  // The bytes of every trainer's steps, and how many trainer steps.
  int64_t stepBytesPushed = 0, stepBytesPulled = 0, trainerSteps = 0;
  fleet::JobRunOptions runOptions;
  runOptions.steps = settings.steps;
  runOptions.globalBatch = settings.batchSize;
  runOptions.data = settings.data;
  runOptions.faults = settings.faults;
  runOptions.loadDir = settings.loadDir;
  runOptions.saveDir = settings.saveDir;
  runOptions.saveEvery = settings.saveEvery;
  runOptions.checkpointFiles = settings.checkpointFiles;
  // The held-out figures of a step, from its observation to its summary.
  std::map<int64_t, std::vector<std::optional<double>>> heldOutColumns;
  if (evaluation || history) {
    // Kept checkpoints are the history's to save.
    if (history)
      runOptions.saveDir.clear();
    runOptions.observes = [&](int64_t step) {
      return (evaluation && evaluation->isDue(step)) ||
             (history && history->isDue(step));
    };
    runOptions.observe =
        [&](int64_t step,
            const std::vector<const ParameterStore *> &stores) -> Status {
      std::optional<std::vector<Metric>> heldOut;
      if (evaluation && evaluation->isDue(step)) {
        StatusOr<std::vector<Metric>> measured =
            evaluation->run(step, stores, report ? &*report : nullptr);
        if (!measured)
          return measured.status();
        heldOut = std::move(*measured);
        heldOutColumns[step] = evaluation->getColumns(heldOut);
      }
      if (!history)
        return Status::ok();
      return history->save(step, heldOut, [&](const std::string &dir) {
        return saveCheckpoint(dir, stores, checkpointModeName(job.mode), step,
                              {}, settings.checkpointFiles);
      });
    };
  }
  if (verification)
    runOptions.afterStep = [&](const WorkerRole &worker) {
      return worker.trainer() == 0 ? verification->check(worker, job)
                                   : Status::ok();
    };
  runOptions.onStep = [&](const StepSummary &summary) {
    loss = summary.means.front().value_or(NAN);
    totalRows += summary.rows;
    stepBytesPushed += summary.bytesPushed;
    stepBytesPulled += summary.bytesPulled;
    trainerSteps += summary.trainers;
    progress.step(summary.step, loss, summary.rows, summary.completed);
    std::vector<std::optional<double>> extra(summary.means.begin() + 1,
                                             summary.means.end());
    int trainersOfStep = std::max(summary.trainers, 1);
    extra.push_back(double(summary.bytesPushed) / trainersOfStep);
    extra.push_back(double(summary.bytesPulled) / trainersOfStep);
    if (verification)
      for (const ParameterDifference &difference :
           verification->take(summary.step))
        extra.push_back(difference.relative);
    double seconds =
        std::chrono::duration<double>(summary.completed - previous).count();
    previous = summary.completed;
    double samplesPerSecond = summary.rows / std::max(seconds, 1e-9);
    if (metrics && metricsStatus.isOk()) {
      std::vector<std::optional<double>> values = extra;
      if (evaluation) {
        auto found = heldOutColumns.find(summary.step);
        llvm::append_range(values, found != heldOutColumns.end()
                                       ? found->second
                                       : evaluation->getColumns(std::nullopt));
      }
      metricsStatus =
          metrics->writeStep(summary.step, loss, samplesPerSecond, values);
    }
    heldOutColumns.erase(summary.step);
    if (report)
      report->addStep(summary.step, loss, samplesPerSecond, extra);
  };
  Status status = (*run)->run(runOptions);
  if (!status.isOk())
    return fail(status.message());
  if (metrics && metricsStatus.isOk())
    metricsStatus = metrics->close();
  if (!metricsStatus.isOk())
    return fail(metricsStatus.message());

  double seconds =
      std::chrono::duration<double>(Progress::Clock::now() - start).count();
  printTo(stdout,
          "trained {} steps on {} and {} ({}) in {:.2f} s: final loss "
          "{:.6f}, {:.0f} samples/s\n",
          settings.steps - startStep, countOf(trainers, "trainer"),
          countOf((*run)->numServers(), "server"), describeMode(job.mode),
          seconds, loss, totalRows / std::max(seconds, 1e-9));
  if (trainerSteps > 0)
    printTo(stdout, "  per trainer and step: pushed {}, pulled {}\n",
            formatBytes(stepBytesPushed / trainerSteps),
            formatBytes(stepBytesPulled / trainerSteps));
  for (int index = 0; index < (*run)->numServers(); ++index) {
    const ParameterServer &server = (*run)->server(index).server();
    ParameterServer::Stats stats = server.stats();
    printTo(stdout, "  {}: received {}, sent {}{}\n", server.config().name,
            formatBytes(stats.bytesPushed), formatBytes(stats.bytesPulled),
            job.mode == SyncMode::Sync
                ? fmt::format(", {} steps applied", stats.steps)
                : std::string());
    if (report)
      report->setServerTraffic(index, {stats.bytesPushed, stats.bytesPulled,
                                       job.mode == SyncMode::Sync
                                           ? std::optional(stats.steps)
                                           : std::nullopt});
  }
  for (int index = 0; index < (*run)->numTrainers(); ++index) {
    const CommunicationStats &stats = (*run)->trainer(index).stats();
    printTo(stdout,
            "  trainer {}: {} steps, {} rows, pushed {}, pulled {}, {:.3f} "
            "s at barriers\n",
            index, (*run)->trainer(index).steps(), (*run)->rows(index),
            formatBytes(stats.bytesPushed), formatBytes(stats.bytesPulled),
            std::chrono::duration<double>(stats.barrierWait).count());
    if (report)
      report->addTrainerTraffic({index, (*run)->trainer(index).steps(),
                                 (*run)->rows(index), stats.bytesPushed,
                                 stats.bytesPulled, stats.barrierWait});
  }
  // With --verify, the page shows a failing run's differences too.
  if (report) {
    report->setTotals(std::chrono::duration<double>(seconds), totalRows);
    if (Status written = report->write(); !written.isOk())
      return fail(written.message());
  }
  if (!verification)
    return 0;
  std::string verdict =
      "--verify: " + verification->describe(settings.steps - startStep);
  if (!verification->passed())
    return fail(verdict);
  printTo(stdout, "{}\n", verdict);
  return 0;
}
