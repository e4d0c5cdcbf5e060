//===- JobRun.cpp - A transpiled job with every role a thread -------------===//
//
// Part of the OpenKS Fleet compiler.
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

#include "MetricsWriter.h"
#include "Progress.h"
#include "Runs.h"

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

namespace {

/// Returns whether a relative difference is worse than `worst`: NaN is
/// worse than any number.
static bool isWorse(double difference, double worst) {
  return !std::isnan(worst) && (std::isnan(difference) || difference > worst);
}

/// What explains a difference between a job and single-process training
/// beyond the tolerance.
struct RoundingModel {
  /// Whether any trained parameter is f32.
  bool f32 = false;
  /// Whether an optimizer divides by a running magnitude of the gradient
  /// (adam, adagrad, rmsprop, ...), which magnifies rounding.
  bool adaptive = false;
};

/// The single-process reference of a sync job and its comparisons.
class Verification {
public:
  /// Checks the steps after `startStep` (a resumed checkpoint's).
  Verification(std::unique_ptr<LocalTrainer> reference, int64_t batch,
               double tolerance, int64_t startStep, RoundingModel rounding)
      : reference_(std::move(reference)), batch_(batch), tolerance_(tolerance),
        startStep_(startStep), rounding_(rounding) {
    const ParameterStore &store = reference_->store();
    for (ParameterId id = 0; id < store.size(); ++id)
      if (store[id].trainable)
        names_.push_back(store[id].name);
  }

  /// Returns the compared parameters, in store order.
  const std::vector<std::string> &names() const { return names_; }
  double tolerance() const { return tolerance_; }

  /// Runs the reference's step and compares `worker`'s parameters with its
  /// own, then moves the reference to `worker`'s parameters, so that each
  /// step is checked from the parameters the job had: float rounding, which
  /// differs between one sum and a sum of shards, is amplified by training
  /// and would otherwise be mistaken for an error after a few hundred steps
  /// (trainer 0's thread).
  Status check(const WorkerRole &worker) {
    OPENKS_RETURN_IF_ERROR(
        reference_->step(batch_).withContext("the --verify reference"));
    StatusOr<std::vector<ParameterDifference>> differences =
        compareParameters(worker.store(), reference_->store());
    if (!differences)
      return differences.status();
    OPENKS_RETURN_IF_ERROR(reference_->adoptParameters(worker.store()));
    int64_t step = startStep_ + worker.steps();
    std::lock_guard<std::mutex> lock(mutex_);
    for (const ParameterDifference &difference : *differences)
      if (isWorse(difference.relative, worst_.relative) || worstStep_ == 0) {
        worst_ = difference;
        worstStep_ = step;
      }
    byStep_[step] = std::move(*differences);
    return Status::ok();
  }

  /// Returns and forgets the differences of `step` (the log's thread).
  std::vector<ParameterDifference> take(int64_t step) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = byStep_.find(step);
    if (it == byStep_.end())
      return {};
    std::vector<ParameterDifference> differences = std::move(it->second);
    byStep_.erase(it);
    return differences;
  }

