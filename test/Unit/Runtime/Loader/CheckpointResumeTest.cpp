//===- CheckpointResumeTest.cpp - Stop, re-slice and resume a job ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A sync job of 2 trainers and 2 servers saves a checkpoint every 3 steps;
// its step-3 checkpoint is loaded into jobs of 3 servers and of 1 server
// (other slicing), which resume to step 6. The resumed runs must be
// bit-identical to the uninterrupted one: the same losses, the same
// parameters on the trainers, and the same checkpoint files (parameters
// and every optimizer state, moments, beta powers and step counters) at
// the end. Also: a checkpoint for the wrong program is refused, and so is a
// save directory that cannot be written, before the first step.
//
//===----------------------------------------------------------------------===//

#include "JobTesting.h"

#include "openks/Runtime/Checkpoint.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <unistd.h>

using namespace mlir;
using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;
using namespace openks::testing;
namespace fs = std::filesystem;

namespace {

constexpr std::chrono::milliseconds kTimeout{20000};
constexpr int64_t kBatch = 8;

/// Returns the bytes of every variable file of the checkpoint `dir`.
std::map<std::string, std::string> readFiles(const fs::path &dir) {
  std::map<std::string, std::string> files;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir)) {
    std::string name = entry.path().filename().string();
    if (name == kCheckpointManifest)
      continue;
    std::ifstream in(entry.path(), std::ios::binary);
    files[name].assign(std::istreambuf_iterator<char>(in), {});
  }
  return files;
}

/// Returns the bytes of every parameter of `store`, by name.
std::map<std::string, std::string> parameterBytes(const ParameterStore &store) {
  std::map<std::string, std::string> bytes;
  for (ParameterId id = 0; id < store.size(); ++id) {
    const Tensor &value = store[id].value;
    bytes[store[id].name].assign(static_cast<const char *>(value.rawData()),
                                 value.numel() * dtypeSize(value.dtype()));
  }
  return bytes;
}

struct ResumeCase {
  const char *name;
  std::function<void(MinimizeOptions &)> configure;
};

/// Names a case in gtest's messages.
void PrintTo(const ResumeCase &resumeCase, std::ostream *out) {
  *out << resumeCase.name;
}

class CheckpointResumeTest : public JobTest,
                             public ::testing::WithParamInterface<ResumeCase> {
protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() /
               ("openks-resume-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
  }
  void TearDown() override { fs::remove_all(scratch_); }

  /// Loads the job of `program` on `servers` servers, 2 trainers, sliced
  /// with `minBlockSize` (0: not sliced).
  OwningOpRef<ModuleOp> makeJob(ModuleOp program, int servers,
                                int64_t minBlockSize) {
    TranspileOptions transpile;
    transpile.pservers = loopbackEndpoints(servers);
    transpile.trainers = 2;
    transpile.sliceVarUp = minBlockSize != 0;
    transpile.minBlockSize = std::max<int64_t>(minBlockSize, 1);
    return transpiled(program, transpile);
  }

  /// Runs `job` to `steps` with `options`; returns each step's mean loss,
  /// and trainer 0's parameters in `parameters`.
  std::map<int64_t, double>
  run(ModuleOp job, JobRunOptions options,
      std::map<std::string, std::string> &parameters) {
    options.globalBatch = kBatch;
    options.data = kOddShapesData;
    std::map<int64_t, double> losses;
    auto onStep = options.onStep;
    options.onStep = [&](const StepSummary &summary) {
      losses[summary.step] = *summary.means.front();
      if (onStep)
        onStep(summary);
    };
    StatusOr<std::unique_ptr<fleet::LocalJob>> process =
        createLocalJob(job, kBatch, kTimeout);
    EXPECT_TRUE(process.isOk()) << process.status().message();
    if (!process)
      return losses;
    Status status = (*process)->run(options);
    EXPECT_TRUE(status.isOk()) << status.message();
    parameters = parameterBytes((*process)->trainer(0).store());
    return losses;
  }

  fs::path scratch_;
};

