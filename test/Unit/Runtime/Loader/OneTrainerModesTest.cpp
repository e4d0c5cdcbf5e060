//===- OneTrainerModesTest.cpp - Async modes of a lone trainer ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// With one trainer, every mode is single-process training in disguise: an
// async or half-async server applies the lone gradient as it arrives, before
// the trainer pulls the block back; a GEO trainer trains locally and, at
// each push, hands the server its whole change and takes back exactly its
// own parameters. So each step's parameters must equal local training on
// the same batches. This pins the arithmetic of each mode's update rule
// (a GEO push that applies a change twice diverges within a few pushes).
//
//===----------------------------------------------------------------------===//

#include "JobTesting.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

constexpr std::chrono::milliseconds kTimeout{20000};

class OneTrainerModesTest
    : public JobTest,
      public ::testing::WithParamInterface<
          std::tuple<ps::Mode, OptimizerKind, const char *>> {};

TEST_P(OneTrainerModesTest, EveryStepEqualsLocalTraining) {
  auto [mode, optimizer, floatType] = GetParam();
  MinimizeOptions minimize;
  minimize.optimizer = optimizer;
  minimize.learningRate = 0.3;
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, floatType), minimize);
  ASSERT_TRUE(program);

  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(2);
  transpile.trainers = 1;
  transpile.mode = mode;
  transpile.minBlockSize = 1;
  transpile.geoPushSteps = 3;
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  const int64_t batch = 8;
  std::unique_ptr<LocalTrainer> reference =
      localTrainer(*program, batch, kOddShapesData);
  ASSERT_TRUE(reference);
  // A GEO push rounds each block through old + (local - old).
  bool f64 = std::string(floatType) == "f64";
  double tolerance = mode == ps::Mode::Geo ? (f64 ? 1e-12 : 1e-5) : 0;
  std::unique_ptr<fleet::LocalJob> run =
      expectStepsMatch(*job, *reference, /*steps=*/10, batch, kOddShapesData,
                       tolerance, kTimeout);
  // Their servers change blocks while they train: they hold copies.
  if (run)
    expectBorrowedBlocks(*run, /*sync=*/false);
}

std::string describeCase(
    const ::testing::TestParamInfo<OneTrainerModesTest::ParamType> &info) {
  auto [mode, optimizer, floatType] = info.param;
  const char *modeName = mode == ps::Mode::Async       ? "Async"
                         : mode == ps::Mode::HalfAsync ? "HalfAsync"
                                                       : "Geo";
  const char *optimizerName =
      optimizer == OptimizerKind::Adam ? "Adam" : "Sgd";
  return fmt::format("{}{}{}", modeName, optimizerName, floatType);
}

INSTANTIATE_TEST_SUITE_P(
    Modes, OneTrainerModesTest,
    ::testing::Combine(::testing::Values(ps::Mode::Async, ps::Mode::HalfAsync,
                                         ps::Mode::Geo),
                       ::testing::Values(OptimizerKind::SGD,
                                         OptimizerKind::Adam),
                       ::testing::Values("f32", "f64")),
    describeCase);

} // namespace
