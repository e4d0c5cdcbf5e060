//===- LocalJob.h - Every role of a job as a thread of this process -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a transpiled job in this process through the Fleet API: one thread
// per role, each a TranspilerFleet with a LocalRoleMaker, meeting the others
// in one InProcessCluster. A server thread calls initServer and runServer; a
// trainer thread calls initWorker, reads shard t of every global batch with
// trainStep, and calls stopWorker. This is what `openks-run JOB.mlir` runs.
//
// Failure: a role that fails, in any phase (a trainer's bad data or
// checkpoint, a kernel error, a non-finite loss; a server's failed load or
// update; a thread that cannot start), aborts the cluster, which fails
// every server and wakes every waiting role with its error at once. The
// run then returns the first failure, which names the role that caused
// it. A trainer that stops early (out of steps or by an injected `finish`)
// is done, and the others go on.
//
// Checkpoints hold the servers' blocks and what only workers hold, taken
// from the lowest-numbered trainer that ran the step: a trainer copies
// those variables after each step that is saved, so a save in another
// trainer's thread sees them as they were after that step. The last
// checkpoint is saved once every role has ended, so that it holds what
// trainers send when they stop (a GEO trainer's last push).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_LOCALJOB_H
#define OPENKS_FLEET_LOCALJOB_H

#include "openks/Fleet/TranspilerFleet.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/StepLog.h"

#include <chrono>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace openks::fleet {

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
  std::vector<InjectedFault> faults;
  /// Called in a trainer's thread after each of its steps, before the step
  /// is reported to onStep; an error fails that trainer.
  std::function<Status(const runtime::WorkerRole &)> afterStep;
  /// Called, one at a time and in step order, with the figures of each step
  /// once every trainer running it has run it.
  std::function<void(const runtime::StepSummary &)> onStep;
  /// A checkpoint (Checkpoint.h) to start from: each server loads it, in
  /// whatever layout the job has, in its initServer; the run goes on from
  /// the step after the checkpoint's, with the data sources past the global
  /// batches trained on, so that sync training continues exactly as it
  /// would have without the stop.
  std::string loadDir;
  /// Where to save a checkpoint of the job: after every step that is a
  /// multiple of `saveEvery` (0: none) and after the last step. Each but
  /// the last is taken before the step's last trainer sends anything of the
  /// next step, so in sync mode the servers have applied the step and apply
  /// nothing more while it is written; the last once every role has ended.
  /// A failed save fails the run.
  std::string saveDir;
  int64_t saveEvery = 0;
  /// Files every checkpoint keeps besides the variables (the data's id
  /// maps, say).
  std::vector<runtime::CheckpointFile> checkpointFiles;
  /// Called after each step that `observes` accepts (the last one
  /// included), when its summary is complete and before onStep, with the
  /// stores that hold every variable then, listed as saveCheckpoint takes
  /// them (the servers' blocks, then what only the step's first trainer
  /// holds): to evaluate the job's parameters, or keep checkpoints of its
  /// own. In sync mode that is the state after the step. An error fails the
  /// run.
  std::function<bool(int64_t step)> observes;
  std::function<Status(int64_t step,
                       const std::vector<const runtime::ParameterStore *> &)>
      observe;
  /// The threads the job's kernels may use in all, split among its roles
  /// (runtime::splitComputeThreads); 0 takes the calling thread's compute
  /// budget.
  int threads = 0;
};

/// A job whose roles are threads of this process.
class LocalJob {
public:
  /// Makes the roles of the transpiled `module`, each a fleet that has
  /// loaded it; `module` must outlive the LocalJob. `options.maxBatch` must
  /// hold the largest shard of a global batch.
  static StatusOr<std::unique_ptr<LocalJob>> create(mlir::ModuleOp module,
                                                    FleetOptions options);

  /// Runs every role to its end and returns the first failure, or success.
  /// Runs once.
  Status run(const JobRunOptions &options);

  int numServers() const { return static_cast<int>(servers_.size()); }
  int numTrainers() const { return static_cast<int>(trainers_.size()); }
  /// Returns a server's role and protocol (after run).
  const runtime::ServerInstance &server(int index) const {
    return *servers_[index]->server();
  }
  /// Returns a trainer's role (after run).
  const runtime::WorkerRole &trainer(int index) const {
    return *trainers_[index]->worker();
  }
  /// Returns the job as trainer 0 loaded it: the worker program and every
  /// server's layout.
  const runtime::JobSpec &job() const { return *trainers_.front()->job(); }
  /// Returns the rows each trainer has taken.
  int64_t rows(int trainer) const { return rows_[trainer]; }

private:
  LocalJob() = default;

  class Failures;
  /// The life of server `index`: initServer, then runServer.
  Status runServer(int index, const JobRunOptions &options);
  /// The life of trainer `index` under `options`, from the step after
  /// `startStep`.
  Status runTrainer(int index, const JobRunOptions &options, int64_t startStep,
                    Failures &failures, runtime::StepLog &log);
  /// Returns whether `options` save a checkpoint after `step`.
  static bool savesAfter(const JobRunOptions &options, int64_t step);
  /// Returns whether `options` observe the job after `step`.
  static bool observesAfter(const JobRunOptions &options, int64_t step);
  /// Reads the servers' stores and, with `local`, the variables only
  /// workers hold, saves them as the checkpoint of `step` in
  /// `options.saveDir` (with `options.checkpointFiles`) when `save`, and
  /// hands them to `options.observe` when `observe`.
  Status snapshotJob(const JobRunOptions &options, int64_t step,
                     const runtime::ParameterStore &local, bool save,
                     bool observe) const;
  /// Saves the last checkpoint of a run that began after `startStep`, once
  /// every role has ended: what only workers hold comes from the trainer
  /// that ran the most steps.
  Status saveLast(const JobRunOptions &options, int64_t startStep) const;

  FleetOptions options_;
  std::shared_ptr<runtime::Cluster> cluster_;
  std::vector<std::unique_ptr<TranspilerFleet>> servers_;
  std::vector<std::unique_ptr<TranspilerFleet>> trainers_;
  std::vector<int64_t> rows_;
  /// For each step to be saved or observed, the copies of what only
  /// workers hold, by trainer.
  std::mutex localCopiesMutex_;
  std::map<int64_t, std::map<int, runtime::ParameterStore>> localCopies_;
  bool ran_ = false;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_LOCALJOB_H