  /// Returns whether every difference was within the tolerance (a NaN
  /// never is).
  bool passed() const { return worst_.relative <= tolerance_; }
  /// Returns the verdict over `steps` steps; a failed one says what
  /// explains the difference.
  std::string describe(int64_t steps) const {
    std::string verdict = fmt::format(
        "{} single-process training in each of {} steps: largest relative "
        "difference {:.3g} ({} after step {}), tolerance {:.3g}",
        passed() ? "matches" : "differs from", steps, worst_.relative,
        worst_.name, worstStep_, tolerance_);
    if (!passed())
      verdict += " (" + explainFailure() + ")";
    return verdict;
  }

private:
  /// Returns what explains the worst difference: NaN, float rounding (of
  /// its magnitude, magnified by an adaptive optimizer), or none of these.
  std::string explainFailure() const {
    if (std::isnan(worst_.relative))
      return "a NaN: the job or single-process training produced a NaN "
             "parameter; lower the learning rate or check the data";
    // What rounding gives when each step starts from the job's parameters:
    // a few units in the last place of the sums that differ between one
    // batch and its shards.
    double rounding = rounding_.f32 ? 1e-4 : 1e-9;
    if (worst_.relative <= rounding)
      return fmt::format("within what {} rounding of sums over shards gives "
                         "(up to about {:.0e}): a --verify-tolerance that "
                         "accepts it",
                         rounding_.f32 ? "f32" : "f64", rounding);
    if (rounding_.f32 && rounding_.adaptive)
      return "adaptive optimizers such as adam and adagrad magnify the f32 "
             "rounding of gradients that nearly cancel, by up to lr / "
             "epsilon: a difference of that kind needs f64 parameters or a "
             "--verify-tolerance that accepts it; see docs/Runtime.md";
    return fmt::format(
        "more than {} rounding explains{}: the job's step is not "
        "single-process training's, a defect; please report it with the "
        "program and this command",
        rounding_.f32 ? "f32" : "f64",
        rounding_.adaptive ? "" : ", and no optimizer here magnifies it");
  }

  std::unique_ptr<LocalTrainer> reference_;
  int64_t batch_;
  double tolerance_;
  int64_t startStep_;
  RoundingModel rounding_;
  std::vector<std::string> names_;
  std::mutex mutex_;
  std::map<int64_t, std::vector<ParameterDifference>> byStep_;
  ParameterDifference worst_;
  int64_t worstStep_ = 0;
};

} // namespace

/// Returns the single-process trainer of `step` with room for `batch` rows.
static StatusOr<std::unique_ptr<LocalTrainer>>
createReference(train::StepOp step, const RunSettings &settings) {
  PlanOptions options;
  options.maxBatch = settings.batchSize;
  options.runSeed = settings.seed;
  FailureOr<ParameterStore> store = buildParameterStore(
      SymbolTable::getNearestSymbolTable(step->getParentOp()), options);
  if (failed(store))
    return Status::invalidArgument("cannot build the --verify reference");
  FailureOr<Plan> plan = buildPlan(step.getBody(), *store, options);
  if (failed(plan))
    return Status::invalidArgument("cannot build the --verify reference");
  return LocalTrainer::create(std::move(*store), std::move(*plan),
                              settings.data);
}

/// Returns what explains rounding differences in training `step` over
/// `store`.
static RoundingModel getRoundingModel(train::StepOp step,
                                      const ParameterStore &store) {
  RoundingModel model;
  for (ParameterId id = 0; id < store.size(); ++id)
    model.f32 |= store[id].trainable && store[id].value.dtype() == DType::F32;
  step.walk([&](train::OptimizerOpInterface optimizer) {
    model.adaptive |= !isa<train::SgdOp, train::MomentumOp>(optimizer);
  });
  return model;
}

/// Returns the tolerance of --verify: the one asked for, else 1e-5 when any
/// parameter is f32 and 1e-10 when all are f64.
static double getTolerance(const RoundingModel &rounding,
                           const RunSettings &settings) {
  if (settings.verifyTolerance > 0)
    return settings.verifyTolerance;
  return rounding.f32 ? 1e-5 : 1e-10;
}

/// Returns `bytes` for people: "512 B", "3.2 MB".
static std::string formatBytes(int64_t bytes) {
  if (bytes < 1024)
    return fmt::format("{} B", bytes);
  if (bytes < 1024 * 1024)
    return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0));
}

