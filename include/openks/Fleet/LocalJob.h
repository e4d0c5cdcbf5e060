//===- InProcessJob.h - Every role of a job as a thread ---------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Runs a loaded job in this process: one thread per server (its
// ParameterServer over its ServerRole) and one per trainer (a WorkerRole),
// talking through the in-process transport. Trainer t reads shard t of
// every global batch from its own data source, runs the startup step, the
// steps, and says it is done; servers stop once every trainer is done.
//
// Failure: a trainer that fails (a kernel error, a non-finite loss, bad
// data) fails every server with its error, so every other role stops
// within the timeout; a server that fails does the same to the trainers
// through their calls. The run then returns the first failure, which names
// the role that caused it. A trainer that stops early (out of steps or by
// an injected `finish`) is done, and the others go on.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_INPROCESSJOB_H
#define OPENKS_RUNTIME_INPROCESSJOB_H

#include "openks/Runtime/InProcessTransport.h"
#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/ServerRole.h"
#include "openks/Runtime/StepLog.h"
#include "openks/Runtime/WorkerRole.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace openks::runtime {

/// A fault made to happen on purpose, for tests of failure handling.
struct InjectedFault {
  enum class Kind {
    /// The role fails with an error.
    Error,
    /// The trainer's batch turns to NaN, and so does its loss.
    NaN,
    /// The trainer stops calling the servers without saying so.
    Hang,
    /// The trainer stops early and says it is done.
    Finish,
  };
  Kind kind = Kind::Error;
  /// Whether the fault is a server's (else a trainer's).
  bool server = false;
  /// The trainer's or server's index.
  int index = 0;
  /// The trainer's step, counted from 1, at which it happens; for a server,
  /// the number of its update that fails.
  int64_t step = 1;
};

/// Parses "trainerT:KIND@STEP" or "serverS:error@N", KIND one of error,
/// nan, hang and finish.
StatusOr<InjectedFault> parseInjectedFault(const std::string &text);

/// How a job runs.
struct JobRunOptions {
  /// The last step each trainer runs; a run that starts from a checkpoint
  /// of step k runs steps k + 1 to `steps`.
  int64_t steps = 1;
  /// The rows of a global batch; trainer t of T takes shard t of it.
  int64_t globalBatch = 1;
  /// The data source spec (see DataSource.h).
  std::string data;
  /// How long any role waits for another before it fails naming it.
  std::chrono::milliseconds timeout{60000};
  std::vector<InjectedFault> faults;
  /// Called in a trainer's thread after each of its steps, before the step
  /// is reported to onStep; an error fails that trainer.
  std::function<Status(const WorkerRole &)> afterStep;
  /// Called, one at a time and in step order, with the figures of each step
  /// once every trainer running it has run it.
  std::function<void(const StepSummary &)> onStep;
  /// A checkpoint (Checkpoint.h) to start from: the servers load it, in
  /// whatever layout they have, after initialising; the run goes on from
  /// the step after the checkpoint's, with the data sources past the global
  /// batches trained on, so that sync training continues exactly as it
  /// would have without the stop.
  std::string loadDir;
  /// Where to save a checkpoint of the servers: after every step that is a
  /// multiple of `saveEvery` (0: none) and after the last step. Each is
  /// taken before the step's last trainer sends anything of the next step,
  /// so in sync mode the servers have applied the step and apply nothing
  /// more while it is written. A failed save fails the run.
  std::string saveDir;
  int64_t saveEvery = 0;
};

/// A job whose roles are threads of this process.
class InProcessJob {
public:
  /// Makes the roles of `job`, which must outlive the InProcessJob; fails
  /// when memory cannot be had.
  static StatusOr<std::unique_ptr<InProcessJob>>
  create(JobSpec &job, std::chrono::milliseconds timeout);

  /// Runs every role to its end and returns the first failure, or success.
  /// Runs once.
  Status run(const JobRunOptions &options);

  int numServers() const { return static_cast<int>(servers_.size()); }
  int numTrainers() const { return static_cast<int>(trainers_.size()); }
  /// Returns a server's program and its protocol's figures.
  const ServerRole &serverRole(int index) const { return *roles_[index]; }
  const ParameterServer &server(int index) const { return *servers_[index]; }
  /// Returns a trainer.
  const WorkerRole &trainer(int index) const { return *trainers_[index]; }
  /// Returns the rows each trainer has taken.
  int64_t rows(int trainer) const { return rows_[trainer]; }

private:
  InProcessJob() = default;

  class Failures;
  /// The life of trainer `index` under `options`, from the step after
  /// `startStep`.
  Status runTrainer(int index, const JobRunOptions &options, int64_t startStep,
                    Failures &failures, StepLog &log);
  /// Returns whether `options` save a checkpoint after `step`.
  static bool savesAfter(const JobRunOptions &options, int64_t step);

  std::vector<std::unique_ptr<ServerRole>> roles_;
  std::vector<std::unique_ptr<ParameterServer>> servers_;
  std::unique_ptr<InProcessTransport> transport_;
  std::vector<std::unique_ptr<WorkerRole>> trainers_;
  JobSpec *job_ = nullptr;
  std::vector<int64_t> rows_;
  bool ran_ = false;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_INPROCESSJOB_H
