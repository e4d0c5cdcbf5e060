//===- InProcessJob.cpp - Every role of a job as a thread -----------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/InProcessJob.h"

#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Kernels.h"

#include <cmath>
#include <condition_variable>
#include <fmt/format.h>
#include <limits>
#include <mutex>
#include <optional>
#include <thread>

using namespace openks;
using namespace openks::runtime;

StatusOr<InjectedFault> openks::runtime::parseInjectedFault(
    const std::string &text) {
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
  auto parseCount = [](const std::string &digits,
                       int64_t &value) -> bool {
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

/// The first failure of a run, and a way to wait for one.
class InProcessJob::Failures {
public:
  /// Records `status` unless a failure came first.
  void record(const Status &status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (first_.isOk())
      first_ = status;
    changed_.notify_all();
  }
  /// Waits until some role has failed or `timeout` has passed.
  void waitForAny(std::chrono::milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait_for(lock, timeout, [&] { return !first_.isOk(); });
  }
  Status first() {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  Status first_ = Status::ok();
};

StatusOr<std::unique_ptr<InProcessJob>>
InProcessJob::create(JobSpec &job, std::chrono::milliseconds timeout) {
  std::unique_ptr<InProcessJob> run(new InProcessJob());
  run->job_ = &job;
  std::vector<ParameterServer *> servers;
  for (ServerSpec &spec : job.servers) {
    StatusOr<std::unique_ptr<ServerRole>> role = ServerRole::create(spec);
    if (!role)
      return role.status();
    ServerConfig config{fmt::format("{} ({})", spec.name, spec.endpoint),
                        spec.mode, spec.trainers, timeout};
    run->servers_.push_back(
        std::make_unique<ParameterServer>(std::move(config), **role));
    run->roles_.push_back(std::move(*role));
    servers.push_back(run->servers_.back().get());
  }
  run->transport_ = std::make_unique<InProcessTransport>(std::move(servers));
  for (int trainer = 0; trainer < job.trainers; ++trainer) {
    StatusOr<std::unique_ptr<WorkerRole>> worker =
        WorkerRole::create(job.worker, *run->transport_, trainer, timeout);
    if (!worker)
      return worker.status();
    run->trainers_.push_back(std::move(*worker));
  }
  run->rows_.assign(job.trainers, 0);
  return run;
}

/// Turns every float input of a step to NaN.
static Status poisonInputs(const std::vector<Tensor *> &inputs) {
  bool poisoned = false;
  for (Tensor *input : inputs)
    if (input->dtype() != DType::I64) {
      OPENKS_RETURN_IF_ERROR(
          kernels::fill(std::numeric_limits<double>::quiet_NaN(), *input));
      poisoned = true;
    }
  if (!poisoned)
    return Status::invalidArgument(
        "cannot inject a NaN: the step has no float input");
  return Status::ok();
}

bool InProcessJob::savesAfter(const JobRunOptions &options, int64_t step) {
  return !options.saveDir.empty() &&
         (step == options.steps ||
          (options.saveEvery > 0 && step % options.saveEvery == 0));
}

Status InProcessJob::runTrainer(int index, const JobRunOptions &options,
                                int64_t startStep, Failures &failures,
                                StepLog &log) {
  WorkerRole &worker = *trainers_[index];
  std::optional<InjectedFault> fault;
  for (const InjectedFault &candidate : options.faults)
    if (!candidate.server && candidate.index == index) {
      fault = candidate;
      break;
    }
  int64_t step = 0;
  auto fail = [&](const Status &status) {
    Status named = status.withContext(
        step ? fmt::format("trainer {}: step {}", index, step)
             : fmt::format("trainer {}", index));
    failures.record(named);
    worker.abort(named);
    log.finish(index, step - 1);
    return named;
  };

  std::unique_ptr<DataSource> source;
  Status status =
      openDataSource(options.data, job_->worker.main.inputSpecs(),
                     Shard{index, numTrainers()}, source);
  if (status.isOk() && startStep > 0)
    status = source->skip(options.globalBatch, startStep);
  if (status.isOk())
    status = worker.start();
  if (!status.isOk())
    return fail(status);

  for (step = startStep + 1; step <= options.steps; ++step) {
    bool faultDue = fault && fault->step == step;
    if (faultDue && fault->kind == InjectedFault::Kind::Error)
      return fail(Status::error(StatusCode::Internal, "injected fault"));
    if (faultDue && fault->kind == InjectedFault::Kind::Hang) {
      // Silent: the servers find out by their timeout, and then this thread
      // ends too.
      log.finish(index, step - 1);
      failures.waitForAny(4 * options.timeout);
      return Status::error(StatusCode::Cancelled,
                           "trainer {} hung on purpose at step {}", index,
                           step);
    }
    if (faultDue && fault->kind == InjectedFault::Kind::Finish)
      break;
    status = source->next(options.globalBatch, worker.inputs());
    if (status.isOk() && faultDue && fault->kind == InjectedFault::Kind::NaN)
      status = poisonInputs(worker.inputs());
    if (status.isOk())
      status = worker.step();
    if (!status.isOk())
      return fail(status);

    std::vector<std::optional<double>> values =
        getScalarValues(worker.outputs());
    if (!values.empty() && values.front() && !std::isfinite(*values.front()))
      return fail(Status::error(StatusCode::OutOfRange,
                                "the loss is {}; lower the learning rate or "
                                "check the data",
                                *values.front()));
    const std::vector<Tensor *> &inputs = worker.inputs();
    int64_t rows = !inputs.empty() && inputs.front()->rank() > 0
                       ? inputs.front()->dim(0)
                       : 0;
    rows_[index] += rows;
    // The hook sees the step before its summary can go out.
    if (options.afterStep)
      if (status = options.afterStep(worker); !status.isOk())
        return fail(status);
    log.report(index, step, rows, values);
    // The save runs in the thread whose report completes the step; a
    // failed one stops whichever trainer finds it.
    if (savesAfter(options, step))
      if (status = failures.first(); !status.isOk())
        return fail(status);
  }
  int64_t last = step - 1;
  log.finish(index, last);
  step = 0;
  if (status = worker.finish(); !status.isOk())
    return fail(status);
  return Status::ok();
}

Status InProcessJob::run(const JobRunOptions &options) {
  if (ran_)
    return Status::error(StatusCode::FailedPrecondition,
                         "an in-process job runs once");
  ran_ = true;
  Failures failures;
  for (const InjectedFault &fault : options.faults) {
    if ((fault.server ? numServers() : numTrainers()) <= fault.index)
      return Status::invalidArgument(
          "cannot inject a fault into {} {}: the job has {}",
          fault.server ? "server" : "trainer", fault.index,
          fault.server ? numServers() : numTrainers());
    if (fault.server)
      roles_[fault.index]->injectFault(fault.step);
  }
  for (std::unique_ptr<ServerRole> &role : roles_)
    OPENKS_RETURN_IF_ERROR(role->initialize());
  int64_t startStep = 0;
  if (!options.loadDir.empty()) {
    StatusOr<CheckpointInfo> loaded = loadCheckpoint(options.loadDir, *job_);
    if (!loaded)
      return loaded.status();
    startStep = loaded->step;
    if (startStep >= options.steps)
      return Status::error(StatusCode::FailedPrecondition,
                           "the checkpoint {} is of step {}; there is no "
                           "step left to run up to step {}",
                           options.loadDir, startStep, options.steps);
  }
  // Summaries go out in the thread whose report completes a step, before
  // that trainer sends anything of the next step: a sync server cannot
  // apply the next step until it does, so a checkpoint taken here is the
  // state after this step.
  StepLog log(
      numTrainers(),
      [&](const StepSummary &summary) {
        if (savesAfter(options, summary.step) && failures.first().isOk())
          if (Status saved =
                  saveCheckpoint(options.saveDir, *job_, summary.step);
              !saved.isOk())
            failures.record(saved);
        if (options.onStep)
          options.onStep(summary);
      },
      startStep + 1);

  std::vector<std::thread> threads;
  for (std::unique_ptr<ParameterServer> &server : servers_)
    threads.emplace_back([&failures, server = server.get()] {
      if (Status status = server->serve(); !status.isOk())
        failures.record(status);
    });
  for (int trainer = 0; trainer < numTrainers(); ++trainer)
    threads.emplace_back([&, trainer] {
      (void)runTrainer(trainer, options, startStep, failures, log);
    });
  for (std::thread &thread : threads)
    thread.join();
  return failures.first();
}
