//===- TranspilerFleetTest.cpp - The Fleet API, role by role --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every role of a job calls the Fleet API from its own thread with its own
// MLIR context, as separate processes would: init, minimize, then
// initServer/runServer or initWorker/trainStep/stopWorker. Sync training
// through the API must equal single-process training, calls out of order
// must name the call that comes first, and a server that never comes must
// fail the workers within the timeout, and a worker that returns without
// stopWorker must release the servers at once.
//
//===----------------------------------------------------------------------===//

#include "ApiJobTesting.h"

#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/Fleet/TranspilerFleet.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/GrpcCluster.h"
#include "openks/Runtime/InProcessCluster.h"

#include <cstdlib>
#include <filesystem>
#include <functional>
#include <thread>

using namespace mlir;
using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

class TranspilerFleetTest : public JobTest {
protected:
  TranspilerFleetTest() : cluster(std::make_shared<InProcessCluster>()) {}

  FleetOptions options(std::chrono::milliseconds timeout = kTimeout) const {
    FleetOptions fleetOptions;
    fleetOptions.timeout = timeout;
    fleetOptions.maxBatch = kBatch;
    return fleetOptions;
  }

  std::shared_ptr<InProcessCluster> cluster;
};

/// Expects `status` to be FailedPrecondition naming `call`.
void expectOutOfOrder(const Status &status, const char *call) {
  EXPECT_EQ(status.code(), StatusCode::FailedPrecondition) << status.message();
  EXPECT_NE(status.message().find(call), std::string::npos)
      << "no '" << call << "' in: " << status.message();
}

TEST_F(TranspilerFleetTest, SyncTrainingThroughTheApiEqualsLocalTraining) {
  const int servers = 2, workers = 2, steps = 5;
  // Worker 0 checks each step against single-process training.
  MinimizeOptions minimize;
  configureOptimizer(minimize);
  OwningOpRef<ModuleOp> minimizedProgram =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(minimizedProgram);
  std::unique_ptr<LocalTrainer> reference =
      localTrainer(*minimizedProgram, kBatch, kOddShapesData);
  ASSERT_TRUE(reference);
  ASSERT_TRUE(reference->start().isOk());
  int checked = 0;
  double worst = 0;
  auto check = [&](TranspilerFleet &fleet) -> Status {
    if (!fleet.isFirstWorker())
      return Status::ok();
    OPENKS_RETURN_IF_ERROR(reference->step(kBatch));
    StatusOr<std::vector<ParameterDifference>> differences =
        compareParameters(fleet.worker()->store(), reference->store());
    if (!differences)
      return differences.status();
    for (const ParameterDifference &difference : *differences)
      worst = std::max(worst, difference.relative);
    checked += !differences->empty();
    return Status::ok();
  };
  std::unique_ptr<ApiJob> job =
      runThroughApi(options(), loopbackEndpoints(servers), workers, steps, "",
                    check, doNothing, sharedInProcessCluster());
  EXPECT_EQ(checked, steps);
  EXPECT_LE(worst, 1e-5);
  for (int index = 0; index < servers; ++index)
    EXPECT_EQ(job->fleets[index]->server()->server().stats().steps, steps);
}

TEST_F(TranspilerFleetTest, SyncTrainingOverGrpcIsTheInProcessJobBitForBit) {
  const int workers = 2, steps = 4;
  std::vector<std::string> endpoints = freeLoopbackEndpoints(2);
  ASSERT_EQ(endpoints.size(), 2u) << "no free loopback ports";
  // Every role has a cluster of its own, as a process of its own would.
  ClusterFactory grpcClusters = [] {
    GrpcClusterOptions clusterOptions;
    clusterOptions.token = "a test job";
    StatusOr<std::shared_ptr<Cluster>> cluster =
        createGrpcCluster(clusterOptions);
    EXPECT_TRUE(cluster) << cluster.status().message();
    return cluster ? *cluster : nullptr;
  };
  std::unique_ptr<ApiJob> overGrpc =
      runThroughApi(options(), endpoints, workers, steps, "", doNothing,
                    doNothing, grpcClusters);
  std::unique_ptr<ApiJob> inProcess =
      runThroughApi(options(), endpoints, workers, steps, "", doNothing,
                    doNothing, sharedInProcessCluster());
  for (int worker = 0; worker < workers; ++worker) {
    const WorkerRole *grpcWorker = overGrpc->fleets[2 + worker]->worker();
    const WorkerRole *localWorker = inProcess->fleets[2 + worker]->worker();
    ASSERT_TRUE(grpcWorker && localWorker);
    StatusOr<std::vector<ParameterDifference>> differences =
        compareParameters(grpcWorker->store(), localWorker->store());
    ASSERT_TRUE(differences) << differences.status().message();
    ASSERT_FALSE(differences->empty());
    for (const ParameterDifference &difference : *differences)
      EXPECT_EQ(difference.relative, 0) << difference.name;
  }
  for (int server = 0; server < 2; ++server)
    EXPECT_EQ(overGrpc->fleets[server]->server()->server().stats().steps,
              steps);
}

