//===- PlanBuilderTest.cpp - Tests of building plans from IR --------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Builds plans from small train programs and checks what running them
// computes, in particular that parameter reads see the value at the point
// of the read even when the plan hands the parameter's buffer over.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/PlanBuilder.h"
#include "openks/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;

namespace {

class PlanBuilderTest : public ::testing::Test {
protected:
  PlanBuilderTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` and builds the plan of its only step.
  FailureOr<Plan> build(const char *source, int64_t maxBatch = 4) {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return failure();
    train::StepOp step;
    module->walk([&](train::StepOp op) { step = op; });
    PlanOptions options;
    options.maxBatch = maxBatch;
    return buildPlan(step, options);
  }

  /// Sets input `index` to `values` in `shape` (f32).
  static void feed(Plan &plan, size_t index, const Shape &shape,
                   std::initializer_list<float> values) {
    Tensor &input = *plan.inputs()[index];
    input.resize(shape);
    std::copy(values.begin(), values.end(), input.data<float>());
  }

  static std::vector<float> values(const Tensor &tensor) {
    return std::vector<float>(tensor.data<float>(),
                              tensor.data<float>() + tensor.numel());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(PlanBuilderTest, RunsALinearModelAndItsUpdate) {
  FailureOr<Plan> plan = build(R"mlir(
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
  )mlir");
  ASSERT_TRUE(succeeded(plan));
  ASSERT_TRUE(plan->initializeParameters().isOk());
  ASSERT_EQ(plan->inputSpecs().size(), 1u);
  EXPECT_EQ(plan->inputSpecs()[0].shape, (Shape{-1, 2}));
  EXPECT_EQ(plan->outputNames(), std::vector<std::string>{"loss"});

  // Rows (1, 2) and (3, 4): y = 0.5 * (x0 + x1) + 1 = 2.5 and 4.5.
  feed(*plan, 0, Shape{2, 2}, {1, 2, 3, 4});
  ASSERT_TRUE(plan->run().isOk());
  EXPECT_FLOAT_EQ(*plan->outputs()[0]->data<float>(), 3.5f);

  // d loss / dw = mean of the rows = (2, 3); d loss / db = 1.
  std::deque<Parameter> &params = plan->parameters();
  EXPECT_EQ(values(params[0].value),
            (std::vector<float>{0.5f - 0.25f * 2, 0.5f - 0.25f * 3}));
  EXPECT_EQ(values(params[1].value), (std::vector<float>{1.0f - 0.25f}));

  // A smaller batch reuses the buffers: y = 0 * 1 + (-0.25) * 1 + 0.75.
  feed(*plan, 0, Shape{1, 2}, {1, 1});
  ASSERT_TRUE(plan->run().isOk());
  EXPECT_FLOAT_EQ(*plan->outputs()[0]->data<float>(), 0.5f);
}

TEST_F(PlanBuilderTest, ReadsSeeTheValueBeforeLaterWrites) {
  FailureOr<Plan> plan = build(R"mlir(
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
  )mlir");
  ASSERT_TRUE(succeeded(plan));
  ASSERT_TRUE(plan->initializeParameters().isOk());
  feed(*plan, 0, Shape{2}, {1, 2});
  feed(*plan, 1, Shape{}, {0.5f});
  ASSERT_TRUE(plan->run().isOk());
  EXPECT_EQ(values(*plan->outputs()[1]), (std::vector<float>{3, 3}));
  EXPECT_EQ(values(*plan->outputs()[2]), (std::vector<float>{1, 2}));
  EXPECT_EQ(values(*plan->outputs()[3]), (std::vector<float>{0.5f, 1}));
}

TEST_F(PlanBuilderTest, RejectsOpsWithoutKernels) {
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostic = d.str();
    return success();
  });
  FailureOr<Plan> plan = build(R"mlir(
    module attributes {ps.job = #ps.job<mode = async, trainers = 1,
        endpoints = ["127.0.0.1:6170"], slice_var_up = true,
        split_method = round_robin, min_block_size = 8192,
        geo_push_steps = 100>} {
      ps.worker @w main @step startup @startup {
        train.step @startup() {
          train.yield
        }
        train.step @step(%g: tensor<2xf32>) {
          ps.send grad %g to @ps0::@w : tensor<2xf32>
          train.yield
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode async {
        ps.block @w : tensor<2xf32> init #train.constant<0.0>
        ps.update @w on grad (%g: tensor<2xf32>) {
          train.write %g to @w : tensor<2xf32>
        }
      }
    }
  )mlir");
  EXPECT_TRUE(failed(plan));
  EXPECT_EQ(diagnostic, "'ps.send' op cannot run in a single-process step; "
                        "the runtime has no kernel for it");
}

TEST_F(PlanBuilderTest, ReportsKernelErrorsWithTheOpLocation) {
  FailureOr<Plan> plan = build(R"mlir(
    train.program @p {
      train.step @step(%x: tensor<?x3xf32>, %y: tensor<?xi64>) -> tensor<f32> {
        %l = train.softmax_cross_entropy %x, %y : (tensor<?x3xf32>, tensor<?xi64>) -> tensor<?xf32>
        %m = train.mean %l : (tensor<?xf32>) -> tensor<f32>
        train.yield %m : tensor<f32>
      }
    }
  )mlir");
  ASSERT_TRUE(succeeded(plan));
  feed(*plan, 0, Shape{1, 3}, {0, 0, 0});
  Tensor &labels = *plan->inputs()[1];
  labels.resize(Shape{1});
  *labels.data<int64_t>() = 7;
  Status status = plan->run();
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("'train.softmax_cross_entropy'"),
            std::string::npos)
      << status.message();
  EXPECT_NE(status.message().find("7"), std::string::npos) << status.message();
}

} // namespace
