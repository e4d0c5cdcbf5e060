//===- RoleRun.cpp - One role of a job whose roles are processes ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs the role a role maker names (a server or a trainer) through the same
// Fleet API as the in-process job, meeting the job's other processes over
// gRPC. A server serves until every trainer has finished and prints what it
// moved. A trainer trains its shard of each global batch, prints its
// progress, and saves the job's checkpoints when it is trainer 0: after
// every --save-every steps, and after the last step once every trainer has
// delivered its updates (the servers are still up: trainer 0 has not
// finished yet).
//
//===----------------------------------------------------------------------===//

#include "MetricsWriter.h"
#include "Progress.h"
#include "RunReport.h"
#include "Runs.h"
#include "Verification.h"

#include "openks/Fleet/TranspilerFleet.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/GrpcCluster.h"

#include <cstdlib>
#include <fmt/format.h>
#include <malloc.h>
#include <optional>

using namespace mlir;
using namespace openks;
using namespace openks::run;
using namespace openks::runtime;

/// Returns environment variable `name`, or "" when it is not set.
static std::string getVariable(const char *name) {
  const char *value = std::getenv(name);
  return value ? value : "";
}

/// Returns the options of the job's gRPC cluster from the environment: the
/// job token (OPENKS_JOB_TOKEN) and, when OPENKS_TLS_CERT is set, mutual
/// TLS from OPENKS_TLS_CERT, OPENKS_TLS_KEY and OPENKS_TLS_CA.
static StatusOr<GrpcClusterOptions>
getClusterOptions(const RunSettings &settings) {
  GrpcClusterOptions options;
  options.token = getVariable("OPENKS_JOB_TOKEN");
  if (options.token.empty())
    return Status::invalidArgument(
        "a role of a job needs the job's token: set OPENKS_JOB_TOKEN to one "
        "secret shared by every process of the job (openks-launch makes "
        "one)");
  TlsFiles tls{getVariable("OPENKS_TLS_CERT"), getVariable("OPENKS_TLS_KEY"),
               getVariable("OPENKS_TLS_CA")};
  int given = !tls.certificate.empty() + !tls.privateKey.empty() +
              !tls.rootCertificates.empty();
  if (given == 3)
    options.tls = tls;
  else if (given != 0)
    return Status::invalidArgument(
        "TLS needs all of OPENKS_TLS_CERT, OPENKS_TLS_KEY and OPENKS_TLS_CA "
        "(the certificate, its key and the certificate authority)");
  // A lost peer is seen within the liveness window, but never later than
  // the job's own timeout.
  options.liveness = std::min(options.liveness, settings.timeout);
  return options;
}

/// Keeps the memory freed in this process for the next allocation rather
/// than giving it back to the system: gRPC receives every message into
/// fresh buffers, and a buffer from pages given back and faulted in again
/// costs more than the copy into it (several times the wire time of a
/// block, where faults are slow, as in virtual machines).
static void keepFreedMemory() {
  // 32 MiB is the largest mmap threshold glibc takes; setting both also
  // stops glibc from adjusting them.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
}

/// Serves server `fleet` until every trainer has finished.
static int serve(fleet::TranspilerFleet &fleet, const RunSettings &settings) {
  if (Status status = fleet.initServer(settings.loadDir); !status.isOk())
    return fail(status.message());
  printTo(stdout, "{}: serving\n", fleet.server()->server().config().name);
  std::fflush(stdout);
  Status status = fleet.runServer();
  const ParameterServer &server = fleet.server()->server();
  ParameterServer::Stats stats = server.stats();
  printTo(stdout, "{}: received {}, sent {}{}\n", server.config().name,
          formatBytes(stats.bytesPushed), formatBytes(stats.bytesPulled),
          fleet.job()->mode == SyncMode::Sync
              ? fmt::format(", {} steps applied", stats.steps)
              : std::string());
  return status.isOk() ? 0 : fail(status.message());
}

