//===- Fleet.h - The Fleet API of one role of a job -------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The interface a training program calls, as OpenKS's Fleet (Paddle 1.8's
// incubate fleet) offers it: every role runs the same program, which
//
//   init(roleMaker) -> build the forward program ->
//   distributedOptimizer(optimizer, strategy)->minimize(module) ->
//   server: initServer(); runServer()
//   worker: initWorker(); loop { trainStep(...) }; stopWorker()
//
// A Fleet is one role. `Fleet` holds what every implementation shares (the
// role maker and the order of calls); `TranspilerFleet` (TranspilerFleet.h)
// is the implementation that transpiles the program into a parameter-server
// job, and a sparse-table one would be another subclass. Calls out of order
// fail with FailedPrecondition naming the call that must come first.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_FLEET_H
#define OPENKS_FLEET_FLEET_H

#include "openks/Fleet/DistributedStrategy.h"
#include "openks/Fleet/RoleMaker.h"
#include "openks/Pipelines/Pipelines.h"
#include "openks/Support/Status.h"

#include "mlir/IR/BuiltinOps.h"

#include <memory>
#include <string>
#include <vector>

namespace openks::fleet {

/// What saveInferenceModel wrote besides `__model__.mlir` and the
/// parameters, which it always writes.
struct InferenceModelReport {
  /// Whether it wrote Paddle's `__model__`.
  bool wrotePaddleModel = false;
  /// Why not: each op the Paddle export refused, at its location in the
  /// program the fleet minimized.
  std::string paddleSkipped;
};

/// An optimizer that makes a distributed job of the program it minimizes.
class DistributedOptimizer {
public:
  virtual ~DistributedOptimizer();

  /// Appends the backward pass and the optimizer to the forward-only
  /// `module`, then rewrites it in place into the distributed job, of which
  /// the fleet keeps this role's part. `module` and its context must
  /// outlive the fleet.
  virtual Status minimize(mlir::ModuleOp module) = 0;
};

/// The calls every role of a job makes, whatever the implementation.
class Fleet {
public:
  virtual ~Fleet();

  /// Takes `roleMaker` and finds this role from it, a worker or a server
  /// (an evaluator fails with FailedPrecondition). Runs once, first.
  Status init(std::shared_ptr<RoleMaker> roleMaker);

  /// What the role maker says; false or 0 before init.
  bool isWorker() const;
  bool isServer() const;
  bool isFirstWorker() const;
  int workerIndex() const;
  int workerNum() const;
  int serverIndex() const;
  int serverNum() const;
  std::vector<std::string> serverEndpoints() const;
  /// Returns the endpoints as one comma-separated string.
  std::string serverEndpointsString() const;

  /// Returns this worker's part of `files`: the list in workerNum()
  /// contiguous parts, the first `size % workerNum()` one file longer.
  StatusOr<std::vector<std::string>>
  splitFiles(const std::vector<std::string> &files) const;

  /// Returns an optimizer whose minimize runs `optimizer` and makes the job
  /// `strategy` describes. Needs init.
  virtual StatusOr<std::unique_ptr<DistributedOptimizer>>
  distributedOptimizer(const MinimizeOptions &optimizer,
                       const DistributedStrategy &strategy) = 0;

  /// Server: initialises this server's blocks, from the checkpoint in
  /// `modelDir` when one is given. Needs minimize.
  virtual Status initServer(const std::string &modelDir = {}) = 0;
  /// Server: serves the trainers until every one has stopped (success) or
  /// one failed (its error). Blocks. Needs initServer.
  virtual Status runServer() = 0;
  /// Worker: waits for every server (within the timeout), pulls their
  /// blocks (the startup step), loads what only workers hold (frozen state,
  /// parameters no optimizer updates) from the checkpoint in `modelDir`
  /// when one is given, and waits for every other worker. Needs minimize.
  virtual Status initWorker(const std::string &modelDir = {}) = 0;
  /// Worker: tells every server this worker is done. Needs initWorker.
  virtual Status stopWorker() = 0;

  /// Returns this role's program (the worker or its server), or null
  /// before minimize.
  virtual mlir::Operation *mainProgram() const = 0;
  /// Returns the step this role runs first (the worker's startup step, the
  /// server itself), or null before minimize.
  virtual mlir::Operation *startupProgram() const = 0;

  /// Worker: saves every variable of the program and the optimizer state,
  /// gathered from every server and, for what only workers hold, from this
  /// worker, as a checkpoint any layout can load (Checkpoints.md).
  virtual Status saveCheckpoint(const std::string &dir) = 0;
  /// Worker: saves the forward program (as `__model__.mlir` and as
  /// Paddle's `__model__`) and its trained parameters, in the checkpoint
  /// layout, gathered from every server. A program with an op the Paddle
  /// export refuses is saved without `__model__`, and the save succeeds:
  /// `report`, when given, says so, else a warning on stderr does.
  virtual Status saveInferenceModel(const std::string &dir,
                                    InferenceModelReport *report = nullptr) = 0;

protected:
  /// Returns an error naming `call` unless init has run.
  Status requireInit(const char *call) const;
  /// Returns an error naming `call` unless this role is a worker (a server
  /// when `server`).
  Status requireRole(const char *call, bool server) const;

  std::shared_ptr<RoleMaker> roleMaker_;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_FLEET_H
