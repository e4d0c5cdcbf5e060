//===- SyncEquivalenceTest.cpp - Sync training equals local training ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The central promise of the runtime: T trainers each taking B/T rows of a
// global batch of B give, after every step, the parameters single-process
// training gives on the same B rows. Checked over layouts (trainers,
// servers, slicing, placement), optimizers, learning-rate schedules,
// global-norm clipping, per-parameter update settings and element types, on
// a program with parameters of awkward shapes.
//
//===----------------------------------------------------------------------===//

#include "JobTesting.h"

#include <algorithm>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

constexpr std::chrono::milliseconds kTimeout{20000};

/// Trains `job` in process and checks that every step equals single-process
/// training within `tolerance`, that every server applied every step, and
/// that the trainers read the blocks servers hold whole in place.
void expectEqualsLocal(ModuleOp job, LocalTrainer &reference, int64_t steps,
                       int64_t batch, const std::string &data,
                       double tolerance) {
  std::unique_ptr<fleet::LocalJob> run =
      expectStepsMatch(job, reference, steps, batch, data, tolerance, kTimeout);
  if (!run)
    return;
  for (int server = 0; server < run->numServers(); ++server)
    EXPECT_EQ(run->server(server).server().stats().steps, steps);
  expectBorrowedBlocks(*run, /*sync=*/true);
}

/// How the job is laid out.
struct Layout {
  int trainers;
  int servers;
  /// 0: no slicing; otherwise slicing with this min-block-size.
  int64_t minBlockSize;
  ps::SplitMethod splitMethod;
};

std::string describeLayout(const ::testing::TestParamInfo<Layout> &info) {
  const Layout &layout = info.param;
  return fmt::format(
      "{}Trainers{}Servers{}{}", layout.trainers, layout.servers,
      layout.minBlockSize ? fmt::format("Min{}", layout.minBlockSize)
                          : std::string("Unsliced"),
      layout.splitMethod == ps::SplitMethod::HashName ? "Hash" : "RoundRobin");
}

class SyncLayoutTest : public JobTest,
                       public ::testing::WithParamInterface<Layout> {};

TEST_P(SyncLayoutTest, EveryStepEqualsLocalTraining) {
  const Layout &layout = GetParam();
  MinimizeOptions minimize;
  minimize.optimizer = OptimizerKind::SGD;
  minimize.learningRate = 0.5;
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);

  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(layout.servers);
  transpile.trainers = layout.trainers;
  transpile.sliceVarUp = layout.minBlockSize != 0;
  transpile.minBlockSize = std::max<int64_t>(layout.minBlockSize, 1);
  transpile.splitMethod = layout.splitMethod;
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  const int64_t batch = 8;
  std::unique_ptr<LocalTrainer> reference =
      localTrainer(*program, batch, kOddShapesData);
  ASSERT_TRUE(reference);
  expectEqualsLocal(*job, *reference, /*steps=*/4, batch, kOddShapesData, 1e-5);
}

std::vector<Layout> allLayouts() {
  std::vector<Layout> layouts;
  for (int trainers : {1, 2, 4})
    for (int servers : {1, 2, 3})
      for (int64_t minBlockSize : {0, 1, 15})
        for (ps::SplitMethod method :
             {ps::SplitMethod::RoundRobin, ps::SplitMethod::HashName})
          layouts.push_back({trainers, servers, minBlockSize, method});
  return layouts;
}

INSTANTIATE_TEST_SUITE_P(Layouts, SyncLayoutTest,
                         ::testing::ValuesIn(allLayouts()), describeLayout);

/// An optimizer setup of openks-minimize.
struct OptimizerCase {
  const char *name;
  std::function<void(MinimizeOptions &)> configure;
};