TEST_P(CheckpointResumeTest, ResumesBitIdenticallyInAnotherLayout) {
  MinimizeOptions minimize;
  minimize.learningRate = 0.3;
  GetParam().configure(minimize);
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);

  // Uninterrupted: 6 steps on 2 servers, saving every 3; the step-3
  // checkpoint is copied away when step 4 is reported.
  std::string periodic = (scratch_ / "periodic").string();
  fs::path atStep3 = scratch_ / "step3";
  OwningOpRef<ModuleOp> whole = makeJob(*program, 2, 1);
  ASSERT_TRUE(whole);
  JobRunOptions options;
  options.steps = 6;
  options.saveDir = periodic;
  options.saveEvery = 3;
  options.onStep = [&](const StepSummary &summary) {
    if (summary.step == 4)
      fs::copy(periodic, atStep3);
  };
  std::map<std::string, std::string> expectedParameters;
  std::map<int64_t, double> expectedLosses =
      run(*whole, options, expectedParameters);
  ASSERT_EQ(expectedLosses.size(), 6u);
  StatusOr<CheckpointInfo> info = readCheckpointInfo(atStep3.string());
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->step, 3);
  EXPECT_EQ(info->mode, "sync");
  std::map<std::string, std::string> expectedFiles = readFiles(periodic);
  EXPECT_TRUE(expectedFiles.count("@LR_DECAY_COUNTER@") ||
              minimize.lrSchedule == LRSchedule::Constant);

  // Resumed from step 3 on 3 servers (other blocks), then on 1 (whole).
  for (auto [servers, minBlockSize] :
       {std::pair<int, int64_t>{3, 4}, std::pair<int, int64_t>{1, 0}}) {
    SCOPED_TRACE(fmt::format("{} servers", servers));
    OwningOpRef<ModuleOp> resumed = makeJob(*program, servers, minBlockSize);
    ASSERT_TRUE(resumed);
    std::string finalDir =
        (scratch_ / fmt::format("resumed{}", servers)).string();
    JobRunOptions resume;
    resume.steps = 6;
    resume.loadDir = atStep3.string();
    resume.saveDir = finalDir;
    std::map<std::string, std::string> parameters;
    std::map<int64_t, double> losses = run(*resumed, resume, parameters);
    ASSERT_EQ(losses.size(), 3u);
    for (auto [step, loss] : losses)
      EXPECT_EQ(loss, expectedLosses[step]) << "step " << step;
    EXPECT_TRUE(parameters == expectedParameters);
    std::map<std::string, std::string> files = readFiles(finalDir);
    EXPECT_EQ(files.size(), expectedFiles.size());
    for (const auto &[name, bytes] : expectedFiles)
      EXPECT_TRUE(files[name] == bytes) << name << " differs";
  }
}

INSTANTIATE_TEST_SUITE_P(
    Optimizers, CheckpointResumeTest,
    ::testing::Values(ResumeCase{"MomentumExponentialDecay",
                                 [](MinimizeOptions &o) {
                                   o.optimizer = OptimizerKind::Momentum;
                                   o.lrSchedule = LRSchedule::Exponential;
                                   o.decayRate = 0.5;
                                   o.decaySteps = 2;
                                 }},
                      ResumeCase{"AdamPiecewise",
                                 [](MinimizeOptions &o) {
                                   o.optimizer = OptimizerKind::Adam;
                                   o.lrSchedule = LRSchedule::Piecewise;
                                   o.boundaries = {2, 4};
                                   o.values = {0.3, 0.1, 0.03};
                                 }}),
    [](const ::testing::TestParamInfo<ResumeCase> &info) {
      return std::string(info.param.name);
    });

TEST_F(JobTest, RefusesASaveDirectoryItCannotWriteBeforeTraining) {
  // A save directory under a regular file fails the run at its start, not
  // after the last step, and leaves the file as it was.
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), MinimizeOptions());
  ASSERT_TRUE(program);
  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(2);
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  ASSERT_TRUE(job);
  StatusOr<std::unique_ptr<fleet::LocalJob>> process =
      createLocalJob(*job, kBatch, kTimeout);
  ASSERT_TRUE(process.isOk()) << process.status().message();
  fs::path file = fs::temp_directory_path() /
                  ("openks-save-dir-file-" + std::to_string(getpid()));
  std::ofstream(file) << "precious";
  JobRunOptions options;
  options.steps = 3;
  options.globalBatch = kBatch;
  options.data = kOddShapesData;
  options.saveDir = (file / "ckpt").string();
  int64_t steps = 0;
  options.onStep = [&](const StepSummary &) { ++steps; };
  Status status = (*process)->run(options);
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(status.message(), "cannot save a checkpoint to " + options.saveDir +
                                  ": " + file.string() + " is not a directory");
  EXPECT_EQ(steps, 0);
  EXPECT_EQ(fs::file_size(file), 8u);
  fs::remove(file);
}