TEST_F(TranspilerFleetTest, ACheckpointSavedByAWorkerLoadsIntoOtherServers) {
  std::string scratch =
      (std::filesystem::temp_directory_path() / "openks-fleet-XXXXXX").string();
  ASSERT_NE(mkdtemp(scratch.data()), nullptr);
  std::string checkpoint = scratch + "/checkpoint";
  std::string inference = scratch + "/inference";
  InferenceModelReport report;
  auto save = [&](TranspilerFleet &fleet) -> Status {
    if (!fleet.isFirstWorker())
      return Status::ok();
    OPENKS_RETURN_IF_ERROR(fleet.saveCheckpoint(checkpoint));
    return fleet.saveInferenceModel(inference, &report);
  };
  std::unique_ptr<ApiJob> saved =
      runThroughApi(options(), loopbackEndpoints(2), 2, /*steps=*/4, "",
                    doNothing, save, sharedInProcessCluster());
  const WorkerRole &trained = *saved->fleets[2]->worker();
  StatusOr<CheckpointInfo> info = readCheckpointInfo(checkpoint);
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->step, 4);
  EXPECT_EQ(info->mode, "sync");
  for (const char *file : {"__model__", "__model__.mlir", "__manifest__"})
    EXPECT_TRUE(std::filesystem::exists(inference + "/" + file)) << file;
  EXPECT_TRUE(report.wrotePaddleModel);
  EXPECT_EQ(report.paddleSkipped, "");
  // The inference model holds the forward program's parameters only: no
  // optimizer state, no learning rate.
  StatusOr<CheckpointInfo> model = readCheckpointInfo(inference);
  ASSERT_TRUE(model.isOk()) << model.status().message();
  std::vector<std::string> names;
  for (const CheckpointVariable &variable : model->variables)
    names.push_back(variable.name);
  EXPECT_EQ(names,
            (std::vector<std::string>{"w1", "b1", "w2", "row", "wc", "s"}));

  // Three servers load it; the workers' startup pulls exactly those values.
  auto compare = [&](TranspilerFleet &fleet) -> Status {
    StatusOr<std::vector<ParameterDifference>> differences =
        compareParameters(fleet.worker()->store(), trained.store());
    if (!differences)
      return differences.status();
    EXPECT_FALSE(differences->empty());
    for (const ParameterDifference &difference : *differences)
      EXPECT_EQ(difference.relative, 0) << difference.name;
    return Status::ok();
  };
  runThroughApi(options(), loopbackEndpoints(3), 2, /*steps=*/0, checkpoint,
                doNothing, compare, sharedInProcessCluster());

  // A worker saves while the servers serve, not after it stopped.
  TranspilerFleet &worker = *saved->fleets[2];
  Status late = worker.saveCheckpoint(checkpoint);
  EXPECT_EQ(late.code(), StatusCode::FailedPrecondition) << late.message();
  EXPECT_NE(late.message().find("before Fleet::stopWorker"), std::string::npos)
      << late.message();
  std::filesystem::remove_all(scratch);
}

