//===- ExecutorTest.cpp - Tests of running plans over a store -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs hand-built plans: one plan in two executors, two plans over one store,
// outputs that must not alias parameters, errors, and the locking contract,
// including a writer and a reader racing on one parameter from two threads
// (which ThreadSanitizer checks too).
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Executor.h"
#include "Runtime/RuntimeTesting.h"
#include "openks/Runtime/Kernels.h"

#include "gtest/gtest.h"
#include <atomic>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using openks::runtime::testing::createExecutor;

namespace {

/// Returns an f32 parameter `name` of `shape` initialised to `value`.
Parameter constantParameter(std::string name, const Shape &shape,
                            double value) {
  Parameter parameter;
  parameter.name = std::move(name);
  parameter.initializer.kind = InitializerSpec::Kind::Constant;
  parameter.initializer.value = value;
  parameter.wholeShape = shape;
  parameter.value = Tensor(DType::F32, shape);
  return parameter;
}

/// Returns an f32 tensor of `shape` with every element `value`.
Tensor filled(const Shape &shape, float value) {
  Tensor tensor(DType::F32, shape);
  std::fill_n(tensor.data<float>(), tensor.numel(), value);
  return tensor;
}

/// Sets `tensor` to `values` in `shape` (f32).
void feed(Tensor &tensor, const Shape &shape,
          std::initializer_list<float> values) {
  tensor.resize(shape);
  std::copy(values.begin(), values.end(), tensor.data<float>());
}

std::vector<float> values(const Tensor &tensor) {
  return std::vector<float>(tensor.data<float>(),
                            tensor.data<float>() + tensor.numel());
}

KernelBinder bindMatmul(SlotId a, SlotId b, SlotId out) {
  return [=](const Frame &frame) -> BoundKernel {
    return [&a = frame.slot(a), &b = frame.slot(b), &out = frame.slot(out)] {
      return kernels::matmul(a, b, out);
    };
  };
}

KernelBinder bindMean(SlotId x, SlotId out) {
  return [=](const Frame &frame) -> BoundKernel {
    return [&x = frame.slot(x), &out = frame.slot(out)] {
      return kernels::mean(x, out);
    };
  };
}

KernelBinder bindSgd(ParameterId param, SlotId grad, SlotId lr) {
  return [=](const Frame &frame) -> BoundKernel {
    return [&param = frame.parameter(param), &grad = frame.slot(grad),
            &lr = frame.slot(lr)] { return kernels::sgd(param, grad, lr); };
  };
}

/// A plan that overwrites parameter `id` with its one input.
Plan writerPlan(const ParameterStore &store, ParameterId id) {
  Plan::Builder builder(store);
  const Tensor &target = store[id].value;
  SlotId value = builder.addSlot(target.dtype(), target.numel());
  builder.addInput(value, FeedSpec{target.dtype(), target.shape()});
  builder.addInstruction(
      [=](const Frame &frame) -> BoundKernel {
        return [&value = frame.slot(value), &param = frame.parameter(id)] {
          param.copyFrom(value);
          return Status::ok();
        };
      },
      "write", /*slots=*/{value}, /*reads=*/{}, /*writes=*/{id});
  return std::move(builder).build();
}

/// A plan that fetches parameter `id` as its one output.
Plan readerPlan(const ParameterStore &store, ParameterId id) {
  Plan::Builder builder(store);
  builder.addOutput(builder.addParameterSlot(id), "value");
  return std::move(builder).build();
}

TEST(ExecutorTest, TwoExecutorsRunOnePlanOverOneStore) {
  ParameterStore store;
  ParameterId w = store.add(constantParameter("w", Shape{2, 1}, 0.5));
  ASSERT_TRUE(store.initialize().isOk());

  // loss = mean(x w); then w += 1 (sgd with a gradient of ones, lr -1).
  Plan::Builder builder(store);
  SlotId x = builder.addSlot(DType::F32, 4 * 2);
  SlotId wSlot = builder.addParameterSlot(w);
  SlotId xw = builder.addSlot(DType::F32, 4);
  SlotId loss = builder.addSlot(DType::F32, 1);
  SlotId ones = builder.addConstantSlot(filled(Shape{2, 1}, 1));
  SlotId lr = builder.addConstantSlot(filled(Shape{}, -1));
  builder.addInput(x, FeedSpec{DType::F32, Shape{-1, 2}});
  builder.addInstruction(bindMatmul(x, wSlot, xw), "matmul", {x, wSlot, xw},
                         {w});
  builder.addInstruction(bindMean(xw, loss), "mean", {xw, loss});
  builder.addInstruction(bindSgd(w, ones, lr), "sgd", {ones, lr}, {}, {w});
  builder.addOutput(loss, "loss");
  const Plan plan = std::move(builder).build();

  Executor first = createExecutor(plan, store);
  Executor second = createExecutor(plan, store);
  EXPECT_NE(first.inputs()[0], second.inputs()[0]);
  EXPECT_NE(first.outputs()[0], second.outputs()[0]);
  feed(*first.inputs()[0], Shape{1, 2}, {1, 1});
  feed(*second.inputs()[0], Shape{2, 2}, {2, 2, 2, 2});

  ASSERT_TRUE(first.run().isOk());
  EXPECT_FLOAT_EQ(*first.outputs()[0]->data<float>(), 1.0f);
  // The second executor sees the first one's update: w = 1.5.
  ASSERT_TRUE(second.run().isOk());
  EXPECT_FLOAT_EQ(*second.outputs()[0]->data<float>(), 6.0f);
  EXPECT_FLOAT_EQ(*first.outputs()[0]->data<float>(), 1.0f);
  EXPECT_EQ(values(store[w].value), (std::vector<float>{2.5f, 2.5f}));
  // The constants stay as they were: w goes up by 1 again.
  ASSERT_TRUE(first.run().isOk());
  EXPECT_FLOAT_EQ(*first.outputs()[0]->data<float>(), 5.0f);
  EXPECT_EQ(values(store[w].value), (std::vector<float>{3.5f, 3.5f}));
}

TEST(ExecutorTest, PlansShareTheirRoleStore) {
  ParameterStore store;
  store.add(constantParameter("a", Shape{3}, 0));
  ParameterId w = store.add(constantParameter("w", Shape{2}, 0));
  ASSERT_TRUE(store.initialize().isOk());
  Plan write = writerPlan(store, w), read = readerPlan(store, w);
  Executor writer = createExecutor(write, store);
  Executor reader = createExecutor(read, store);

  feed(*writer.inputs()[0], Shape{2}, {3, 4});
  ASSERT_TRUE(writer.run().isOk());
  ASSERT_TRUE(reader.run().isOk());
  EXPECT_EQ(values(*reader.outputs()[0]), (std::vector<float>{3, 4}));
  feed(*writer.inputs()[0], Shape{2}, {5, 6});
  ASSERT_TRUE(writer.run().isOk());
  ASSERT_TRUE(reader.run().isOk());
  EXPECT_EQ(values(*reader.outputs()[0]), (std::vector<float>{5, 6}));
}

TEST(ExecutorTest, OutputsNeverAliasParameters) {
  ParameterStore store;
  ParameterId w = store.add(constantParameter("w", Shape{2}, 7));
  ASSERT_TRUE(store.initialize().isOk());
  Plan write = writerPlan(store, w), read = readerPlan(store, w);
  Executor writer = createExecutor(write, store);
  Executor reader = createExecutor(read, store);

  ASSERT_TRUE(reader.run().isOk());
  const Tensor &output = *reader.outputs()[0];
  EXPECT_NE(&output, &store[w].value);
  EXPECT_NE(output.rawData(), store[w].value.rawData());
  EXPECT_EQ(values(output), (std::vector<float>{7, 7}));
  // A later write leaves the fetched value as it was.
  feed(*writer.inputs()[0], Shape{2}, {1, 2});
  ASSERT_TRUE(writer.run().isOk());
  EXPECT_EQ(values(output), (std::vector<float>{7, 7}));
}

TEST(ExecutorTest, ErrorsNameTheFailingCallAndReleaseTheLocks) {
  ParameterStore store;
  ParameterId w = store.add(constantParameter("w", Shape{1}, 0));
  ParameterId v = store.add(constantParameter("v", Shape{1}, 0));
  Plan::Builder builder(store);
  SlotId logits = builder.addSlot(DType::F32, 3);
  SlotId labels = builder.addSlot(DType::I64, 1);
  SlotId loss = builder.addSlot(DType::F32, 1);
  builder.addParameterSlot(w);
  builder.addInput(logits, FeedSpec{DType::F32, Shape{1, 3}});
  builder.addInput(labels, FeedSpec{DType::I64, Shape{1}});
  builder.addInstruction(
      [=](const Frame &frame) -> BoundKernel {
        return [&logits = frame.slot(logits), &labels = frame.slot(labels),
                &loss = frame.slot(loss)] {
          return kernels::softmaxCrossEntropy(logits, labels, loss);
        };
      },
      "step.mlir:3:7: 'train.softmax_cross_entropy'", {logits, labels, loss},
      {}, {v});
  Plan plan = std::move(builder).build();
  Executor executor = createExecutor(plan, store);

  feed(*executor.inputs()[0], Shape{1, 3}, {0, 0, 0});
  executor.inputs()[1]->resize(Shape{1});
  *executor.inputs()[1]->data<int64_t>() = 7;
  Status status = executor.run();
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.code(), StatusCode::OutOfRange);
  EXPECT_EQ(status.message().rfind(
                "step.mlir:3:7: 'train.softmax_cross_entropy': ", 0),
            0u)
      << status.message();
  EXPECT_NE(status.message().find("7"), std::string::npos);
  for (ParameterId id : {w, v}) {
    ASSERT_TRUE(store.mutex(id).try_lock()) << id;
    store.mutex(id).unlock();
  }
}