TEST_F(JobTest, LoadsIntoEveryLayout) {
  MinimizeOptions minimize;
  minimize.optimizer = OptimizerKind::Adam;
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);
  fs::path dir = fs::temp_directory_path() /
                 ("openks-every-layout-" + std::to_string(getpid()));
  // Saved from 2 servers with blocks of at least one element, the
  // checkpoint loads into each layout and saves back the same bytes.
  auto layout = [&](int servers, int64_t minBlockSize) {
    TranspileOptions transpile;
    transpile.pservers = loopbackEndpoints(servers);
    transpile.sliceVarUp = minBlockSize != 0;
    transpile.minBlockSize = std::max<int64_t>(minBlockSize, 1);
    OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
    return loadJob(*job, kBatch);
  };
  std::optional<JobSpec> saved = layout(2, 1);
  ASSERT_TRUE(saved);
  for (ServerSpec &server : saved->servers)
    ASSERT_TRUE(server.program->store.initialize().isOk());
  ASSERT_TRUE(saveCheckpoint((dir / "saved").string(), *saved, 5).isOk());
  std::map<std::string, std::string> expected = readFiles(dir / "saved");
  for (auto [servers, minBlockSize] :
       {std::pair<int, int64_t>{3, 1}, std::pair<int, int64_t>{3, 7},
        std::pair<int, int64_t>{1, 0}, std::pair<int, int64_t>{4, 0}}) {
    SCOPED_TRACE(
        fmt::format("{} servers, min block {}", servers, minBlockSize));
    std::optional<JobSpec> loaded = layout(servers, minBlockSize);
    ASSERT_TRUE(loaded);
    StatusOr<CheckpointInfo> info =
        loadCheckpoint((dir / "saved").string(), *loaded);
    ASSERT_TRUE(info.isOk()) << info.status().message();
    EXPECT_EQ(info->step, 5);
    ASSERT_TRUE(saveCheckpoint((dir / "again").string(), *loaded, 5).isOk());
    EXPECT_TRUE(readFiles(dir / "again") == expected);
  }
  fs::remove_all(dir);
}

/// Returns the bytes of every variable the checkpoint `dir` holds of the
/// servers of `job`, loaded into a fresh copy of them.
std::map<std::string, std::string> loadServerBytes(const std::string &dir,
                                                   JobSpec job) {
  std::map<std::string, std::string> bytes;
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir, job);
  EXPECT_TRUE(info.isOk()) << info.status().message();
  for (const ServerSpec &server : job.servers)
    for (auto &[name, value] : parameterBytes(server.program->store))
      bytes[server.name + "/" + name] = value;
  return bytes;
}

TEST_F(JobTest, GeoCheckpointHoldsTheLastPush) {
  // 5 steps with a push every 100: the only push is the trainers' last, in
  // stopWorker; the last checkpoint must hold it, and the learning rate,
  // which only the GEO workers hold.
  MinimizeOptions minimize;
  minimize.learningRate = 0.3;
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);
  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(2);
  transpile.trainers = 2;
  transpile.mode = ps::Mode::Geo;
  transpile.geoPushSteps = 100;
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  ASSERT_TRUE(job);
  fs::path dir = fs::temp_directory_path() /
                 ("openks-geo-last-push-" + std::to_string(getpid()));
  fs::remove_all(dir);
  StatusOr<std::unique_ptr<fleet::LocalJob>> process =
      createLocalJob(*job, kBatch, kTimeout);
  ASSERT_TRUE(process.isOk()) << process.status().message();
  JobRunOptions options;
  options.steps = 5;
  options.globalBatch = kBatch;
  options.data = kOddShapesData;
  options.saveDir = dir.string();
  Status status = (*process)->run(options);
  ASSERT_TRUE(status.isOk()) << status.message();

  std::optional<JobSpec> initial = loadJob(*job, kBatch);
  ASSERT_TRUE(initial);
  for (ServerSpec &server : initial->servers)
    ASSERT_TRUE(server.program->store.initialize().isOk());
  std::map<std::string, std::string> trained, untrained;
  for (int index = 0; index < (*process)->numServers(); ++index) {
    const ServerSpec &server = (*process)->job().servers[index];
    for (auto &[name, value] :
         parameterBytes((*process)->server(index).role().store()))
      trained[server.name + "/" + name] = value;
    for (auto &[name, value] :
         parameterBytes(initial->servers[index].program->store))
      untrained[server.name + "/" + name] = value;
  }
  std::optional<JobSpec> fresh = loadJob(*job, kBatch);
  ASSERT_TRUE(fresh);
  EXPECT_TRUE(loadServerBytes(dir.string(), std::move(*fresh)) == trained);
  EXPECT_FALSE(trained == untrained);
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir.string());
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->step, 5);
  EXPECT_EQ(info->mode, "geo");
  EXPECT_TRUE(llvm::any_of(info->variables, [](const CheckpointVariable &v) {
    return v.name == "learning_rate";
  }));
  fs::remove_all(dir);
}