TEST_F(TranspilerFleetTest, CallsOutOfOrderNameTheCallThatComesFirst) {
  RoleProgram program;
  TranspilerFleet worker(cluster, options());
  MinimizeOptions optimizer;
  configureOptimizer(optimizer);
  expectOutOfOrder(worker
                       .distributedOptimizer(
                           optimizer, StrategyFactory::createSyncStrategy())
                       .status(),
                   "Fleet::init");
  expectOutOfOrder(worker.initWorker(), "Fleet::init");
  ASSERT_TRUE(worker
                  .init(std::make_shared<LocalRoleMaker>(
                      Role::Worker, 0, loopbackEndpoints(1), 1))
                  .isOk());
  expectOutOfOrder(worker.init(std::make_shared<LocalRoleMaker>(
                       Role::Worker, 0, loopbackEndpoints(1), 1)),
                   "Fleet::init runs once");
  // An evaluator has no part to play in a fleet.
  TranspilerFleet evaluator(cluster, options());
  expectOutOfOrder(evaluator.init(std::make_shared<LocalRoleMaker>(
                       Role::Evaluator, 0, std::vector<std::string>(), 0)),
                   "is an evaluator, which has nothing to do");
  EXPECT_FALSE(evaluator.isWorker());
  expectOutOfOrder(worker.initWorker(), "minimize");
  expectOutOfOrder(worker.initServer(), "initServer is a server call");
  expectOutOfOrder(worker.runServer(), "runServer is a server call");
  expectOutOfOrder(worker.stopWorker(), "Fleet::initWorker first");
  EXPECT_EQ(worker.mainProgram(), nullptr);

  TranspilerFleet server(cluster, options());
  ASSERT_TRUE(
      setUpRole(server, program, Role::Server, 0, loopbackEndpoints(1), 1)
          .isOk());
  expectOutOfOrder(server.runServer(), "Fleet::initServer first");
  expectOutOfOrder(server.initWorker(), "initWorker is a worker call");
  ASSERT_TRUE(server.initServer().isOk());
  expectOutOfOrder(server.initServer(), "initServer runs once");
  ASSERT_NE(server.mainProgram(), nullptr);
  EXPECT_TRUE(isa<ps::ServerOp>(server.mainProgram()));
}

TEST_F(TranspilerFleetTest, AServerThatNeverComesFailsTheWorkerInTime) {
  RoleProgram program;
  TranspilerFleet worker(cluster, options(std::chrono::milliseconds(200)));
  ASSERT_TRUE(
      setUpRole(worker, program, Role::Worker, 0, loopbackEndpoints(2), 1)
          .isOk());
  ASSERT_NE(worker.startupProgram(), nullptr);
  EXPECT_TRUE(isa<train::StepOp>(worker.startupProgram()));
  Status status = worker.initWorker();
  EXPECT_EQ(status.code(), StatusCode::DeadlineExceeded) << status.message();
  EXPECT_NE(status.message().find("127.0.0.1:6170, 127.0.0.1:6171"),
            std::string::npos)
      << status.message();
}

TEST_F(TranspilerFleetTest, AWorkerOfAnotherJobIsRefusedByItsServers) {
  // The server and the worker minimize with different learning rates: the
  // same endpoints, but not the same job.
  RoleProgram serverProgram, workerProgram;
  TranspilerFleet server(cluster, options());
  ASSERT_TRUE(
      setUpRole(server, serverProgram, Role::Server, 0, loopbackEndpoints(1), 1)
          .isOk());
  ASSERT_TRUE(server.initServer().isOk());
  Status served = Status::ok();
  std::thread serving([&] { served = server.runServer(); });

  TranspilerFleet worker(cluster, options());
  ASSERT_TRUE(worker
                  .init(std::make_shared<LocalRoleMaker>(
                      Role::Worker, 0, loopbackEndpoints(1), 1))
                  .isOk());
  MinimizeOptions optimizer;
  configureOptimizer(optimizer);
  optimizer.learningRate = 0.25;
  DistributedStrategy strategy = StrategyFactory::createSyncStrategy();
  DistributeTranspilerConfig config = strategy.programConfig();
  config.minBlockSize = 1;
  strategy.setProgramConfig(config);
  StatusOr<std::unique_ptr<DistributedOptimizer>> distributed =
      worker.distributedOptimizer(optimizer, strategy);
  ASSERT_TRUE(distributed);
  ASSERT_TRUE((*distributed)->minimize(*workerProgram.module).isOk());
  Status status = worker.initWorker();
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument) << status.message();
  EXPECT_NE(status.message().find("runs another job"), std::string::npos)
      << status.message();
  cluster->abort(status);
  serving.join();
  EXPECT_FALSE(served.isOk());
}