std::vector<OptimizerCase> optimizerCases() {
  return {
      {"Sgd", [](MinimizeOptions &) {}},
      {"Momentum",
       [](MinimizeOptions &o) { o.optimizer = OptimizerKind::Momentum; }},
      {"NesterovWithWeightDecay",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Momentum;
         o.nesterov = true;
         o.weightDecay = 0.01;
       }},
      {"Adam", [](MinimizeOptions &o) { o.optimizer = OptimizerKind::Adam; }},
      {"Adagrad",
       [](MinimizeOptions &o) { o.optimizer = OptimizerKind::Adagrad; }},
      {"SgdExponentialDecay",
       [](MinimizeOptions &o) {
         o.lrSchedule = LRSchedule::Exponential;
         o.decayRate = 0.5;
         o.decaySteps = 2;
       }},
      {"AdamStaircaseDecay",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Adam;
         o.lrSchedule = LRSchedule::Exponential;
         o.decaySteps = 3;
         o.staircase = true;
       }},
      {"MomentumPiecewise",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Momentum;
         o.lrSchedule = LRSchedule::Piecewise;
         o.boundaries = {2, 4};
         o.values = {0.5, 0.2, 0.05};
       }},
      {"AdagradPiecewise",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Adagrad;
         o.lrSchedule = LRSchedule::Piecewise;
         o.boundaries = {3};
         o.values = {0.3, 0.1};
       }},
      {"Rmsprop",
       [](MinimizeOptions &o) { o.optimizer = OptimizerKind::RMSProp; }},
      {"RmspropCenteredWithMomentum",
       [](MinimizeOptions &o) {
         // A rate for a normalized step: at 0.3, the scalar @s jumps
         // across 0, where a relative comparison measures nothing.
         o.learningRate = 0.03;
         o.optimizer = OptimizerKind::RMSProp;
         o.centered = true;
         o.rmspropMomentum = 0.5;
         o.rho = 0.9;
       }},
      {"DecayedAdagrad",
       [](MinimizeOptions &o) { o.optimizer = OptimizerKind::DecayedAdagrad; }},
      {"FtrlWithL1L2",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Ftrl;
         o.ftrlL1 = 0.01;
         o.ftrlL2 = 0.01;
       }},
      {"FtrlPowerExponentialDecay",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Ftrl;
         o.lrPower = -0.3;
         o.lrSchedule = LRSchedule::Exponential;
         o.decaySteps = 2;
       }},
      {"Adamax",
       [](MinimizeOptions &o) { o.optimizer = OptimizerKind::Adamax; }},
      // Bounds small enough that the clip acts in every step: the norm is
      // that of the batch's gradient, which the servers compute together.
      {"SgdGlobalClip", [](MinimizeOptions &o) { o.clipGlobalNorm = 0.05; }},
      {"MomentumGlobalClipWithWeightDecay",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Momentum;
         o.clipGlobalNorm = 0.05;
         o.weightDecay = 0.01;
       }},
      {"AdamGlobalClip",
       [](MinimizeOptions &o) {
         o.optimizer = OptimizerKind::Adam;
         o.clipGlobalNorm = 0.02;
       }},
  };
}

/// Trains one program in sync mode and in one process.
class SyncTrainingTest : public JobTest {
protected:
  /// Minimizes `source` (whose float type is `floatType`) with `minimize`,
  /// transpiles it for `layout`, and checks 6 steps of 12 rows against
  /// local training.
  void expectTrainsAsLocal(const std::string &source,
                           const MinimizeOptions &minimize,
                           const std::string &floatType, const Layout &layout) {
    OwningOpRef<ModuleOp> program = minimized(source, minimize);
    ASSERT_TRUE(program);
    TranspileOptions transpile;
    transpile.pservers = loopbackEndpoints(layout.servers);
    transpile.trainers = layout.trainers;
    transpile.minBlockSize = layout.minBlockSize;
    transpile.splitMethod = layout.splitMethod;
    OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
    const int64_t batch = 12;
    std::unique_ptr<LocalTrainer> reference =
        localTrainer(*program, batch, kOddShapesData);
    ASSERT_TRUE(reference);
    expectEqualsLocal(*job, *reference, /*steps=*/6, batch, kOddShapesData,
                      floatType == "f64" ? 1e-12 : 1e-5);
  }
};

class SyncOptimizerTest : public SyncTrainingTest,
                          public ::testing::WithParamInterface<
                              std::tuple<OptimizerCase, const char *, Layout>> {
};

TEST_P(SyncOptimizerTest, EveryStepEqualsLocalTraining) {
  auto [optimizer, floatType, layout] = GetParam();
  MinimizeOptions minimize;
  minimize.learningRate = 0.3;
  optimizer.configure(minimize);
  expectTrainsAsLocal(fmt::format(kOddShapesProgram, floatType), minimize,
                      floatType, layout);
}