TEST_F(JobTest, ObservesWhatItsCheckpointsHold) {
  // A sync 2 x 2 job of sliced blocks, observed after steps 2 and 4 (the
  // last): saved from the observed stores, each is the job's own
  // checkpoint of that step to the byte, the last one taken when the step
  // completes rather than once the roles have ended. An observer's error
  // fails the run.
  MinimizeOptions minimize;
  minimize.learningRate = 0.3;
  OwningOpRef<ModuleOp> program =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  ASSERT_TRUE(program);
  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(2);
  transpile.trainers = 2;
  transpile.minBlockSize = 1;
  OwningOpRef<ModuleOp> job = transpiled(*program, transpile);
  ASSERT_TRUE(job);
  fs::path dir = fs::temp_directory_path() /
                 ("openks-observed-" + std::to_string(getpid()));
  fs::remove_all(dir);
  JobRunOptions options;
  options.steps = 4;
  options.globalBatch = kBatch;
  options.data = kOddShapesData;
  options.saveDir = (dir / "periodic").string();
  options.saveEvery = 2;
  std::vector<int64_t> observed;
  options.observes = [](int64_t step) { return step % 2 == 0; };
  options.observe = [&](int64_t step,
                        const std::vector<const ParameterStore *> &stores) {
    observed.push_back(step);
    return saveCheckpoint((dir / fmt::format("observed{}", step)).string(),
                          stores, "sync", step);
  };
  // The job's step-2 checkpoint, before the last one replaces it.
  options.onStep = [&](const StepSummary &summary) {
    if (summary.step == 3)
      fs::copy(dir / "periodic", dir / "periodic2");
  };
  StatusOr<std::unique_ptr<fleet::LocalJob>> process =
      createLocalJob(*job, kBatch, kTimeout);
  ASSERT_TRUE(process.isOk()) << process.status().message();
  Status status = (*process)->run(options);
  ASSERT_TRUE(status.isOk()) << status.message();
  EXPECT_EQ(observed, (std::vector<int64_t>{2, 4}));
  EXPECT_TRUE(readFiles(dir / "observed2") == readFiles(dir / "periodic2"));
  EXPECT_TRUE(readFiles(dir / "observed4") == readFiles(dir / "periodic"));
  EXPECT_EQ(readCheckpointInfo((dir / "observed4").string())->step, 4);

  options.saveDir.clear();
  options.onStep = nullptr;
  options.observe = [](int64_t step,
                       const std::vector<const ParameterStore *> &) {
    return Status::invalidArgument("observer refuses step {}", step);
  };
  StatusOr<std::unique_ptr<fleet::LocalJob>> again =
      createLocalJob(*job, kBatch, kTimeout);
  ASSERT_TRUE(again.isOk()) << again.status().message();
  Status refused = (*again)->run(options);
  EXPECT_FALSE(refused.isOk());
  EXPECT_NE(refused.message().find("observer refuses step 2"),
            std::string::npos)
      << refused.message();
  fs::remove_all(dir);
}

TEST_F(JobTest, RefusesTheCheckpointOfAnotherProgram) {
  MinimizeOptions minimize;
  OwningOpRef<ModuleOp> f32 =
      minimized(fmt::format(kOddShapesProgram, "f32"), minimize);
  OwningOpRef<ModuleOp> f64 =
      minimized(fmt::format(kOddShapesProgram, "f64"), minimize);
  ASSERT_TRUE(f32 && f64);
  TranspileOptions transpile;
  transpile.pservers = loopbackEndpoints(2);
  OwningOpRef<ModuleOp> saved = transpiled(*f32, transpile);
  OwningOpRef<ModuleOp> loaded = transpiled(*f64, transpile);
  std::optional<JobSpec> from = loadJob(*saved, kBatch);
  std::optional<JobSpec> into = loadJob(*loaded, kBatch);
  ASSERT_TRUE(from && into);
  fs::path dir = fs::temp_directory_path() /
                 ("openks-wrong-program-" + std::to_string(getpid()));
  ASSERT_TRUE(saveCheckpoint(dir.string(), *from, 0).isOk());
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir.string(), *into);
  ASSERT_FALSE(info.isOk());
  EXPECT_NE(info.status().message().find(": holds f32 "), std::string::npos)
      << info.status().message();
  EXPECT_NE(info.status().message().find("but the job's"), std::string::npos)
      << info.status().message();
  fs::remove_all(dir);
}

} // namespace
