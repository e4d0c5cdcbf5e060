//===- LocalJob.cpp - Every role of a job as a thread of this process -----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/LocalJob.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/ComputeThreads.h"
#include "openks/Runtime/InProcessCluster.h"
#include "openks/Runtime/Kernels.h"
#include "openks/Runtime/ServerSnapshot.h"
#include "openks/Support/Thread.h"

#include <cmath>
#include <condition_variable>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <optional>

using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;

StatusOr<InjectedFault>
openks::fleet::parseInjectedFault(const std::string &text) {
  auto invalid = [&] {
    return Status::invalidArgument(
        "cannot parse the fault '{}': expected trainerT:KIND@STEP (KIND one "
        "of error, nan, hang, finish) or serverS:error@UPDATE",
        text);
  };
  size_t colon = text.find(':'), at = text.find('@');
  if (colon == std::string::npos || at == std::string::npos || at < colon)
    return invalid();
  std::string role = text.substr(0, colon);
  std::string kind = text.substr(colon + 1, at - colon - 1);
  InjectedFault fault;
  std::string index;
  if (role.rfind("trainer", 0) == 0) {
    index = role.substr(7);
  } else if (role.rfind("server", 0) == 0) {
    fault.server = true;
    index = role.substr(6);
  } else {
    return invalid();
  }
  auto parseCount = [](const std::string &digits, int64_t &value) -> bool {
    if (digits.empty() || digits.size() > 12 ||
        digits.find_first_not_of("0123456789") != std::string::npos)
      return false;
    value = std::stoll(digits);
    return true;
  };
  int64_t roleIndex = 0;
  if (!parseCount(index, roleIndex) || roleIndex > 1 << 20 ||
      !parseCount(text.substr(at + 1), fault.step) || fault.step < 1)
    return invalid();
  fault.index = static_cast<int>(roleIndex);
  if (kind == "error")
    fault.kind = InjectedFault::Kind::Error;
  else if (kind == "nan" && !fault.server)
    fault.kind = InjectedFault::Kind::NaN;
  else if (kind == "hang" && !fault.server)
    fault.kind = InjectedFault::Kind::Hang;
  else if (kind == "finish" && !fault.server)
    fault.kind = InjectedFault::Kind::Finish;
  else
    return invalid();
  return fault;
}

/// The failure of a run, and a way to wait for one. A role's own failure
/// (a trainer's error, a server's failed update) wins over the failures it
/// causes in other roles (a server told that a trainer failed), whatever
/// thread gets there first.
class LocalJob::Failures {
public:
  /// Records `status` unless a failure of the same rank came first; a
  /// server that lost a trainer (PeerLost) ranks below a role's own error.
  void record(const Status &status) {
    std::lock_guard<std::mutex> lock(mutex_);
    Status &slot =
        status.code() == StatusCode::PeerLost ? consequence_ : cause_;
    if (slot.isOk())
      slot = status;
    changed_.notify_all();
  }
  /// Waits until some role has failed or `timeout` has passed.
  void waitForAny(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, timeout,
                      [&] { return !cause_.isOk() || !consequence_.isOk(); });
  }
  /// Returns the failure that explains the run best, or success.
  Status first() {
    std::lock_guard<std::mutex> lock(mutex_);
    return cause_.isOk() ? consequence_ : cause_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  Status cause_ = Status::ok();
  Status consequence_ = Status::ok();
};