TEST(ExecutorTest, RunsHoldSharedLocksForReadsAndExclusiveForWrites) {
  ParameterStore store;
  ParameterId read = store.add(constantParameter("read", Shape{1}, 0));
  ParameterId written = store.add(constantParameter("written", Shape{1}, 0));
  ParameterId untouched =
      store.add(constantParameter("untouched", Shape{1}, 0));

  // What another thread can take while the plan runs.
  struct Probe {
    bool readShared = false, readExclusive = true, writtenShared = true,
         untouchedExclusive = false;
  } probe;
  Plan::Builder builder(store);
  builder.addParameterSlot(read);
  builder.addInstruction(
      [&](const Frame &) -> BoundKernel {
        return [&] {
          std::thread([&] {
            auto tryShared = [&](ParameterId id) {
              bool taken = store.mutex(id).try_lock_shared();
              if (taken)
                store.mutex(id).unlock_shared();
              return taken;
            };
            auto tryExclusive = [&](ParameterId id) {
              bool taken = store.mutex(id).try_lock();
              if (taken)
                store.mutex(id).unlock();
              return taken;
            };
            probe.readShared = tryShared(read);
            probe.readExclusive = tryExclusive(read);
            probe.writtenShared = tryShared(written);
            probe.untouchedExclusive = tryExclusive(untouched);
          }).join();
          return Status::ok();
        };
      },
      "probe", {}, {}, {written});
  Plan plan = std::move(builder).build();
  Executor executor = createExecutor(plan, store);
  ASSERT_TRUE(executor.run().isOk());
  EXPECT_TRUE(probe.readShared);
  EXPECT_FALSE(probe.readExclusive);
  EXPECT_FALSE(probe.writtenShared);
  EXPECT_TRUE(probe.untouchedExclusive);
}

