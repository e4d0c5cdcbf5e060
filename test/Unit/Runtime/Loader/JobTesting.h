//===- JobTesting.h - Helpers for tests of distributed jobs -----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fixture that takes a forward-only program through the real pipelines
// (minimize, then transpile), loads the job, runs it in process, and trains
// the minimized program in one process as the reference.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_RUNTIME_LOADER_JOBTESTING_H
#define OPENKS_TEST_UNIT_RUNTIME_LOADER_JOBTESTING_H

#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Fleet/LocalJob.h"
#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"
#include "openks/Pipelines/Pipelines.h"
#include "openks/Runtime/Loader/JobBuilder.h"
#include "openks/Runtime/LocalTrainer.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "gtest/gtest.h"

#include <arpa/inet.h>
#include <chrono>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

namespace openks::testing {

/// A small classifier with parameters of awkward shapes: 7 rows (no server
/// count divides it), one row, a column, a rank-0 scale, and a plain bias.
/// `{0}` is the float type.
inline const char *const kOddShapesProgram = R"mlir(
train.program @odd {{
  train.param @w1 : tensor<7x5x{0}> init #train.xavier<seed = 1>
  train.param @b1 : tensor<5x{0}> init #train.uniform<min = -0.1, max = 0.1, seed = 2>
  train.param @w2 : tensor<5x2x{0}> init #train.xavier<seed = 3>
  train.param @row : tensor<1x2x{0}> init #train.uniform<min = -0.1, max = 0.1, seed = 4>
  train.param @wc : tensor<5x1x{0}> init #train.xavier<seed = 5>
  train.param @s : tensor<{0}> init #train.constant<0.5>
  train.step @step(%x: tensor<?x7x{0}>, %y: tensor<?xi64>) -> tensor<{0}> {{
    %w1 = train.read @w1 : tensor<7x5x{0}>
    %b1 = train.read @b1 : tensor<5x{0}>
    %z1 = train.matmul %x, %w1 : (tensor<?x7x{0}>, tensor<7x5x{0}>) -> tensor<?x5x{0}>
    %a1 = train.add %z1, %b1 : (tensor<?x5x{0}>, tensor<5x{0}>) -> tensor<?x5x{0}>
    %h = train.tanh %a1 : tensor<?x5x{0}>
    %w2 = train.read @w2 : tensor<5x2x{0}>
    %z2 = train.matmul %h, %w2 : (tensor<?x5x{0}>, tensor<5x2x{0}>) -> tensor<?x2x{0}>
    %row = train.read @row : tensor<1x2x{0}>
    %bias = train.reshape %row : (tensor<1x2x{0}>) -> tensor<2x{0}>
    %a2 = train.add %z2, %bias : (tensor<?x2x{0}>, tensor<2x{0}>) -> tensor<?x2x{0}>
    %wc = train.read @wc : tensor<5x1x{0}>
    %c = train.matmul %h, %wc : (tensor<?x5x{0}>, tensor<5x1x{0}>) -> tensor<?x1x{0}>
    %s = train.read @s : tensor<{0}>
    %s1 = train.reshape %s : (tensor<{0}>) -> tensor<1x{0}>
    %c1 = train.mul %c, %s1 : (tensor<?x1x{0}>, tensor<1x{0}>) -> tensor<?x1x{0}>
    %logits = train.concat %a2, %c1 axis 1 : (tensor<?x2x{0}>, tensor<?x1x{0}>) -> tensor<?x3x{0}>
    %l = train.softmax_cross_entropy %logits, %y : (tensor<?x3x{0}>, tensor<?xi64>) -> tensor<?x{0}>
    %loss = train.mean %l : (tensor<?x{0}>) -> tensor<{0}>
    train.yield %loss : tensor<{0}>
  }}
}}
)mlir";

/// Data for kOddShapesProgram.
inline const char *const kOddShapesData = "synthetic:classes=3,rows=64,seed=5";

/// Returns `count` loopback endpoints.
inline std::vector<std::string> loopbackEndpoints(int count) {
  std::vector<std::string> endpoints;
  for (int i = 0; i < count; ++i)
    endpoints.push_back(fmt::format("127.0.0.1:{}", 6170 + i));
  return endpoints;
}