StatusOr<std::unique_ptr<LocalJob>> LocalJob::create(mlir::ModuleOp module,
                                                     FleetOptions options) {
  auto jobAttr = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
  if (!jobAttr)
    return Status::invalidArgument(
        "the module is not a transpiled job: it has no '{}' attribute",
        ps::JobAttr::kAttrName.str());
  std::vector<std::string> endpoints = jobAttr.getEndpointNames();
  int trainers = static_cast<int>(jobAttr.getTrainers());
  std::unique_ptr<LocalJob> run(new LocalJob());
  run->options_ = options;
  run->cluster_ = std::make_shared<InProcessCluster>();
  auto makeRole = [&](Role role,
                      int index) -> StatusOr<std::unique_ptr<TranspilerFleet>> {
    auto fleet = std::make_unique<TranspilerFleet>(run->cluster_, options);
    OPENKS_RETURN_IF_ERROR(fleet->init(
        std::make_shared<LocalRoleMaker>(role, index, endpoints, trainers)));
    OPENKS_RETURN_IF_ERROR(fleet->loadJob(module));
    return fleet;
  };
  for (int index = 0; index < static_cast<int>(endpoints.size()); ++index) {
    StatusOr<std::unique_ptr<TranspilerFleet>> server =
        makeRole(Role::Server, index);
    if (!server)
      return server.status();
    run->servers_.push_back(std::move(*server));
  }
  for (int index = 0; index < trainers; ++index) {
    StatusOr<std::unique_ptr<TranspilerFleet>> trainer =
        makeRole(Role::Worker, index);
    if (!trainer)
      return trainer.status();
    run->trainers_.push_back(std::move(*trainer));
  }
  run->rows_.assign(trainers, 0);
  return run;
}

namespace {
/// A data source whose batch of one step turns to NaN: a trainer's
/// injected fault.
class PoisonedSource : public DataSource {
public:
  PoisonedSource(std::unique_ptr<DataSource> source, int64_t step)
      : source_(std::move(source)), step_(step) {}

  Status next(int64_t globalBatch, const std::vector<Tensor *> &feeds) override;
  int64_t epoch() const override { return source_->epoch(); }

private:
  std::unique_ptr<DataSource> source_;
  int64_t step_;
  int64_t taken_ = 0;
};
} // namespace

Status PoisonedSource::next(int64_t globalBatch,
                            const std::vector<Tensor *> &feeds) {
  OPENKS_RETURN_IF_ERROR(source_->next(globalBatch, feeds));
  if (++taken_ != step_)
    return Status::ok();
  bool poisoned = false;
  for (Tensor *feed : feeds)
    if (feed->dtype() != DType::I64) {
      OPENKS_RETURN_IF_ERROR(
          kernels::fill(std::numeric_limits<double>::quiet_NaN(), *feed));
      poisoned = true;
    }
  if (!poisoned)
    return Status::invalidArgument(
        "cannot inject a NaN: the step has no float input");
  return Status::ok();
}

Status LocalJob::runServer(int index, const JobRunOptions &options) {
  TranspilerFleet &fleet = *servers_[index];
  OPENKS_RETURN_IF_ERROR(fleet.initServer(options.loadDir));
  for (const InjectedFault &fault : options.faults)
    if (fault.server && fault.index == index)
      fleet.server()->role().injectFault(fault.step);
  return fleet.runServer();
}

bool LocalJob::savesAfter(const JobRunOptions &options, int64_t step) {
  return !options.saveDir.empty() &&
         (step == options.steps ||
          (options.saveEvery > 0 && step % options.saveEvery == 0));
}

bool LocalJob::observesAfter(const JobRunOptions &options, int64_t step) {
  return options.observe && options.observes && options.observes(step);
}

Status LocalJob::snapshotJob(const JobRunOptions &options, int64_t step,
                             const ParameterStore &local, bool save,
                             bool observe) const {
  // The servers' blocks are read as any role reads them, through a
  // transport of the cluster.
  Deadline deadline = Deadline::after(options_.timeout);
  StatusOr<std::unique_ptr<Transport>> transport =
      cluster_->connect(job(), /*trainer=*/0, deadline);
  if (!transport)
    return transport.status();
  StatusOr<std::vector<ParameterStore>> servers =
      readServerStores(**transport, job(), deadline);
  if (!servers)
    return servers.status();
  std::vector<const ParameterStore *> stores =
      listCheckpointStores(*servers, local);
  if (save)
    OPENKS_RETURN_IF_ERROR(saveCheckpoint(options.saveDir, stores,
                                          checkpointModeName(job().mode), step,
                                          {}, options.checkpointFiles));
  return observe ? options.observe(step, stores) : Status::ok();
}

