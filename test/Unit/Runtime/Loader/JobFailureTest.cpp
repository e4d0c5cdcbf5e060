//===- JobFailureTest.cpp - Jobs with a role broken on purpose ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A trainer that fails, returns a NaN loss, hangs or stops early, and a
// server whose update fails: every run ends by itself, and a failed one with
// an error that names the role that caused it. Failures that are reported
// (not silent hangs) must end the run long before any timeout.
//
//===----------------------------------------------------------------------===//

#include "JobTesting.h"

#include <chrono>

using namespace mlir;
using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

class JobFailureTest : public JobTest {
protected:
  /// Compiles the odd-shapes program for 2 trainers and 2 servers in `mode`.
  OwningOpRef<ModuleOp> compile(ps::Mode mode) {
    MinimizeOptions minimize;
    minimize.learningRate = 0.3;
    OwningOpRef<ModuleOp> program =
        minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
    if (!program)
      return nullptr;
    TranspileOptions transpile;
    transpile.pservers = loopbackEndpoints(2);
    transpile.trainers = 2;
    transpile.mode = mode;
    transpile.minBlockSize = 1;
    transpile.geoPushSteps = 2;
    return transpiled(*program, transpile);
  }

  /// Runs `job` for 6 steps with `faults`; returns the run's status and
  /// leaves the job in `run`.
  Status runWith(ModuleOp job, std::vector<InjectedFault> faults,
                 std::chrono::milliseconds timeout) {
    StatusOr<std::unique_ptr<LocalJob>> created =
        createLocalJob(job, kBatch, timeout);
    if (!created)
      return created.status();
    run = std::move(*created);
    JobRunOptions options;
    options.steps = 6;
    options.globalBatch = kBatch;
    options.data = kOddShapesData;
    options.faults = std::move(faults);
    auto start = std::chrono::steady_clock::now();
    Status status = run->run(options);
    elapsed = std::chrono::steady_clock::now() - start;
    return status;
  }

  static constexpr int64_t kBatch = 8;
  /// Far longer than a reported failure takes to stop a run.
  static constexpr std::chrono::milliseconds kLongTimeout{30000};
  std::unique_ptr<LocalJob> run;
  std::chrono::steady_clock::duration elapsed{};
};

/// Expects `status` to be an error whose message holds every one of `parts`.
void expectErrorNaming(const Status &status,
                       std::initializer_list<const char *> parts) {
  ASSERT_FALSE(status.isOk());
  for (const char *part : parts)
    EXPECT_NE(status.message().find(part), std::string::npos)
        << "no '" << part << "' in: " << status.message();
}

TEST_F(JobFailureTest, AFailingTrainerStopsEveryRoleAndIsNamed) {
  for (ps::Mode mode :
       {ps::Mode::Sync, ps::Mode::Async, ps::Mode::HalfAsync, ps::Mode::Geo}) {
    OwningOpRef<ModuleOp> job = compile(mode);
    ASSERT_TRUE(job);
    InjectedFault fault;
    fault.index = 1;
    fault.step = 3;
    Status status = runWith(*job, {fault}, kLongTimeout);
    expectErrorNaming(status, {"trainer 1", "step 3", "injected fault"});
    // The servers heard of it at once; nobody waited for a timeout.
    EXPECT_LT(elapsed, kLongTimeout / 2);
    EXPECT_LE(run->trainer(1).steps(), 2);
  }
}

TEST_F(JobFailureTest, ANonFiniteLossFailsItsTrainer) {
  OwningOpRef<ModuleOp> job = compile(ps::Mode::Sync);
  ASSERT_TRUE(job);
  InjectedFault fault;
  fault.kind = InjectedFault::Kind::NaN;
  fault.index = 0;
  fault.step = 2;
  Status status = runWith(*job, {fault}, kLongTimeout);
  expectErrorNaming(status, {"trainer 0", "step 2", "the loss is nan"});
  EXPECT_LT(elapsed, kLongTimeout / 2);
}

TEST_F(JobFailureTest, AHungTrainerIsFoundByTheTimeout) {
  for (ps::Mode mode : {ps::Mode::Sync, ps::Mode::Async}) {
    OwningOpRef<ModuleOp> job = compile(mode);
    ASSERT_TRUE(job);
    InjectedFault fault;
    fault.kind = InjectedFault::Kind::Hang;
    fault.index = 1;
    fault.step = 2;
    Status status = runWith(*job, {fault}, std::chrono::milliseconds(300));
    expectErrorNaming(status, {"trainer 1 "});
    EXPECT_EQ(status.code(), StatusCode::DeadlineExceeded) << status.message();
  }
}

TEST_F(JobFailureTest, ATrainerThatStopsEarlyLetsTheOthersFinish) {
  for (ps::Mode mode : {ps::Mode::Sync, ps::Mode::HalfAsync, ps::Mode::Geo}) {
    OwningOpRef<ModuleOp> job = compile(mode);
    ASSERT_TRUE(job);
    InjectedFault fault;
    fault.kind = InjectedFault::Kind::Finish;
    fault.index = 1;
    fault.step = 3;
    Status status = runWith(*job, {fault}, kLongTimeout);
    ASSERT_TRUE(status.isOk()) << status.message();
    EXPECT_EQ(run->trainer(0).steps(), 6);
    EXPECT_EQ(run->trainer(1).steps(), 2);
    EXPECT_EQ(run->rows(1), 2 * kBatch / 2);
    if (mode != ps::Mode::Sync)
      continue;
    for (int server = 0; server < run->numServers(); ++server)
      EXPECT_EQ(run->server(server).server().stats().steps, 6);
  }
}

TEST_F(JobFailureTest, AFailingServerUpdateStopsTheJobAndIsNamed) {
  OwningOpRef<ModuleOp> job = compile(ps::Mode::Sync);
  ASSERT_TRUE(job);
  InjectedFault fault;
  fault.server = true;
  fault.index = 1;
  fault.step = 4;
  Status status = runWith(*job, {fault}, kLongTimeout);
  expectErrorNaming(status, {"@ps1", "injected fault in update 4"});
  EXPECT_LT(elapsed, kLongTimeout / 2);
}

TEST_F(JobFailureTest, AFaultForARoleTheJobLacksIsRefused) {
  OwningOpRef<ModuleOp> job = compile(ps::Mode::Sync);
  ASSERT_TRUE(job);
  InjectedFault fault;
  fault.index = 5;
  Status status = runWith(*job, {fault}, kLongTimeout);
  expectErrorNaming(status, {"trainer 5", "the job has 2"});
}

} // namespace