/// Returns `count` endpoints on consecutive loopback ports that are free
/// now, for servers that really listen; empty when none are found.
inline std::vector<std::string> freeLoopbackEndpoints(int count) {
  auto bindTo = [](int port) {
    int socket = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(static_cast<uint16_t>(port));
    if (socket >= 0 &&
        ::bind(socket, reinterpret_cast<sockaddr *>(&address),
               sizeof(address)) == 0)
      return socket;
    if (socket >= 0)
      ::close(socket);
    return -1;
  };
  for (int attempt = 0; attempt < 100; ++attempt) {
    // The kernel picks a free port; the ones after it are tried in turn.
    int first = bindTo(0);
    if (first < 0)
      return {};
    sockaddr_in address{};
    socklen_t size = sizeof(address);
    ::getsockname(first, reinterpret_cast<sockaddr *>(&address), &size);
    int port = ntohs(address.sin_port);
    std::vector<int> sockets = {first};
    for (int next = 1; next < count && sockets.size() == size_t(next); ++next)
      if (port + next < 65536)
        if (int socket = bindTo(port + next); socket >= 0)
          sockets.push_back(socket);
    bool found = static_cast<int>(sockets.size()) == count;
    for (int socket : sockets)
      ::close(socket);
    if (!found)
      continue;
    std::vector<std::string> endpoints;
    for (int i = 0; i < count; ++i)
      endpoints.push_back(fmt::format("127.0.0.1:{}", port + i));
    return endpoints;
  }
  return {};
}

