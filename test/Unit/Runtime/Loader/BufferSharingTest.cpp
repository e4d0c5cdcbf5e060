//===- BufferSharingTest.cpp - Shared buffers train like private ones -----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Values that are never live at once share buffers (see Plan.h). A kernel
// that read a buffer it did not write, or wrote one it was not given, would
// see another value's data there; so every example program trains here
// with shared buffers and with one buffer per value, on the same batches,
// and the two must agree to the bit while the shared plan holds less.
//
//===----------------------------------------------------------------------===//

#include "JobTesting.h"
#include "Runtime/RuntimeTesting.h"
#include "openks/Runtime/Executor.h"

#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

/// Returns the bytes of the buffers an executor of `plan` allocates.
int64_t bufferBytes(const Plan &plan) {
  int64_t bytes = 0;
  for (const Plan::Buffer &buffer : plan.buffers())
    bytes += buffer.capacity * static_cast<int64_t>(dtypeSize(buffer.dtype));
  return bytes;
}

/// An example program, and whether its integer inputs must all be 1: lists
/// of one id each, whose lengths (1) sum to the number of ids.
struct Example {
  const char *name;
  bool idListsOfOne;
};

/// Prints an example by name in test failures.
void PrintTo(const Example &example, std::ostream *os) { *os << example.name; }

/// Fills `tensor` with the rows of batch `step`: small ids (every example's
/// tables and classes have at least two; all 1 if `ones`) or values in
/// [0, 1).
void fillBatch(Tensor &tensor, const FeedSpec &spec, int64_t rows, int step,
               bool ones) {
  Shape shape = spec.shape;
  if (shape.rank() && shape[0] < 0)
    shape[0] = rows;
  tensor.resize(shape);
  for (int64_t i = 0; i < tensor.numel(); ++i) {
    uint64_t hash =
        (static_cast<uint64_t>(step) * 1000003 + i) * 0x9E3779B97F4A7C15ull;
    double unit = static_cast<double>(hash >> 11) * 0x1.0p-53;
    switch (tensor.dtype()) {
    case DType::I64:
      tensor.data<int64_t>()[i] = ones ? 1 : static_cast<int64_t>(hash >> 63);
      break;
    case DType::F32:
      tensor.data<float>()[i] = static_cast<float>(unit);
      break;
    case DType::F64:
      tensor.data<double>()[i] = unit;
      break;
    }
  }
}

/// One example's step, loaded with or without shared buffers.
struct LoadedStep {
  ParameterStore store;
  Plan plan;
};

class BufferSharingTest : public JobTest,
                          public ::testing::WithParamInterface<Example> {
protected:
  /// Loads the step of the minimized `module` for batches of `batch` rows.
  static std::optional<LoadedStep> load(ModuleOp module, int64_t batch,
                                        bool shareBuffers) {
    train::StepOp step;
    module.walk([&](train::StepOp op) { step = op; });
    PlanOptions options;
    options.maxBatch = batch;
    options.shareBuffers = shareBuffers;
    FailureOr<ParameterStore> store =
        buildParameterStore(step->getParentOp(), options);
    if (failed(store))
      return std::nullopt;
    FailureOr<Plan> plan = buildPlan(step.getBody(), *store, options);
    if (failed(plan))
      return std::nullopt;
    return LoadedStep{std::move(*store), std::move(*plan)};
  }
};

TEST_P(BufferSharingTest, SharedBuffersTrainBitIdentically) {
  const Example &example = GetParam();
  std::string path =
      std::string(OPENKS_SOURCE_DIR "/docs/examples/") + example.name + ".mlir";
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(file) << path;
  MinimizeOptions minimize;
  minimize.optimizer = OptimizerKind::Adam;
  minimize.learningRate = 0.01;
  OwningOpRef<ModuleOp> program =
      minimized((*file)->getBuffer().str(), minimize);
  ASSERT_TRUE(program);

  constexpr int64_t kBatch = 16;
  std::optional<LoadedStep> shared = load(*program, kBatch, true);
  std::optional<LoadedStep> own = load(*program, kBatch, false);
  ASSERT_TRUE(shared && own);
  EXPECT_LT(shared->plan.buffers().size(), own->plan.buffers().size());
  EXPECT_LT(bufferBytes(shared->plan), bufferBytes(own->plan));

  ASSERT_TRUE(shared->store.initialize().isOk());
  ASSERT_TRUE(own->store.initialize().isOk());
  Executor sharedRun =
      runtime::testing::createExecutor(shared->plan, shared->store);
  Executor ownRun = runtime::testing::createExecutor(own->plan, own->store);
  const std::vector<FeedSpec> &specs = shared->plan.inputSpecs();
  for (int step = 0; step < 8; ++step) {
    // The last batch is short, as an epoch's last may be.
    int64_t rows = step == 7 ? kBatch - 5 : kBatch;
    for (size_t i = 0; i < specs.size(); ++i) {
      fillBatch(*sharedRun.inputs()[i], specs[i], rows, step,
                example.idListsOfOne);
      fillBatch(*ownRun.inputs()[i], specs[i], rows, step,
                example.idListsOfOne);
    }
    Status sharedStatus = sharedRun.run(), ownStatus = ownRun.run();
    ASSERT_TRUE(sharedStatus.isOk()) << sharedStatus.message();
    ASSERT_TRUE(ownStatus.isOk()) << ownStatus.message();
    for (size_t i = 0; i < sharedRun.outputs().size(); ++i) {
      const Tensor &a = *sharedRun.outputs()[i], &b = *ownRun.outputs()[i];
      ASSERT_EQ(a.shape(), b.shape());
      EXPECT_EQ(0, std::memcmp(a.rawData(), b.rawData(),
                               a.numel() * dtypeSize(a.dtype())))
          << shared->plan.outputNames()[i] << " at step " << step;
    }
  }
  for (ParameterId id = 0; id < shared->store.size(); ++id) {
    const Tensor &a = shared->store[id].value, &b = own->store[id].value;
    EXPECT_EQ(0, std::memcmp(a.rawData(), b.rawData(),
                             a.numel() * dtypeSize(a.dtype())))
        << shared->store[id].name;
  }
}

INSTANTIATE_TEST_SUITE_P(Examples, BufferSharingTest,
                         ::testing::Values(Example{"mlp", false},
                                           Example{"ctr", false},
                                           Example{"wide_deep", true},
                                           Example{"transe", false},
                                           Example{"word2vec", false}),
                         [](const ::testing::TestParamInfo<Example> &info) {
                           return std::string(info.param.name);
                         });

} // namespace
