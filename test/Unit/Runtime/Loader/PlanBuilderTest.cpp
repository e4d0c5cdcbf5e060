//===- PlanBuilderTest.cpp - Tests of building plans from IR --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds stores and plans from small train programs and checks what running
// them computes, in particular that parameter reads see the value at the
// point of the read even when the plan shares the parameter's buffer, and
// that fetched values never alias a parameter. (Worker and server programs
// are in JobPlanTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/PlanBuilder.h"
#include "Runtime/RuntimeTesting.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/Runtime/Executor.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using openks::runtime::testing::createExecutor;

namespace {

class PlanBuilderTest : public ::testing::Test {
protected:
  PlanBuilderTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source`, builds the store of the program around its only step
  /// and the step's plan, and makes an executor of them.
  bool load(const char *source, int64_t maxBatch = 4) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return false;
    train::StepOp step;
    module->walk([&](train::StepOp op) { step = op; });
    PlanOptions options;
    options.maxBatch = maxBatch;
    FailureOr<ParameterStore> builtStore =
        buildParameterStore(step->getParentOp(), options);
    if (failed(builtStore))
      return false;
    store.emplace(std::move(*builtStore));
    FailureOr<Plan> builtPlan = buildPlan(step.getBody(), *store, options);
    if (failed(builtPlan))
      return false;
    plan.emplace(std::move(*builtPlan));
    executor.emplace(createExecutor(*plan, *store));
    return true;
  }

  /// Sets input `index` to `values` in `shape` (f32).
  void feed(size_t index, const Shape &shape,
            std::initializer_list<float> values) {
    Tensor &input = *executor->inputs()[index];
    input.resize(shape);
    std::copy(values.begin(), values.end(), input.data<float>());
  }

  /// Returns the value of parameter `name`.
  const Tensor &parameter(const std::string &name) {
    return (*store)[*store->lookup(name)].value;
  }

  static std::vector<float> values(const Tensor &tensor) {
    return std::vector<float>(tensor.data<float>(),
                              tensor.data<float>() + tensor.numel());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::optional<ParameterStore> store;
  std::optional<Plan> plan;
  std::optional<Executor> executor;
};

TEST_F(PlanBuilderTest, RunsALinearModelAndItsUpdate) {
  ASSERT_TRUE(load(R"mlir(
    train.program @p {
      train.param @w : tensor<2x1xf32> init #train.constant<0.5>
      train.param @b : tensor<1xf32> init #train.constant<1.0>
      train.param @lr : tensor<f32> init #train.constant<0.25> frozen
      train.step @step(%x: tensor<?x2xf32>) -> tensor<f32> {
        %w = train.read @w : tensor<2x1xf32>
        %b = train.read @b : tensor<1xf32>
        %xw = train.matmul %x, %w : (tensor<?x2xf32>, tensor<2x1xf32>) -> tensor<?x1xf32>
        %y = train.add %xw, %b : (tensor<?x1xf32>, tensor<1xf32>) -> tensor<?x1xf32>
        %loss = train.mean %y : (tensor<?x1xf32>) -> tensor<f32>
        %one = train.fill 1.0 : tensor<f32>
        %dy = train.mean_grad %y, %one : (tensor<?x1xf32>, tensor<f32>) -> tensor<?x1xf32>
        %dxw, %db = train.add_grad %xw, %b, %dy
            : (tensor<?x1xf32>, tensor<1xf32>, tensor<?x1xf32>) -> (tensor<?x1xf32>, tensor<1xf32>)
        %dx, %dw = train.matmul_grad %x, %w, %dxw
            : (tensor<?x2xf32>, tensor<2x1xf32>, tensor<?x1xf32>) -> (tensor<?x2xf32>, tensor<2x1xf32>)
        %lr = train.read @lr : tensor<f32>
        train.sgd @b, %db, %lr : tensor<1xf32>, tensor<f32>
        train.sgd @w, %dw, %lr : tensor<2x1xf32>, tensor<f32>
        train.yield %loss : tensor<f32>
      }
    }
  )mlir"));
  ASSERT_TRUE(store->initialize().isOk());
  ASSERT_EQ(plan->inputSpecs().size(), 1u);
  EXPECT_EQ(plan->inputSpecs()[0].shape, (Shape{-1, 2}));
  EXPECT_EQ(plan->outputNames(), std::vector<std::string>{"loss"});
  // The run writes w and b and only reads lr.
  ASSERT_EQ(plan->accesses().size(), 3u);
  for (const Plan::ParameterAccess &access : plan->accesses())
    EXPECT_EQ(access.write, (*store)[access.parameter].name != "lr")
        << (*store)[access.parameter].name;

  // Rows (1, 2) and (3, 4): y = 0.5 * (x0 + x1) + 1 = 2.5 and 4.5.
  feed(0, Shape{2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(executor->run().isOk());
  EXPECT_FLOAT_EQ(*executor->outputs()[0]->data<float>(), 3.5f);

  // d loss / dw = mean of the rows = (2, 3); d loss / db = 1.
  EXPECT_EQ(values(parameter("w")),
            (std::vector<float>{0.5f - 0.25f * 2, 0.5f - 0.25f * 3}));
  EXPECT_EQ(values(parameter("b")), (std::vector<float>{1.0f - 0.25f}));

  // A smaller batch reuses the buffers: y = 0 * 1 + (-0.25) * 1 + 0.75.
  feed(0, Shape{1, 2}, {1, 1});
  ASSERT_TRUE(executor->run().isOk());
  EXPECT_FLOAT_EQ(*executor->outputs()[0]->data<float>(), 0.5f);
}

TEST_F(PlanBuilderTest, ReadsSeeTheValueBeforeLaterWrites) {
  ASSERT_TRUE(load(R"mlir(
    train.program @p {
      train.param @w : tensor<2xf32> init #train.constant<3.0>
      train.step @step(%v: tensor<2xf32>, %lr: tensor<f32>)
          -> (tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
        %before = train.read @w : tensor<2xf32>
        train.write %v to @w : tensor<2xf32>
        %after = train.read @w : tensor<2xf32>
        train.sgd @w, %v, %lr : tensor<2xf32>, tensor<f32>
        %zero = train.fill 0.0 : tensor<f32>
        %final = train.read @w : tensor<2xf32>
        train.yield %zero, %before, %after, %final
            : tensor<f32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
      }
    }
  )mlir"));
  ASSERT_TRUE(store->initialize().isOk());
  feed(0, Shape{2}, {1, 2});
  feed(1, Shape{}, {0.5f});
  ASSERT_TRUE(executor->run().isOk());
  EXPECT_EQ(values(*executor->outputs()[1]), (std::vector<float>{3, 3}));
  EXPECT_EQ(values(*executor->outputs()[2]), (std::vector<float>{1, 2}));
  EXPECT_EQ(values(*executor->outputs()[3]), (std::vector<float>{0.5f, 1}));
  // None of the fetched reads is the parameter's buffer.
  for (const Tensor *output : executor->outputs())
    EXPECT_NE(output->rawData(), parameter("w").rawData());
}

TEST_F(PlanBuilderTest, StoppedReadsSeeTheValueBeforeLaterWrites) {
  ASSERT_TRUE(load(R"mlir(
    train.program @p {
      train.param @w : tensor<2xf32> init #train.constant<3.0>
      train.step @step(%v: tensor<2xf32>) -> (tensor<f32>, tensor<2xf32>) {
        %w = train.read @w : tensor<2xf32>
        %stopped = train.stop_gradient %w : tensor<2xf32>
        train.write %v to @w : tensor<2xf32>
        %sum = train.add %stopped, %v : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
        %zero = train.fill 0.0 : tensor<f32>
        train.yield %zero, %sum : tensor<f32>, tensor<2xf32>
      }
    }
  )mlir"));
  ASSERT_TRUE(store->initialize().isOk());
  feed(0, Shape{2}, {1, 2});
  ASSERT_TRUE(executor->run().isOk());
  EXPECT_EQ(values(*executor->outputs()[1]), (std::vector<float>{4, 5}));
}

TEST_F(PlanBuilderTest, ReportsKernelErrorsWithTheOpLocation) {
  ASSERT_TRUE(load(R"mlir(
    train.program @p {
      train.step @step(%x: tensor<?x3xf32>, %y: tensor<?xi64>) -> tensor<f32> {
        %l = train.softmax_cross_entropy %x, %y : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?xf32>
        %m = train.mean %l : (tensor<?xf32>) -> tensor<f32>
        train.yield %m : tensor<f32>
      }
    }
  )mlir"));
  feed(0, Shape{1, 3}, {0, 0, 0});
  Tensor &labels = *executor->inputs()[1];
  labels.resize(Shape{1});
  *labels.data<int64_t>() = 7;
  Status status = executor->run();
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("'train.softmax_cross_entropy'"),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("7"), std::string::npos) << status.message();
}

TEST_F(PlanBuilderTest, PoolsIdListsLongerThanTheBatchAndChecksLengths) {
  // The plan is sized for 2 rows, but 2 lists hold 5 ids between them.
  ASSERT_TRUE(load(R"mlir(
    train.program @p {
      train.param @table : tensor<4x2xf32> init #train.constant<1.0>
      train.step @s(%ids: tensor<?xi64>, %lengths: tensor<?xi64>)
          -> tensor<?x2xf32> {
        %t = train.read @table : tensor<4x2xf32>
        %p = train.embedding_pool sum %t, %ids, %lengths
            : (tensor<4x2xf32>, tensor<?xi64>, tensor<?xi64>) -> tensor<?x2xf32>
        train.yield %p : tensor<?x2xf32>
      }
    }
  )mlir",
                   /*maxBatch=*/2));
  ASSERT_TRUE(store->initialize().isOk());
  auto feedIds = [&](size_t index, std::vector<int64_t> ids) {
    Tensor &input = *executor->inputs()[index];
    input.resize(Shape{static_cast<int64_t>(ids.size())});
    std::copy(ids.begin(), ids.end(), input.data<int64_t>());
  };
  feedIds(0, {0, 1, 2, 3, 3});
  feedIds(1, {3, 2});
  ASSERT_TRUE(executor->run().isOk());
  EXPECT_EQ(values(*executor->outputs()[0]), std::vector<float>({3, 3, 2, 2}));

  feedIds(1, {3, 3});
  Status status = executor->run();
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("'train.embedding_pool'"), std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("the lengths up to sequence 1 cover more "
                                  "than the 5 rows"),
            std::string::npos)
      << status.message();
}

TEST_F(PlanBuilderTest, DropoutDrawsANewMaskEachStepFromItsCounter) {
  const char *source = R"mlir(
    train.program @p {
      train.param @x : tensor<64xf32> init #train.constant<1.0>
      train.param @counter : tensor<i64> init #train.constant<0.0> frozen
      train.step @s() -> tensor<64xf32> {
        %step = train.read @counter : tensor<i64>
        %next = train.increment %step : tensor<i64>
        train.write %next to @counter : tensor<i64>
        %x = train.read @x : tensor<64xf32>
        %y = train.dropout %x step %step prob 0.5 seed 9 upscale_in_train
            : tensor<64xf32>
        train.yield %y : tensor<64xf32>
      }
    }
  )mlir";
  auto runSteps = [&] {
    EXPECT_TRUE(load(source));
    EXPECT_TRUE(store->initialize().isOk());
    std::vector<std::vector<float>> masks;
    for (int step = 0; step < 3; ++step) {
      EXPECT_TRUE(executor->run().isOk());
      masks.push_back(values(*executor->outputs()[0]));
    }
    return masks;
  };
  std::vector<std::vector<float>> first = runSteps();
  EXPECT_NE(first[0], first[1]);
  EXPECT_NE(first[1], first[2]);
  for (float value : first[0])
    EXPECT_TRUE(value == 0 || value == 2) << value;
  // A new run draws the same masks, step for step.
  EXPECT_EQ(runSteps(), first);
}

TEST_F(PlanBuilderTest, RejectsParametersTheStoreDoesNotMatch) {
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostic = d.str();
    return success();
  });
  module = parseSourceString<ModuleOp>(R"mlir(
    train.program @small {
      train.param @w : tensor<2xf32> init #train.constant<0.0>
    }
    train.program @large {
      train.param @w : tensor<3xf32> init #train.constant<0.0>
      train.param @v : tensor<3xf32> init #train.constant<0.0>
      train.step @read_w() -> tensor<3xf32> {
        %w = train.read @w : tensor<3xf32>
        train.yield %w : tensor<3xf32>
      }
      train.step @read_v() -> tensor<3xf32> {
        %v = train.read @v : tensor<3xf32>
        train.yield %v : tensor<3xf32>
      }
    }
  )mlir",
                                       &context);
  ASSERT_TRUE(module);
  auto small = cast<train::ProgramOp>(module->lookupSymbol("small"));
  auto large = cast<train::ProgramOp>(module->lookupSymbol("large"));
  FailureOr<ParameterStore> smallStore =
      buildParameterStore(small, PlanOptions());
  ASSERT_TRUE(succeeded(smallStore));

  auto readW = cast<train::StepOp>(large.lookupSymbol("read_w"));
  EXPECT_TRUE(failed(buildPlan(readW.getBody(), *smallStore, PlanOptions())));
  EXPECT_EQ(diagnostic, "'train.read' op has type 'tensor<3xf32>', but the "
                        "store holds @w as tensor<2xf32>");
  auto readV = cast<train::StepOp>(large.lookupSymbol("read_v"));
  EXPECT_TRUE(failed(buildPlan(readV.getBody(), *smallStore, PlanOptions())));
  EXPECT_EQ(
      diagnostic,
      "'train.read' op refers to @v, which is not in the parameter store");
}

} // namespace
