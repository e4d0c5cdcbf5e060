//===- WorkerRole.h - One trainer running the worker program ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What one trainer does with the worker program of a job: its own copy of
// the worker's parameters, an executor per step bound to the transport, and
// the order of the calls: start() initialises the local parameters and runs
// the startup step (which pulls every block and passes the fetch barrier);
// each step() runs the main step on the batch in inputs() and, in GEO mode,
// the push step every geoPushSteps steps; finish() pushes what GEO training
// has not pushed yet and tells every server the trainer is done. A trainer
// that fails calls abort(), which fails every server with its error.
//
// A checkpoint holds, besides the servers' blocks, the variables only
// workers hold (WorkerSpec::localVariables): copyLocalVariables() takes
// them for one, and resume() loads them from one.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_WORKERROLE_H
#define OPENKS_RUNTIME_WORKERROLE_H

#include "openks/Runtime/Communication.h"
#include "openks/Runtime/Executor.h"
#include "openks/Runtime/JobSpec.h"

#include <chrono>
#include <memory>
#include <optional>

namespace openks::runtime {

/// One trainer of a job.
class WorkerRole {
public:
  /// Makes trainer `trainer`'s copy of `spec`, talking to the servers
  /// through `transport` with calls that wait at most `timeout`. `spec` and
  /// `transport` must outlive the role. Fails when memory cannot be had.
  /// A parameter that the worker's plans write only by receiving one block
  /// whole (Plan::BlockReceive) is, when the transport shares that block
  /// (a sync server in this process), the server's storage of the block:
  /// the trainer reads its values in place and its pulls copy nothing.
  static StatusOr<std::unique_ptr<WorkerRole>>
  create(const WorkerSpec &spec, Transport &transport, int trainer,
         std::chrono::milliseconds timeout);

  /// Initialises the local parameters and runs the startup step.
  Status start();
  /// Returns the main step's inputs, to be filled before each step.
  const std::vector<Tensor *> &inputs() const { return main_->inputs(); }
  /// Returns the main step's outputs as the last step left them.
  const std::vector<const Tensor *> &outputs() const {
    return main_->outputs();
  }
  /// Runs one step on inputs(), then the GEO push when it is due.
  Status step();
  /// Says where the inputs of the next steps begin in their global batch:
  /// dropout and nce draw by a row's place in the whole batch, so that a
  /// trainer's shard draws what single-process training draws for it.
  void setFirstRow(int64_t row) { context_.firstRow = row; }
  /// Pushes pending GEO deltas and waits until every push of this trainer
  /// has reached its server: the servers hold all it has trained.
  Status flush();
  /// Flushes, then tells every server this trainer is done.
  Status finish();
  /// Tells every server that this trainer failed with `status`.
  void abort(const Status &status);

  /// Returns a copy of the variables only workers hold, as they are now:
  /// what a checkpoint of the last step takes from this trainer.
  StatusOr<ParameterStore> copyLocalVariables() const {
    return store_.copyOf(spec_.localVariables);
  }
  /// Loads the variables only workers hold from the checkpoint `dir` and
  /// counts the steps that follow from its step on; call it after start().
  Status resume(const std::string &dir);

  /// Returns the trainer's parameters; only its own thread may use them.
  const ParameterStore &store() const { return store_; }
  /// Returns what the trainer's communication has cost.
  const CommunicationStats &stats() const { return stats_; }
  int trainer() const { return context_.trainer; }
  /// Returns the transport to the job's servers and how long a call waits.
  Transport &transport() const { return *context_.transport; }
  std::chrono::milliseconds timeout() const { return context_.timeout; }
  /// Returns the number of steps run.
  int64_t steps() const { return steps_; }
  /// Returns the number of the last step run, counting the steps of the
  /// checkpoint resumed from.
  int64_t lastStep() const { return resumedAt_ + steps_; }

private:
  WorkerRole(const WorkerSpec &spec, ParameterStore store)
      : spec_(spec), store_(std::move(store)) {}

  const WorkerSpec &spec_;
  ParameterStore store_;
  CommunicationStats stats_;
  CommunicationContext context_;
  std::optional<Executor> main_, startup_, geoPush_;
  int64_t steps_ = 0;
  /// The step of the checkpoint resumed from.
  int64_t resumedAt_ = 0;
  /// The step of the last GEO push.
  int64_t pushedAt_ = 0;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_WORKERROLE_H
