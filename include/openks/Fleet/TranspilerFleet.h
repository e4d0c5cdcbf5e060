//===- TranspilerFleet.h - Fleet over transpiled PS jobs --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Fleet implementation of Paddle's DistributeTranspiler: minimize runs
// the openks-minimize and openks-transpile pipelines with typed options and
// loads this role's part of the job; the server role runs its `ps.server`,
// the worker role its `ps.worker`, on the runtime. Roles reach each other
// through a Cluster (Cluster.h): in process, every role a thread of this
// process, or across processes.
//
// Unlike Paddle, initWorker runs the startup step itself (no manual startup
// run, no race with the servers) and ends at a barrier of all workers; the
// timeout bounds every wait, including the wait for servers to come.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_TRANSPILERFLEET_H
#define OPENKS_FLEET_TRANSPILERFLEET_H

#include "openks/Fleet/Fleet.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/Cluster.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/WorkerRole.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>

namespace openks::fleet {

/// How a TranspilerFleet runs its role.
struct FleetOptions {
  /// How long any wait for another role lasts before it fails naming it.
  std::chrono::milliseconds timeout{60000};
  /// The most rows a worker's step takes (its buffers are sized for it).
  int64_t maxBatch = 1024;
  /// Mixed into every initializer's seed; 0 keeps the program's seeds.
  uint64_t runSeed = 0;
};

/// One role of a transpiled parameter-server job.
class TranspilerFleet : public Fleet {
public:
  /// Makes a role that meets the job's other roles in `cluster`.
  explicit TranspilerFleet(std::shared_ptr<runtime::Cluster> cluster,
                           FleetOptions options = {});
  /// A worker destroyed after init but before stopWorker (it returned
  /// early, or failed) aborts: the servers stop at once, naming it.
  ~TranspilerFleet() override;

  StatusOr<std::unique_ptr<DistributedOptimizer>>
  distributedOptimizer(const MinimizeOptions &optimizer,
                       const DistributedStrategy &strategy) override;

  /// Adopts `module`, a job transpiled ahead of time (by openks-opt, say),
  /// in place of minimize; its servers must be the role maker's. `module`
  /// and its context must outlive the fleet. Needs init.
  Status loadJob(mlir::ModuleOp module);

  Status initServer(const std::string &modelDir = {}) override;
  Status runServer() override;
  Status initWorker(const std::string &modelDir = {}) override;
  Status stopWorker() override;
  /// Worker: waits until every worker has called it (Paddle's
  /// barrier_worker), each having first made sure the servers hold all it
  /// has trained (its pushes delivered, GEO's pending deltas pushed), so
  /// that a checkpoint saved after it holds every worker's steps.
  Status barrierWorker();

  mlir::Operation *mainProgram() const override;
  mlir::Operation *startupProgram() const override;

  Status saveCheckpoint(const std::string &dir) override;
  /// Saves the checkpoint as saveCheckpoint(dir) does, keeping `files` (the
  /// data's id maps, say) beside the variables.
  Status saveCheckpoint(const std::string &dir,
                        const std::vector<runtime::CheckpointFile> &files);
  Status saveInferenceModel(const std::string &dir,
                            InferenceModelReport *report = nullptr) override;

  /// Worker: opens this worker's shard of the data source `spec` (see
  /// DataSource.h), laid out as the main step's inputs. Needs minimize.
  StatusOr<std::unique_ptr<runtime::DataSource>>
  openData(const std::string &spec) const;
  /// Worker: runs one step on this worker's shard of the next global batch
  /// of `globalBatch` rows from `source` and returns the loss; a loss that
  /// is not finite is an error. A failure is reported to every server.
  /// Needs initWorker.
  StatusOr<double> trainStep(runtime::DataSource &source, int64_t globalBatch);
  /// Worker: reports `status`, a failure of this worker, to every server
  /// and to the cluster, so that every other role stops. Once is enough:
  /// later calls do nothing.
  void abortWorker(const Status &status);

  /// Returns this role's part of the job (see RoleSelection), or null
  /// before minimize.
  const runtime::JobSpec *job() const { return job_.get(); }
  /// Returns this worker's runtime role, or null before initWorker.
  runtime::WorkerRole *worker() const { return worker_.get(); }
  /// Returns this server, or null before initServer.
  runtime::ServerInstance *server() const { return server_.get(); }

private:
  class Optimizer;

  /// Loads the transpiled `module` as this role's job; `forward`, when not
  /// empty, is the program before minimize, printed with its locations
  /// (for saveInferenceModel).
  Status adopt(mlir::ModuleOp module, std::string forward);
  /// Connects this worker to every server, runs its startup step, resumes
  /// from the checkpoint in `modelDir` if one is given, and waits for the
  /// other workers.
  Status connectWorker(const std::string &modelDir);
  /// Fills this server's blocks from the checkpoint in `modelDir`.
  Status loadServerCheckpoint(const std::string &modelDir);
  /// Returns copies of every server's blocks, read through the transport,
  /// for a worker's `call` that saves them.
  StatusOr<std::vector<runtime::ParameterStore>>
  readServerStores(const char *call) const;
  /// Returns an error naming `call` unless minimize (or loadJob) has run.
  Status requireJob(const char *call) const;
  /// Returns the role for messages ("worker 1 of 2").
  std::string describeRole() const;

  std::shared_ptr<runtime::Cluster> cluster_;
  FleetOptions options_;
  mlir::ModuleOp module_;
  std::string forward_;
  std::shared_ptr<runtime::JobSpec> job_;
  std::shared_ptr<runtime::ServerInstance> server_;
  bool served_ = false;
  std::unique_ptr<runtime::Transport> transport_;
  std::unique_ptr<runtime::WorkerRole> worker_;
  bool stopped_ = false;
  bool aborted_ = false;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_TRANSPILERFLEET_H