/// Compiles programs into jobs and reference trainers.
class JobTest : public ::testing::Test {
protected:
  JobTest() {
    registerAllPasses();
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` and minimizes it with `options`.
  mlir::OwningOpRef<mlir::ModuleOp> minimized(const std::string &source,
                                              const MinimizeOptions &options) {
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(source, &context);
    EXPECT_TRUE(module) << "cannot parse the program";
    if (!module)
      return module;
    auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
    buildMinimizePipeline(pm, options);
    EXPECT_TRUE(mlir::succeeded(pm.run(*module))) << "cannot minimize";
    return module;
  }

  /// Returns a transpiled copy of `module`.
  mlir::OwningOpRef<mlir::ModuleOp>
  transpiled(mlir::ModuleOp module, const TranspileOptions &options) {
    mlir::OwningOpRef<mlir::ModuleOp> copy = module.clone();
    auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context);
    buildTranspilePipeline(pm, options);
    EXPECT_TRUE(mlir::succeeded(pm.run(*copy))) << "cannot transpile";
    return copy;
  }

  /// Loads the job of a transpiled module.
  static std::optional<runtime::JobSpec> loadJob(mlir::ModuleOp module,
                                                 int64_t maxBatch) {
    runtime::PlanOptions options;
    options.maxBatch = maxBatch;
    mlir::FailureOr<runtime::JobSpec> job = runtime::buildJob(module, options);
    if (mlir::failed(job))
      return std::nullopt;
    return std::move(*job);
  }

  /// Returns a single-process trainer of a minimized module's only step.
  static std::unique_ptr<runtime::LocalTrainer>
  localTrainer(mlir::ModuleOp module, int64_t maxBatch,
               const std::string &data) {
    train::StepOp step;
    module.walk([&](train::StepOp op) { step = op; });
    runtime::PlanOptions options;
    options.maxBatch = maxBatch;
    mlir::FailureOr<runtime::ParameterStore> store =
        runtime::buildParameterStore(step->getParentOp(), options);
    if (mlir::failed(store))
      return nullptr;
    mlir::FailureOr<runtime::Plan> plan =
        runtime::buildPlan(step.getBody(), *store, options);
    if (mlir::failed(plan))
      return nullptr;
    StatusOr<std::unique_ptr<runtime::LocalTrainer>> trainer =
        runtime::LocalTrainer::create(std::move(*store), std::move(*plan),
                                      data);
    EXPECT_TRUE(trainer.isOk()) << trainer.status().message();
    return trainer ? std::move(*trainer) : nullptr;
  }

  mlir::MLIRContext context;
};

/// Makes the roles of the transpiled `job` as threads of this process, with
/// shards of at most `maxBatch` rows and calls that wait at most `timeout`.
inline StatusOr<std::unique_ptr<fleet::LocalJob>>
createLocalJob(mlir::ModuleOp job, int64_t maxBatch,
               std::chrono::milliseconds timeout) {
  fleet::FleetOptions fleetOptions;
  fleetOptions.timeout = timeout;
  fleetOptions.maxBatch = maxBatch;
  return fleet::LocalJob::create(job, fleetOptions);
}

/// Trains the transpiled `job` in process for `steps` steps of `batch`
/// rows and checks, after each step, that trainer 0's parameters are within
/// `tolerance` (relative) of those `reference` reaches on the same global
/// batches, and that every trainer took its share of every batch. Returns
/// the finished run, or null when it failed.
inline std::unique_ptr<fleet::LocalJob>
expectStepsMatch(mlir::ModuleOp job, runtime::LocalTrainer &reference,
                 int64_t steps, int64_t batch, const std::string &data,
                 double tolerance, std::chrono::milliseconds timeout) {
  StatusOr<std::unique_ptr<fleet::LocalJob>> run =
      createLocalJob(job, batch, timeout);
  EXPECT_TRUE(run.isOk()) << run.status().message();
  Status started = reference.start();
  EXPECT_TRUE(started.isOk()) << started.message();
  if (!run || !started.isOk())
    return nullptr;

  int64_t checked = 0;
  double worst = 0;
  std::string worstName;
  fleet::JobRunOptions options;
  options.steps = steps;
  options.globalBatch = batch;
  options.data = data;
  options.afterStep = [&](const runtime::WorkerRole &worker) -> Status {
    if (worker.trainer() != 0)
      return Status::ok();
    OPENKS_RETURN_IF_ERROR(reference.step(batch));
    StatusOr<std::vector<runtime::ParameterDifference>> differences =
        runtime::compareParameters(worker.store(), reference.store());
    if (!differences)
      return differences.status();
    EXPECT_FALSE(differences->empty());
    for (const runtime::ParameterDifference &difference : *differences)
      if (difference.relative >= worst) {
        worst = difference.relative;
        worstName =
            fmt::format("{} at step {}", difference.name, worker.steps());
      }
    ++checked;
    return Status::ok();
  };
  Status status = (*run)->run(options);
  EXPECT_TRUE(status.isOk()) << status.message();
  if (!status.isOk())
    return nullptr;
  EXPECT_EQ(checked, steps);
  EXPECT_LE(worst, tolerance) << "worst: " << worstName;
  for (int trainer = 0; trainer < (*run)->numTrainers(); ++trainer)
    EXPECT_EQ((*run)->rows(trainer), steps * batch / (*run)->numTrainers());
  return std::move(*run);
}

/// Checks which parameters of `run`'s trainers are their server's storage
/// of a block (ParameterStore::borrow): in a sync job, each one of rank 1
/// or more that a server holds whole as one block; in other modes none.
inline void expectBorrowedBlocks(const fleet::LocalJob &run, bool sync) {
  for (int trainer = 0; trainer < run.numTrainers(); ++trainer) {
    const runtime::ParameterStore &store = run.trainer(trainer).store();
    for (runtime::ParameterId id = 0; id < store.size(); ++id) {
      const runtime::Parameter &parameter = store[id];
      const void *block = nullptr;
      for (int server = 0; server < run.numServers(); ++server) {
        const runtime::ParameterStore &held = run.server(server).role().store();
        for (runtime::ParameterId heldId = 0; heldId < held.size(); ++heldId)
          if (held[heldId].origin == parameter.name &&
              held[heldId].value.shape() == parameter.value.shape())
            block = held[heldId].value.rawData();
      }
      bool borrows = sync && block && parameter.value.rank() >= 1;
      EXPECT_EQ(store.isBorrowed(id), borrows)
          << "trainer " << trainer << ", " << parameter.name;
      if (borrows)
        EXPECT_EQ(parameter.value.rawData(), block)
            << "trainer " << trainer << ", " << parameter.name;
      else
        EXPECT_NE(parameter.value.rawData(), block)
            << "trainer " << trainer << ", " << parameter.name;
    }
  }
}

} // namespace openks::testing

#endif // OPENKS_TEST_UNIT_RUNTIME_LOADER_JOBTESTING_H