TEST(ExecutorTest, ConcurrentWriterAndReaderSeeWholeValues) {
  constexpr int64_t kSize = 1 << 14;
  constexpr int kRuns = 2000;
  ParameterStore store;
  ParameterId w = store.add(constantParameter("w", Shape{kSize}, 0));
  ASSERT_TRUE(store.initialize().isOk());

  // The writer adds 1 to every element of w (sgd with lr -1); the reader
  // fetches w.
  Plan::Builder builder(store);
  SlotId ones = builder.addConstantSlot(filled(Shape{kSize}, 1));
  SlotId lr = builder.addConstantSlot(filled(Shape{}, -1));
  builder.addInstruction(bindSgd(w, ones, lr), "sgd", {ones, lr}, {}, {w});
  const Plan increment = std::move(builder).build();
  const Plan read = readerPlan(store, w);

  // Both threads start running together, so that their runs overlap.
  std::atomic<int> ready{0}, failures{0}, torn{0}, backwards{0};
  auto startTogether = [&] {
    ++ready;
    while (ready < 2)
      std::this_thread::yield();
  };
  std::thread writerThread([&] {
    Executor writer = createExecutor(increment, store);
    startTogether();
    for (int i = 0; i < kRuns; ++i)
      if (!writer.run().isOk())
        ++failures;
  });
  std::thread readerThread([&] {
    Executor reader = createExecutor(read, store);
    float last = 0;
    startTogether();
    for (int i = 0; i < kRuns; ++i) {
      if (!reader.run().isOk()) {
        ++failures;
        continue;
      }
      const float *value = reader.outputs()[0]->data<float>();
      if (std::any_of(value, value + kSize,
                      [&](float x) { return x != value[0]; }))
        ++torn;
      if (value[0] < last)
        ++backwards;
      last = value[0];
    }
  });
  writerThread.join();
  readerThread.join();

  EXPECT_EQ(failures, 0);
  EXPECT_EQ(torn, 0) << "the reader saw a half-written parameter";
  EXPECT_EQ(backwards, 0);
  EXPECT_EQ(values(store[w].value),
            std::vector<float>(kSize, static_cast<float>(kRuns)));
}

} // namespace
