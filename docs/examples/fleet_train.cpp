//===- fleet_train.cpp - A training program on the Fleet API --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Trains a forward-only program (docs/examples/mlp.mlir, say) on 2
// parameter servers and 2 trainers through the Fleet API, the way an OpenKS
// training script does: every role runs the same `runRole`,
//
//   init(role maker) -> build the program ->
//   distributedOptimizer(optimizer, strategy)->minimize(program) ->
//   server: initServer(); runServer()
//   worker: initWorker(); for each step trainStep(...); stopWorker()
//
// Here each role is a thread of this process with its own MLIR context (as
// its own process would have), a LocalRoleMaker saying which role it is,
// and an InProcessCluster where the roles meet. The first worker saves a
// checkpoint and the inference model at the end when --save-dir is given.
//
//   fleet-train-example docs/examples/mlp.mlir --steps 200 --batch-size 64 \
//       --data synthetic:classes=10,seed=7 [--save-dir DIR]
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/Fleet/TranspilerFleet.h"
#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"
#include "openks/Runtime/InProcessCluster.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <cstdlib>
#include <fmt/format.h>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace openks;
using namespace openks::fleet;

namespace {

/// What every role is told on the command line.
struct Settings {
  std::string program;
  int64_t steps = 200;
  int64_t batchSize = 64;
  std::string data = "synthetic:classes=10,seed=7";
  std::string saveDir;
};

/// Prints one line at a time from any role.
void say(const std::string &line) {
  static std::mutex mutex;
  std::lock_guard<std::mutex> lock(mutex);
  fmt::print("{}\n", line);
  std::fflush(stdout);
}

/// The training script every role runs.
Status runRole(TranspilerFleet &fleet, std::shared_ptr<RoleMaker> roleMaker,
               const Settings &settings) {
  OPENKS_RETURN_IF_ERROR(fleet.init(std::move(roleMaker)));

  // Build the network: here, read the forward-only program.
  mlir::DialectRegistry registry;
  registerAllDialects(registry);
  mlir::MLIRContext context(registry);
  mlir::OwningOpRef<mlir::ModuleOp> program =
      mlir::parseSourceFile<mlir::ModuleOp>(settings.program, &context);
  if (!program)
    return Status::invalidArgument("cannot parse {}", settings.program);

  MinimizeOptions optimizer;
  optimizer.optimizer = OptimizerKind::SGD;
  optimizer.learningRate = 0.1;
  DistributedStrategy strategy = StrategyFactory::createSyncStrategy();
  StatusOr<std::unique_ptr<DistributedOptimizer>> distributed =
      fleet.distributedOptimizer(optimizer, strategy);
  if (!distributed)
    return distributed.status();
  OPENKS_RETURN_IF_ERROR((*distributed)->minimize(*program));

  if (fleet.isServer()) {
    OPENKS_RETURN_IF_ERROR(fleet.initServer());
    OPENKS_RETURN_IF_ERROR(fleet.runServer());
    say(fmt::format("server {}: served every trainer", fleet.serverIndex()));
    return Status::ok();
  }

  StatusOr<std::unique_ptr<runtime::DataSource>> data =
      fleet.openData(settings.data);
  if (!data)
    return data.status();
  OPENKS_RETURN_IF_ERROR(fleet.initWorker());
  double first = 0, last = 0;
  for (int64_t step = 1; step <= settings.steps; ++step) {
    StatusOr<double> loss = fleet.trainStep(**data, settings.batchSize);
    if (!loss)
      return loss.status();
    (step == 1 ? first : last) = *loss;
  }
  say(fmt::format("worker {}: {} steps, loss {:.6f} -> {:.6f}",
                  fleet.workerIndex(), settings.steps, first, last));
  if (fleet.isFirstWorker() && !settings.saveDir.empty()) {
    OPENKS_RETURN_IF_ERROR(
        fleet.saveCheckpoint(settings.saveDir + "/checkpoint"));
    OPENKS_RETURN_IF_ERROR(
        fleet.saveInferenceModel(settings.saveDir + "/inference"));
    say(fmt::format("worker 0: saved {}/checkpoint and {}/inference",
                    settings.saveDir, settings.saveDir));
  }
  return fleet.stopWorker();
}

/// Reads the command line; returns false after printing what is wrong.
bool parseArguments(int argc, char **argv, Settings &settings) {
  for (int i = 1; i < argc; ++i) {
    std::string argument = argv[i];
    bool hasValue = i + 1 < argc;
    if (argument == "--steps" && hasValue)
      settings.steps = std::atoll(argv[++i]);
    else if (argument == "--batch-size" && hasValue)
      settings.batchSize = std::atoll(argv[++i]);
    else if (argument == "--data" && hasValue)
      settings.data = argv[++i];
    else if (argument == "--save-dir" && hasValue)
      settings.saveDir = argv[++i];
    else if (settings.program.empty() && argument.rfind("--", 0) != 0)
      settings.program = argument;
    else {
      fmt::print(stderr, "fleet-train-example: unexpected '{}'\n", argument);
      return false;
    }
  }
  if (settings.program.empty() || settings.steps < 1 ||
      settings.batchSize < 2) {
    fmt::print(stderr, "usage: fleet-train-example PROGRAM.mlir [--steps N] "
                       "[--batch-size B>=2] [--data SPEC] [--save-dir DIR]\n");
    return false;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Settings settings;
  if (!parseArguments(argc, argv, settings))
    return 2;
  registerAllPasses();

  const std::vector<std::string> servers = {"127.0.0.1:6170", "127.0.0.1:6171"};
  const int workers = 2;
  auto cluster = std::make_shared<runtime::InProcessCluster>();
  FleetOptions options;
  options.maxBatch = settings.batchSize;

  std::vector<std::shared_ptr<RoleMaker>> roles;
  for (int index = 0; index < static_cast<int>(servers.size()); ++index)
    roles.push_back(std::make_shared<LocalRoleMaker>(Role::Server, index,
                                                     servers, workers));
  for (int index = 0; index < workers; ++index)
    roles.push_back(std::make_shared<LocalRoleMaker>(Role::Worker, index,
                                                     servers, workers));

  std::vector<Status> results(roles.size(), Status::ok());
  std::vector<std::thread> threads;
  for (size_t role = 0; role < roles.size(); ++role)
    threads.emplace_back([&, role] {
      TranspilerFleet fleet(cluster, options);
      results[role] = runRole(fleet, roles[role], settings);
    });
  for (std::thread &thread : threads)
    thread.join();

  int exitCode = 0;
  for (size_t role = 0; role < roles.size(); ++role)
    if (!results[role].isOk()) {
      fmt::print(stderr, "fleet-train-example: {}: {}\n",
                 roles[role]->describe(), results[role].message());
      exitCode = 1;
    }
  return exitCode;
}