std::string describeOptimizerCase(
    const ::testing::TestParamInfo<SyncOptimizerTest::ParamType> &info) {
  auto [optimizer, floatType, layout] = info.param;
  return fmt::format("{}{}{}T{}S", optimizer.name, floatType, layout.trainers,
                     layout.servers);
}

INSTANTIATE_TEST_SUITE_P(
    Optimizers, SyncOptimizerTest,
    ::testing::Combine(
        ::testing::ValuesIn(optimizerCases()), ::testing::Values("f32", "f64"),
        ::testing::Values(Layout{2, 3, 1, ps::SplitMethod::RoundRobin},
                          Layout{4, 2, 1, ps::SplitMethod::HashName},
                          Layout{3, 2, 15, ps::SplitMethod::RoundRobin})),
    describeOptimizerCase);

/// Returns `program` with `settings` appended to the declarations of the
/// parameters they name.
std::string
withSettings(std::string program,
             const std::vector<std::pair<std::string, std::string>> &settings) {
  for (const auto &[name, text] : settings) {
    size_t at = program.find("train.param @" + name + " ");
    EXPECT_NE(at, std::string::npos) << name;
    program.insert(program.find('\n', at), " " + text);
  }
  return program;
}

/// Every kind of per-parameter setting, on kOddShapesProgram: a clip by
/// value on sliced parameters, a clip by norm on the ones that stay whole
/// (a row, a scalar), L1 and L2 decay of their own, the global weight decay
/// turned off (b1) or kept (row, wc), and learning-rate scales. The bounds
/// are small enough that the clips act.
const std::vector<std::pair<std::string, std::string>> kSettings = {
    {"w1", "lr_scale 0.5 l1_decay 0.01 clip_max 0.02"},
    {"b1", "l2_decay 0.0"},
    {"w2", "l2_decay 0.05"},
    {"row", "lr_scale 2.0 clip_norm 0.01"},
    {"wc", "clip_min -0.02 clip_max 0.01"},
    {"s", "l1_decay 0.1 clip_norm 0.001"},
};

class SyncSettingsTest : public SyncTrainingTest,
                         public ::testing::WithParamInterface<
                             std::tuple<OptimizerKind, const char *, Layout>> {
};

TEST_P(SyncSettingsTest, EveryStepEqualsLocalTraining) {
  auto [kind, floatType, layout] = GetParam();
  MinimizeOptions minimize;
  minimize.optimizer = kind;
  minimize.learningRate = 0.3;
  minimize.weightDecay = 0.01;
  expectTrainsAsLocal(
      withSettings(fmt::format(kOddShapesProgram, floatType), kSettings),
      minimize, floatType, layout);
}

std::string describeSettingsCase(
    const ::testing::TestParamInfo<SyncSettingsTest::ParamType> &info) {
  auto [kind, floatType, layout] = info.param;
  const char *names[] = {"Sgd",     "Momentum",       "Adam", "Adagrad",
                         "Rmsprop", "DecayedAdagrad", "Ftrl", "Adamax"};
  return fmt::format("{}{}{}T{}S", names[static_cast<int>(kind)], floatType,
                     layout.trainers, layout.servers);
}

INSTANTIATE_TEST_SUITE_P(
    Settings, SyncSettingsTest,
    ::testing::Combine(
        ::testing::Values(OptimizerKind::SGD, OptimizerKind::Adam,
                          OptimizerKind::RMSProp, OptimizerKind::Ftrl),
        ::testing::Values("f32", "f64"),
        ::testing::Values(Layout{2, 3, 1, ps::SplitMethod::RoundRobin},
                          Layout{4, 2, 1, ps::SplitMethod::HashName},
                          Layout{3, 2, 15, ps::SplitMethod::RoundRobin})),
    describeSettingsCase);

/// Clips by norms no server sees alone, on kOddShapesProgram: a clip by
/// norm of w2, which is sliced (its blocks' servers share its norm), and of
/// a scalar, which stays whole, and the global-norm clip of the other
/// parameters, which the servers compute together; with weight decay after
/// the clips. The bounds are small enough that every clip acts.
const std::vector<std::pair<std::string, std::string>> kNormClips = {
    {"w2", "clip_norm 0.02"},
    {"s", "clip_norm 0.001"},
};

class SyncNormClipTest : public SyncTrainingTest,
                         public ::testing::WithParamInterface<
                             std::tuple<OptimizerKind, const char *, Layout>> {
};