TEST_F(TranspilerFleetTest, AWorkerDestroyedBeforeStopWorkerReleasesServers) {
  // The worker trains a step and returns without stopWorker, as a program
  // that meets an error does: its fleet's destructor tells the server,
  // which stops at once, naming it, and not after its timeout.
  RoleProgram serverProgram, workerProgram;
  TranspilerFleet server(cluster, options());
  ASSERT_TRUE(
      setUpRole(server, serverProgram, Role::Server, 0, loopbackEndpoints(1), 1)
          .isOk());
  ASSERT_TRUE(server.initServer().isOk());
  Status served = Status::ok();
  std::chrono::steady_clock::time_point stopped;
  std::thread serving([&] {
    served = server.runServer();
    stopped = std::chrono::steady_clock::now();
  });
  std::chrono::steady_clock::time_point destroyed;
  {
    TranspilerFleet worker(cluster, options());
    ASSERT_TRUE(setUpRole(worker, workerProgram, Role::Worker, 0,
                          loopbackEndpoints(1), 1)
                    .isOk());
    StatusOr<std::unique_ptr<DataSource>> data =
        worker.openData(kOddShapesData);
    ASSERT_TRUE(data.isOk()) << data.status().message();
    ASSERT_TRUE(worker.initWorker().isOk());
    StatusOr<double> loss = worker.trainStep(**data, kBatch);
    ASSERT_TRUE(loss.isOk()) << loss.status().message();
    destroyed = std::chrono::steady_clock::now();
  }
  serving.join();
  EXPECT_LT(stopped - destroyed, kTimeout / 4);
  EXPECT_EQ(served.code(), StatusCode::PeerLost) << served.message();
  for (const char *part :
       {"trainer 0 failed", "worker 0", "destroyed before Fleet::stopWorker"})
    EXPECT_NE(served.message().find(part), std::string::npos)
        << "no '" << part << "' in: " << served.message();
}

TEST_F(TranspilerFleetTest, AJobForOtherServersIsRefused) {
  MinimizeOptions minimize;
  configureOptimizer(minimize);
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);
  TranspileOptions transpile;
  transpile.pservers = {"127.0.0.1:7000"};
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  TranspilerFleet worker(cluster, options());
  ASSERT_TRUE(worker
                  .init(std::make_shared<LocalRoleMaker>(
                      Role::Worker, 0, loopbackEndpoints(1), 1))
                  .isOk());
  Status status = worker.loadJob(*job);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_NE(status.message().find("127.0.0.1:7000"), std::string::npos)
      << status.message();
  // A program that is not a job at all.
  status = worker.loadJob(*program);
  EXPECT_NE(status.message().find("not a transpiled job"), std::string::npos)
      << status.message();
}

TEST_F(TranspilerFleetTest, AProgramThatCannotBeMinimizedSaysWhereAndWhy) {
  MinimizeOptions minimize;
  configureOptimizer(minimize);
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);
  TranspilerFleet worker(cluster, options());
  ASSERT_TRUE(worker
                  .init(std::make_shared<LocalRoleMaker>(
                      Role::Worker, 0, loopbackEndpoints(1), 1))
                  .isOk());
  StatusOr<std::unique_ptr<DistributedOptimizer>> distributed =
      worker.distributedOptimizer(minimize,
                                  StrategyFactory::createSyncStrategy());
  ASSERT_TRUE(distributed.isOk());
  // The program already has its backward pass and optimizer.
  Status status = (*distributed)->minimize(*program);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  for (const char *part :
       {"cannot minimize and transpile", "already differentiated", "loc"})
    EXPECT_NE(status.message().find(part), std::string::npos)
        << "no '" << part << "' in: " << status.message();
  EXPECT_EQ(worker.job(), nullptr);
  expectOutOfOrder(worker.initWorker(), "minimize");
}

} // namespace