/// Returns "1 trainer" or "2 trainers".
static std::string countOf(int64_t count, const char *noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

static const char *describeMode(SyncMode mode) {
  switch (mode) {
  case SyncMode::Sync:
    return "sync";
  case SyncMode::Async:
    return "async";
  case SyncMode::HalfAsync:
    return "half-async";
  case SyncMode::Geo:
    return "geo";
  }
  return "?";
}

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

  std::optional<Verification> verification;
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
    StatusOr<std::unique_ptr<LocalTrainer>> local =
        createReference(reference, settings);
    if (!local)
      return fail(local.status().message());
    if (Status status = (*local)->start(); !status.isOk())
      return fail(status.message());
    // A resumed job is checked from the same checkpoint.
    if (!settings.loadDir.empty())
      if (StatusOr<int64_t> resumed =
              (*local)->resume(settings.loadDir, settings.batchSize);
          !resumed)
        return fail(resumed.status().message());
    RoundingModel rounding = getRoundingModel(reference, (*local)->store());
    verification.emplace(std::move(*local), settings.batchSize,
                         getTolerance(rounding, settings), startStep, rounding);
  }

  const std::vector<std::string> &names = job.worker->main.outputNames();
  std::vector<std::string> columns(names.begin() + 1, names.end());
  if (verification)
    for (const std::string &name : verification->names())
      columns.push_back("relative_difference:" + name);
  std::optional<MetricsWriter> metrics;
  if (!settings.metricsOut.empty()) {
    StatusOr<MetricsWriter> writer =
        MetricsWriter::create(settings.metricsOut, columns);
    if (!writer)
      return fail(writer.status().message());
    metrics.emplace(std::move(*writer));
  }

  Progress progress(settings.steps, settings.logEvery);
  Progress::Clock::time_point start = Progress::Clock::now();
  Progress::Clock::time_point previous = start;
  Status metricsStatus = Status::ok();
  double loss = 0;
  int64_t totalRows = 0;
  fleet::JobRunOptions runOptions;
  runOptions.steps = settings.steps;
  runOptions.globalBatch = settings.batchSize;
  runOptions.data = settings.data;
  runOptions.faults = settings.faults;
  runOptions.loadDir = settings.loadDir;
  runOptions.saveDir = settings.saveDir;
  runOptions.saveEvery = settings.saveEvery;
  if (verification)
    runOptions.afterStep = [&](const WorkerRole &worker) {
      return worker.trainer() == 0 ? verification->check(worker) : Status::ok();
    };
  runOptions.onStep = [&](const StepSummary &summary) {
    loss = summary.means.front().value_or(NAN);
    totalRows += summary.rows;
    progress.step(summary.step, loss, summary.rows, summary.completed);
    std::vector<std::optional<double>> extra(summary.means.begin() + 1,
                                             summary.means.end());
    if (verification)
      for (const ParameterDifference &difference :
           verification->take(summary.step))
        extra.push_back(difference.relative);
    double seconds =
        std::chrono::duration<double>(summary.completed - previous).count();
    previous = summary.completed;
    if (metrics && metricsStatus.isOk())
      metricsStatus = metrics->writeStep(
          summary.step, loss, summary.rows / std::max(seconds, 1e-9), extra);
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
  for (int index = 0; index < (*run)->numServers(); ++index) {
    const ParameterServer &server = (*run)->server(index).server();
    ParameterServer::Stats stats = server.stats();
    printTo(stdout, "  {}: received {}, sent {}{}\n", server.config().name,
            formatBytes(stats.bytesPushed), formatBytes(stats.bytesPulled),
            job.mode == SyncMode::Sync
                ? fmt::format(", {} steps applied", stats.steps)
                : std::string());
  }
  for (int index = 0; index < (*run)->numTrainers(); ++index) {
    const CommunicationStats &stats = (*run)->trainer(index).stats();
    printTo(stdout,
            "  trainer {}: {} steps, {} rows, pushed {}, pulled {}, {:.3f} "
            "s at barriers\n",
            index, (*run)->trainer(index).steps(), (*run)->rows(index),
            formatBytes(stats.bytesPushed), formatBytes(stats.bytesPulled),
            std::chrono::duration<double>(stats.barrierWait).count());
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