TEST_P(SyncNormClipTest, EveryStepEqualsLocalTraining) {
  auto [kind, floatType, layout] = GetParam();
  MinimizeOptions minimize;
  minimize.optimizer = kind;
  minimize.learningRate = 0.3;
  minimize.weightDecay = 0.01;
  minimize.clipGlobalNorm = 0.05;
  expectTrainsAsLocal(
      withSettings(fmt::format(kOddShapesProgram, floatType), kNormClips),
      minimize, floatType, layout);
}

// Adaptive optimizers magnify the f32 rounding of a clipped gradient that
// nearly cancels past any fixed tolerance (docs/Runtime.md), so they are
// checked in f64, where rounding stays near 1e-16; the others in both.
INSTANTIATE_TEST_SUITE_P(
    NormClips, SyncNormClipTest,
    ::testing::Combine(
        ::testing::Values(OptimizerKind::SGD, OptimizerKind::Momentum),
        ::testing::Values("f32", "f64"),
        ::testing::Values(Layout{2, 3, 1, ps::SplitMethod::RoundRobin},
                          Layout{4, 2, 1, ps::SplitMethod::HashName},
                          Layout{3, 2, 15, ps::SplitMethod::RoundRobin})),
    describeSettingsCase);

INSTANTIATE_TEST_SUITE_P(
    AdaptiveNormClips, SyncNormClipTest,
    ::testing::Combine(
        ::testing::Values(OptimizerKind::Adam, OptimizerKind::RMSProp,
                          OptimizerKind::Ftrl, OptimizerKind::Adagrad),
        ::testing::Values("f64"),
        ::testing::Values(Layout{2, 3, 1, ps::SplitMethod::RoundRobin},
                          Layout{4, 2, 1, ps::SplitMethod::HashName},
                          Layout{3, 2, 15, ps::SplitMethod::RoundRobin})),
    describeSettingsCase);

/// Runs the transpiled `job` for 6 steps of 12 rows with `threads` threads
/// in all and returns each server's parameters, in order, as bytes.
std::vector<std::string> trainServers(ModuleOp job, int threads) {
  StatusOr<std::unique_ptr<fleet::LocalJob>> run =
      createLocalJob(job, /*maxBatch=*/12, kTimeout);
  EXPECT_TRUE(run.isOk()) << run.status().message();
  if (!run)
    return {};
  fleet::JobRunOptions options;
  options.steps = 6;
  options.globalBatch = 12;
  options.data = kOddShapesData;
  options.threads = threads;
  Status status = (*run)->run(options);
  EXPECT_TRUE(status.isOk()) << status.message();
  std::vector<std::string> values;
  for (int server = 0; server < (*run)->numServers(); ++server) {
    const ParameterStore &store = (*run)->server(server).role().store();
    for (size_t id = 0; id < store.size(); ++id) {
      const Tensor &value = store[id].value;
      const char *bytes = static_cast<const char *>(value.rawData());
      values.emplace_back(bytes,
                          bytes + value.numel() * dtypeSize(value.dtype()));
    }
  }
  return values;
}

// A server with threads to spare applies its blocks' updates in parallel
// (servers of 8 threads here, against 1): the parameters come out the same
// to the bit, with updates that clip by norms the servers share.
TEST_F(SyncTrainingTest, ParallelServerUpdatesEqualSerialOnes) {
  MinimizeOptions minimize;
  minimize.optimizer = OptimizerKind::Adam;
  minimize.learningRate = 0.3;
  minimize.weightDecay = 0.01;
  minimize.clipGlobalNorm = 0.05;
  OwningOpRef<ModuleOp> program =
      minimized(withSettings(fmt::format(kOddShapesProgram, "f32"), kNormClips),
                minimize);
  ASSERT_TRUE(program);
  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(2);
  transpile.trainers = 2;
  transpile.minBlockSize = 1;
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  std::vector<std::string> serial = trainServers(*job, /*threads=*/4);
  std::vector<std::string> parallel = trainServers(*job, /*threads=*/32);
  ASSERT_FALSE(serial.empty());
  ASSERT_EQ(serial.size(), parallel.size());
  for (size_t i = 0; i < serial.size(); ++i)
    EXPECT_EQ(serial[i], parallel[i]) << "parameter " << i;
}

} // namespace
