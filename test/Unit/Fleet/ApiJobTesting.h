//===- ApiJobTesting.h - Jobs run through the Fleet API ---------*- C++ -*-===//
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A job of the odd-shapes test program whose every role calls the Fleet API
// in a thread of its own, with a program and an MLIR context of its own as
// a process of its own would have, meeting the others in a cluster of the
// test's choosing (one in-process cluster, or a gRPC cluster per role).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_FLEET_APIJOBTESTING_H
#define OPENKS_TEST_UNIT_FLEET_APIJOBTESTING_H

#include "Runtime/Loader/JobTesting.h"

#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/Fleet/TranspilerFleet.h"
#include "openks/Runtime/InProcessCluster.h"

#include "gtest/gtest.h"

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace openks::testing {

using fleet::DistributedOptimizer;
using fleet::DistributedStrategy;
using fleet::DistributeTranspilerConfig;
using fleet::FleetOptions;
using fleet::LocalRoleMaker;
using fleet::Role;
using fleet::StrategyFactory;
using fleet::TranspilerFleet;
using runtime::Cluster;
using runtime::DataSource;
using runtime::InProcessCluster;

/// How long a role of a test job waits for another.
inline constexpr std::chrono::milliseconds kTimeout{20000};
/// The rows of a global batch of a test job.
inline constexpr int64_t kBatch = 8;

/// The optimizer every test minimizes with.
inline void configureOptimizer(MinimizeOptions &options) {
  options.optimizer = OptimizerKind::Momentum;
  options.learningRate = 0.3;
}

/// One role's program: its own context and module, as its own process
/// would have.
class RoleProgram {
public:
  RoleProgram() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
    module = mlir::parseSourceString<mlir::ModuleOp>(
        fmt::format(kOddShapesProgram, "f32"), &context);
  }

  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

/// Makes `fleet` the role `role` `index` of a job of the servers at
/// `endpoints` and `workers` workers, and minimizes its program with a sync
/// strategy.
inline Status setUpRole(TranspilerFleet &fleet, RoleProgram &program, Role role,
                        int index, const std::vector<std::string> &endpoints,
                        int workers) {
  OPENKS_RETURN_IF_ERROR(fleet.init(
      std::make_shared<LocalRoleMaker>(role, index, endpoints, workers)));
  MinimizeOptions optimizer;
  configureOptimizer(optimizer);
  DistributedStrategy strategy = StrategyFactory::createSyncStrategy();
  DistributeTranspilerConfig config = strategy.programConfig();
  config.minBlockSize = 1;
  strategy.setProgramConfig(config);
  StatusOr<std::unique_ptr<DistributedOptimizer>> distributed =
      fleet.distributedOptimizer(optimizer, strategy);
  if (!distributed)
    return distributed.status();
  return (*distributed)->minimize(*program.module);
}

/// Called in a worker's thread with its fleet.
using WorkerHook = std::function<Status(TranspilerFleet &)>;

/// A job whose every role called the API in its own thread.
struct ApiJob {
  explicit ApiJob(int roles) : programs(roles), results(roles, Status::ok()) {}

  /// Each role's program outlives its fleet.
  std::vector<RoleProgram> programs;
  std::vector<std::unique_ptr<TranspilerFleet>> fleets;
  std::vector<Status> results;
};

/// Returns the cluster each role of a job meets the others in.
using ClusterFactory = std::function<std::shared_ptr<Cluster>()>;

/// Returns a factory that gives every role the same in-process cluster.
inline ClusterFactory sharedInProcessCluster() {
  auto cluster = std::make_shared<InProcessCluster>();
  return [cluster] { return cluster; };
}

/// Runs every role of a job of the servers at `endpoints` and `workers`
/// workers through the API for `steps` steps, the servers starting from the
/// checkpoint in `modelDir` when it is not empty; `afterStep` runs after
/// each of a worker's steps and `beforeStop` before its stopWorker. Each
/// role meets the others in a cluster from `clusters`.
inline std::unique_ptr<ApiJob>
runThroughApi(const FleetOptions &options,
              const std::vector<std::string> &endpoints, int workers, int steps,
              const std::string &modelDir, const WorkerHook &afterStep,
              const WorkerHook &beforeStop, const ClusterFactory &clusters) {
  int servers = static_cast<int>(endpoints.size());
  auto job = std::make_unique<ApiJob>(servers + workers);
  for (int role = 0; role < servers + workers; ++role)
    job->fleets.push_back(
        std::make_unique<TranspilerFleet>(clusters(), options));
  std::vector<std::thread> threads;
  for (int index = 0; index < servers; ++index)
    threads.emplace_back([&, index] {
      TranspilerFleet &fleet = *job->fleets[index];
      Status status = setUpRole(fleet, job->programs[index], Role::Server,
                                index, endpoints, workers);
      if (status.isOk())
        status = fleet.initServer(modelDir);
      if (status.isOk())
        status = fleet.runServer();
      job->results[index] = status;
    });
  for (int index = 0; index < workers; ++index)
    threads.emplace_back([&, index] {
      TranspilerFleet &fleet = *job->fleets[servers + index];
      auto run = [&]() -> Status {
        OPENKS_RETURN_IF_ERROR(setUpRole(fleet, job->programs[servers + index],
                                         Role::Worker, index, endpoints,
                                         workers));
        StatusOr<std::unique_ptr<DataSource>> data =
            fleet.openData(kOddShapesData);
        if (!data)
          return data.status();
        OPENKS_RETURN_IF_ERROR(fleet.initWorker());
        for (int step = 0; step < steps; ++step) {
          StatusOr<double> loss = fleet.trainStep(**data, kBatch);
          if (!loss)
            return loss.status();
          OPENKS_RETURN_IF_ERROR(afterStep(fleet));
        }
        OPENKS_RETURN_IF_ERROR(beforeStop(fleet));
        return fleet.stopWorker();
      };
      job->results[servers + index] = run();
    });
  for (std::thread &thread : threads)
    thread.join();
  for (const Status &status : job->results)
    EXPECT_TRUE(status.isOk()) << status.message();
  return job;
}

/// A hook that does nothing.
inline Status doNothing(TranspilerFleet &) { return Status::ok(); }

} // namespace openks::testing

#endif // OPENKS_TEST_UNIT_FLEET_APIJOBTESTING_H