/// Trains trainer `fleet`'s shards; returns the exit code.
static int trainShards(fleet::TranspilerFleet &fleet, train::StepOp reference,
                       const RunSettings &settings) {
  const JobSpec &job = *fleet.job();
  int trainer = fleet.workerIndex();
  int trainers = fleet.workerNum();
  int64_t startStep = 0;
  if (!settings.loadDir.empty()) {
    StatusOr<CheckpointInfo> info = readCheckpointInfo(settings.loadDir);
    if (!info)
      return fail(info.status().message());
    startStep = info->step;
    if (startStep >= settings.steps)
      return fail(fmt::format("the checkpoint {} is of step {}; there is no "
                              "step left to run up to step {}",
                              settings.loadDir, startStep, settings.steps));
  }
  std::unique_ptr<Verification> verification;
  if (settings.verify && trainer == 0) {
    if (job.mode != SyncMode::Sync)
      return fail(fmt::format("--verify checks sync training; this job is {}",
                              describeMode(job.mode)));
    if (settings.batchSize % trainers != 0)
      return fail(fmt::format("--verify needs equal shards: --batch-size {} "
                              "is not a multiple of the {} trainers",
                              settings.batchSize, trainers));
    StatusOr<std::unique_ptr<Verification>> created =
        Verification::create(reference, settings, startStep);
    if (!created)
      return fail(created.status().message());
    verification = std::move(*created);
  }
  std::vector<std::string> columns = listJobColumns(job, verification.get());
  // Trainer 0 writes the metrics and the page: the others would write the
  // same files.
  std::optional<MetricsWriter> metrics;
  if (!settings.metricsOut.empty() && trainer == 0) {
    StatusOr<MetricsWriter> writer =
        MetricsWriter::create(settings.metricsOut, columns);
    if (!writer)
      return fail(writer.status().message());
    metrics.emplace(std::move(*writer));
  }
  std::optional<RunReport> report;
  if (!settings.reportOut.empty() && trainer == 0) {
    StatusOr<RunReport> created = RunReport::createForJob(
        settings.reportOut,
        {settings.input,
         fmt::format("trainer 0 of a job whose {} and {} are processes: "
                     "its shards, its traffic",
                     countOf(job.servers.size(), "server"),
                     countOf(trainers, "trainer")),
         settings.batchSize, settings.data},
        columns, job);
    if (!created)
      return fail(created.status().message());
    report.emplace(std::move(*created));
  }

  StatusOr<std::unique_ptr<DataSource>> source = fleet.openData(settings.data);
  if (!source)
    return fail(source.status().message());
  if (startStep > 0)
    if (Status status = (*source)->skip(settings.batchSize, startStep);
        !status.isOk())
      return fail(status.message());
  if (Status status = fleet.initWorker(settings.loadDir); !status.isOk())
    return fail(status.message());

  bool savesCheckpoints = !settings.saveDir.empty() && trainer == 0;
  Progress progress(settings.steps, settings.logEvery);
  Progress::Clock::time_point start = Progress::Clock::now();
  Progress::Clock::time_point previous = start;
  double loss = 0;
  int64_t rows = 0;
  // The traffic before the current step, and that of the steps so far.
  CommunicationStats before = fleet.worker()->stats();
  int64_t stepBytesPushed = 0, stepBytesPulled = 0;
  for (int64_t step = startStep + 1; step <= settings.steps; ++step) {
    StatusOr<double> stepLoss = fleet.trainStep(**source, settings.batchSize);
    if (!stepLoss)
      return fail(stepLoss.status().message());
    loss = *stepLoss;
    const WorkerRole &worker = *fleet.worker();
    const std::vector<Tensor *> &inputs = worker.inputs();
    int64_t stepRows = !inputs.empty() && inputs.front()->rank() > 0
                           ? inputs.front()->dim(0)
                           : 0;
    rows += stepRows;
    std::vector<std::optional<double>> extra;
    for (std::optional<double> value : getScalarValues(worker.outputs()))
      extra.push_back(value);
    extra.erase(extra.begin());
    const CommunicationStats &after = worker.stats();
    extra.push_back(after.bytesPushed - before.bytesPushed);
    extra.push_back(after.bytesPulled - before.bytesPulled);
    stepBytesPushed += after.bytesPushed - before.bytesPushed;
    stepBytesPulled += after.bytesPulled - before.bytesPulled;
    before = after;
    if (verification) {
      if (Status status = verification->check(worker, job); !status.isOk()) {
        fleet.abortWorker(status);
        return fail(status.message());
      }
      for (const ParameterDifference &difference : verification->take(step))
        extra.push_back(difference.relative);
    }
    Progress::Clock::time_point now = Progress::Clock::now();
    progress.step(step, loss, stepRows, now);
    double samplesPerSecond =
        stepRows /
        std::max(std::chrono::duration<double>(now - previous).count(), 1e-9);
    if (metrics)
      if (Status status =
              metrics->writeStep(step, loss, samplesPerSecond, extra);
          !status.isOk())
        return fail(status.message());
    if (report)
      report->addStep(step, loss, samplesPerSecond, extra);
    previous = now;
    // Between its steps, trainer 0 holds every sync server back from the
    // next one: the checkpoint is the state after this step.
    if (savesCheckpoints && settings.saveEvery > 0 &&
        step % settings.saveEvery == 0 && step != settings.steps)
      if (Status status =
              fleet.saveCheckpoint(settings.saveDir, settings.checkpointFiles);
          !status.isOk()) {
        fleet.abortWorker(status);
        return fail(status.message());
      }
  }
  if (metrics)
    if (Status status = metrics->close(); !status.isOk())
      return fail(status.message());
  // The last checkpoint holds every trainer's steps.
  if (!settings.saveDir.empty()) {
    if (Status status = fleet.barrierWorker(); !status.isOk())
      return fail(status.message());
    if (savesCheckpoints)
      if (Status status =
              fleet.saveCheckpoint(settings.saveDir, settings.checkpointFiles);
          !status.isOk()) {
        fleet.abortWorker(status);
        return fail(status.message());
      }
  }
  if (Status status = fleet.stopWorker(); !status.isOk())
    return fail(status.message());

  double seconds =
      std::chrono::duration<double>(Progress::Clock::now() - start).count();
  const CommunicationStats &stats = fleet.worker()->stats();
  printTo(stdout,
          "trainer {} of {} ({}): trained {} steps in {:.2f} s: final loss "
          "{:.6f}, {:.0f} samples/s; pushed {}, pulled {} ({} and {} per "
          "step), {:.3f} s at barriers\n",
          trainer, trainers, describeMode(job.mode), settings.steps - startStep,
          seconds, loss, rows / std::max(seconds, 1e-9),
          formatBytes(stats.bytesPushed), formatBytes(stats.bytesPulled),
          formatBytes(stepBytesPushed /
                      std::max<int64_t>(settings.steps - startStep, 1)),
          formatBytes(stepBytesPulled /
                      std::max<int64_t>(settings.steps - startStep, 1)),
          std::chrono::duration<double>(stats.barrierWait).count());
  if (report) {
    report->addTrainerTraffic({trainer, settings.steps - startStep, rows,
                               stats.bytesPushed, stats.bytesPulled,
                               stats.barrierWait});
    report->setTotals(std::chrono::duration<double>(seconds), rows);
    if (Status status = report->write(); !status.isOk())
      return fail(status.message());
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

int openks::run::trainRole(ModuleOp job, train::StepOp reference,
                           const RunSettings &settings,
                           std::shared_ptr<fleet::RoleMaker> roleMaker) {
  if (!settings.faults.empty())
    return fail("--inject-fault breaks roles of an in-process job; stop a "
                "process of this one instead");
  if (Status status = roleMaker->generateRole(); !status.isOk())
    return fail(status.message());
  StatusOr<GrpcClusterOptions> clusterOptions = getClusterOptions(settings);
  if (!clusterOptions)
    return fail(clusterOptions.status().message());
  keepFreedMemory();
  StatusOr<std::shared_ptr<Cluster>> cluster =
      createGrpcCluster(*clusterOptions);
  if (!cluster)
    return fail(cluster.status().message());
  int trainers = roleMaker->workerNum();
  if (settings.batchSize < trainers)
    return fail(fmt::format("--batch-size {} gives the {} trainers less than "
                            "a row each",
                            settings.batchSize, trainers));
  fleet::FleetOptions options;
  options.maxBatch = (settings.batchSize + trainers - 1) / trainers;
  options.runSeed = settings.seed;
  options.timeout = settings.timeout;
  fleet::TranspilerFleet fleet(*cluster, options);
  if (Status status = fleet.init(roleMaker); !status.isOk())
    return fail(status.message());
  if (Status status = fleet.loadJob(job); !status.isOk())
    return fail(status.message());
  return fleet.isServer() ? serve(fleet, settings)
                          : trainShards(fleet, reference, settings);
}