Status LocalJob::saveLast(const JobRunOptions &options,
                          int64_t startStep) const {
  if (options.saveDir.empty())
    return Status::ok();
  const WorkerRole *last = nullptr;
  for (const std::unique_ptr<TranspilerFleet> &trainer : trainers_)
    if (const WorkerRole *worker = trainer->worker();
        worker && (!last || worker->lastStep() > last->lastStep()))
      last = worker;
  if (!last || last->lastStep() == startStep)
    return Status::ok();
  return snapshotJob(options, last->lastStep(), last->store(), /*save=*/true,
                     /*observe=*/false);
}

Status LocalJob::runTrainer(int index, const JobRunOptions &options,
                            int64_t startStep, Failures &failures,
                            StepLog &log) {
  TranspilerFleet &fleet = *trainers_[index];
  std::optional<InjectedFault> fault;
  for (const InjectedFault &candidate : options.faults)
    if (!candidate.server && candidate.index == index) {
      fault = candidate;
      break;
    }
  int64_t step = 0;
  // Records a failure of this trainer and ends its log.
  auto record = [&](const Status &status) {
    failures.record(status);
    log.finish(index, step - 1);
  };
  // A failure the fleet has already reported to the other roles.
  auto failed = [&](const Status &status) {
    record(status);
    return status;
  };
  // A failure of this loop, which the other roles are yet to hear of.
  auto fail = [&](const Status &status) {
    Status named = status.withContext(
        step ? fmt::format("trainer {}: step {}", index, step)
             : fmt::format("trainer {}", index));
    record(named);
    fleet.abortWorker(named);
    return named;
  };

  StatusOr<std::unique_ptr<DataSource>> source = fleet.openData(options.data);
  if (!source)
    return fail(source.status());
  if (startStep > 0)
    if (Status status = (*source)->skip(options.globalBatch, startStep);
        !status.isOk())
      return fail(status);
  if (fault && fault->kind == InjectedFault::Kind::NaN)
    *source = std::make_unique<PoisonedSource>(std::move(*source), fault->step);
  if (Status status = fleet.initWorker(options.loadDir); !status.isOk())
    return failed(status);

  // The traffic before this step, to report each step's own.
  CommunicationStats before = fleet.worker()->stats();
  for (step = startStep + 1; step <= options.steps; ++step) {
    bool faultDue = fault && fault->step == step;
    if (faultDue && fault->kind == InjectedFault::Kind::Error)
      return fail(Status::error(StatusCode::Internal, "injected fault"));
    if (faultDue && fault->kind == InjectedFault::Kind::Hang) {
      // Silent: the servers find out by their timeout, and then this thread
      // ends too.
      log.finish(index, step - 1);
      failures.waitForAny(4 * options_.timeout);
      return Status::error(StatusCode::Cancelled,
                           "trainer {} hung on purpose at step {}", index,
                           step);
    }
    if (faultDue && fault->kind == InjectedFault::Kind::Finish)
      break;
    StatusOr<double> loss = fleet.trainStep(**source, options.globalBatch);
    if (!loss)
      return failed(loss.status());

    const WorkerRole &worker = *fleet.worker();
    const std::vector<Tensor *> &inputs = worker.inputs();
    int64_t rows = !inputs.empty() && inputs.front()->rank() > 0
                       ? inputs.front()->dim(0)
                       : 0;
    rows_[index] += rows;
    // The hook sees the step before its summary can go out.
    if (options.afterStep)
      if (Status status = options.afterStep(worker); !status.isOk())
        return fail(status);
    // A save or an observation of this step may run in another trainer's
    // thread, once this one has moved on: it gets what only workers hold as
    // it is now.
    if ((savesAfter(options, step) && step != options.steps) ||
        observesAfter(options, step)) {
      StatusOr<ParameterStore> local = worker.copyLocalVariables();
      if (!local)
        return fail(local.status());
      std::lock_guard<std::mutex> lock(localCopiesMutex_);
      localCopies_[step].emplace(index, std::move(*local));
    }
    const CommunicationStats &after = worker.stats();
    log.report(index, step, rows, after.bytesPushed - before.bytesPushed,
               after.bytesPulled - before.bytesPulled,
               getScalarValues(worker.outputs()));
    before = after;
    // The save runs in the thread whose report completes the step; a
    // failed one stops whichever trainer finds it.
    if (savesAfter(options, step) || observesAfter(options, step))
      if (Status status = failures.first(); !status.isOk())
        return fail(status);
  }
  log.finish(index, step - 1);
  step = 0;
  if (Status status = fleet.stopWorker(); !status.isOk())
    return failed(status);
  return Status::ok();
}

Status LocalJob::run(const JobRunOptions &options) {
  if (ran_)
    return Status::error(StatusCode::FailedPrecondition,
                         "a local job runs once");
  ran_ = true;
  for (const InjectedFault &fault : options.faults)
    if ((fault.server ? numServers() : numTrainers()) <= fault.index)
      return Status::invalidArgument(
          "cannot inject a fault into {} {}: the job has {}",
          fault.server ? "server" : "trainer", fault.index,
          fault.server ? numServers() : numTrainers());
  if (!options.saveDir.empty())
    OPENKS_RETURN_IF_ERROR(checkCheckpointTarget(options.saveDir));
  int64_t startStep = 0;
  if (!options.loadDir.empty()) {
    StatusOr<CheckpointInfo> info = readCheckpointInfo(options.loadDir);
    if (!info)
      return info.status();
    startStep = info->step;
    if (startStep >= options.steps)
      return Status::error(StatusCode::FailedPrecondition,
                           "the checkpoint {} is of step {}; there is no "
                           "step left to run up to step {}",
                           options.loadDir, startStep, options.steps);
  }
  Failures failures;
  // Summaries go out in the thread whose report completes a step, before
  // that trainer sends anything of the next step: a sync server cannot
  // apply the next step until it does, so a checkpoint taken here is the
  // state after this step.
  StepLog log(
      numTrainers(),
      [&](const StepSummary &summary) {
        bool save =
            savesAfter(options, summary.step) && summary.step != options.steps;
        bool observe = observesAfter(options, summary.step);
        if ((save || observe) && failures.first().isOk()) {
          std::map<int, ParameterStore> copies;
          {
            std::lock_guard<std::mutex> lock(localCopiesMutex_);
            copies = std::move(localCopies_[summary.step]);
            localCopies_.erase(summary.step);
          }
          // The lowest-numbered trainer that ran the step.
          if (Status status = snapshotJob(
                  options, summary.step, copies.begin()->second, save, observe);
              !status.isOk())
            failures.record(status);
        }
        if (options.onStep)
          options.onStep(summary);
      },
      startStep + 1);

  std::vector<Thread> threads;
  // Starts a role's thread; one that cannot start stops the others at once.
  auto start = [&](const std::string &role, std::function<void()> body) {
    StatusOr<Thread> thread = Thread::start(role, std::move(body));
    if (!thread) {
      failures.record(thread.status());
      cluster_->abort(thread.status());
      return false;
    }
    threads.push_back(std::move(*thread));
    return true;
  };
  // Each role computes on its own share of the machine.
  std::vector<int> budgets = splitComputeThreads(
      options.threads ? options.threads : getComputeThreads(), numServers(),
      numTrainers());
  bool started = true;
  for (int server = 0; server < numServers() && started; ++server)
    started = start(fmt::format("server {}", server), [&, server] {
      setComputeThreads(budgets[server]);
      if (Status status = runServer(server, options); !status.isOk()) {
        cluster_->abort(status);
        failures.record(status);
      }
    });
  for (int trainer = 0; trainer < numTrainers() && started; ++trainer)
    started = start(fmt::format("trainer {}", trainer), [&, trainer] {
      setComputeThreads(budgets[numServers() + trainer]);
      (void)runTrainer(trainer, options, startStep, failures, log);
    });
  for (Thread &thread : threads)
    thread.join();
  if (Status status = failures.first(); !status.isOk())
    return status;
  return saveLast(options, startStep);
}
