//===- JobPlanTest.cpp - Tests of plans of worker and server programs -----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds the stores and plans of transpiled roles: a worker whose startup
// and main steps share one store, and a server whose update regions share
// one store holding row-slice blocks that initialise as rows of their whole
// parameter. Every unit test that parses a `ps.server` or a `ps.update` is
// in this file.
//
//===----------------------------------------------------------------------===//

#include "Runtime/RuntimeTesting.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/Runtime/Executor.h"
#include "openks/Runtime/Loader/PlanBuilder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"
#include <algorithm>
#include <optional>
#include <thread>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using openks::runtime::testing::createExecutor;

namespace {

class JobPlanTest : public ::testing::Test {
protected:
  JobPlanTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses `source` into `module`.
  bool parse(const char *source) {
    module = parseSourceString<ModuleOp>(source, &context);
    return static_cast<bool>(module);
  }

  /// Builds the plan of `body` against `store`, failing the test if it
  /// cannot.
  static Plan planOf(Region &body, const ParameterStore &store) {
    FailureOr<Plan> plan = buildPlan(body, store, PlanOptions());
    EXPECT_TRUE(succeeded(plan));
    return std::move(*plan);
  }

  /// Returns the parameter `name` of `store`.
  static Parameter &parameter(ParameterStore &store, const std::string &name) {
    std::optional<ParameterId> id = store.lookup(name);
    EXPECT_TRUE(id) << name;
    return store[*id];
  }

  static std::vector<float> values(const Tensor &tensor) {
    return std::vector<float>(tensor.data<float>(),
                              tensor.data<float>() + tensor.numel());
  }

  /// Sets `tensor` to `values` in `shape` (f32).
  static void feed(Tensor &tensor, const Shape &shape,
                   std::vector<float> values) {
    tensor.resize(shape);
    std::copy(values.begin(), values.end(), tensor.data<float>());
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(JobPlanTest, WorkerStepsShareOneStore) {
  ASSERT_TRUE(parse(R"mlir(
    module attributes {ps.job = #ps.job<mode = sync, trainers = 1,
        endpoints = ["127.0.0.1:6170"], slice_var_up = true,
        split_method = round_robin, min_block_size = 8192,
        geo_push_steps = 100>} {
      ps.worker @trainer main @step startup @startup {
        train.param @w : tensor<2xf32> init #train.constant<0.0>
        train.param @lr : tensor<f32> init #train.constant<0.5> frozen
        train.step @startup() {
          %w = train.fill 3.0 : tensor<2xf32>
          train.write %w to @w : tensor<2xf32>
          train.yield
        }
        train.step @step(%g: tensor<2xf32>) -> tensor<f32> {
          %w = train.read @w : tensor<2xf32>
          %loss = train.mean %w : (tensor<2xf32>) -> tensor<f32>
          %lr = train.read @lr : tensor<f32>
          train.sgd @w, %g, %lr : tensor<2xf32>, tensor<f32>
          train.yield %loss : tensor<f32>
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
        ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
      }
    }
  )mlir"));
  auto worker = cast<ps::WorkerOp>(module->lookupSymbol("trainer"));
  FailureOr<ParameterStore> store = buildParameterStore(worker, PlanOptions());
  ASSERT_TRUE(succeeded(store));
  ASSERT_EQ(store->size(), 2u);
  auto startupStep = cast<train::StepOp>(worker.lookupSymbol("startup"));
  auto mainStep = cast<train::StepOp>(worker.lookupSymbol("step"));
  Plan startupPlan = planOf(startupStep.getBody(), *store);
  Plan mainPlan = planOf(mainStep.getBody(), *store);
  EXPECT_TRUE(startupPlan.inputSlots().empty());
  EXPECT_TRUE(startupPlan.outputSlots().empty());
  EXPECT_EQ(mainPlan.outputNames(), std::vector<std::string>{"loss"});

  ASSERT_TRUE(store->initialize().isOk());
  Executor startup = createExecutor(startupPlan, *store);
  Executor step = createExecutor(mainPlan, *store);
  ASSERT_TRUE(startup.run().isOk());
  EXPECT_EQ(values(parameter(*store, "w").value), (std::vector<float>{3, 3}));
  feed(*step.inputs()[0], Shape{2}, {1, 2});
  ASSERT_TRUE(step.run().isOk());
  EXPECT_FLOAT_EQ(*step.outputs()[0]->data<float>(), 3.0f);
  EXPECT_EQ(values(parameter(*store, "w").value),
            (std::vector<float>{2.5f, 2}));
  ASSERT_TRUE(step.run().isOk());
  EXPECT_FLOAT_EQ(*step.outputs()[0]->data<float>(), 2.25f);
}

TEST_F(JobPlanTest, ServerUpdatesShareOneStoreWithSliceConsistentBlocks) {
  ASSERT_TRUE(parse(R"mlir(
    ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode async {
      ps.block @w.block0 : tensor<2x3xf32> of @w : tensor<5x3xf32> rows [0, 2)
          init #train.xavier<seed = 3>
      ps.block @w.block1 : tensor<3x3xf32> of @w : tensor<5x3xf32> rows [2, 5)
          init #train.xavier<seed = 3>
      ps.block @b : tensor<3xf32> init #train.gaussian<mean = 0.0, std = 1.0, seed = 4>
      ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
      ps.update @w.block0 on grad (%g: tensor<2x3xf32>) {
        %lr = train.read @lr : tensor<f32>
        train.sgd @w.block0, %g, %lr : tensor<2x3xf32>, tensor<f32>
      }
      ps.update @w.block1 on grad (%g: tensor<3x3xf32>) {
        %lr = train.read @lr : tensor<f32>
        train.sgd @w.block1, %g, %lr : tensor<3x3xf32>, tensor<f32>
      }
      ps.update @b on grad (%g: tensor<3xf32>) {
        %lr = train.read @lr : tensor<f32>
        %half = train.scale %g by 0.5 : tensor<3xf32>
        train.sgd @b, %half, %lr : tensor<3xf32>, tensor<f32>
      }
    }
  )mlir"));
  auto server = cast<ps::ServerOp>(module->lookupSymbol("ps0"));
  FailureOr<ParameterStore> store = buildParameterStore(server, PlanOptions());
  ASSERT_TRUE(succeeded(store));
  ASSERT_EQ(store->size(), 4u);
  EXPECT_EQ(parameter(*store, "w.block1").rowBegin, 2);
  EXPECT_EQ(parameter(*store, "w.block1").wholeShape, (Shape{5, 3}));
  EXPECT_FALSE(parameter(*store, "lr").trainable);
  ASSERT_TRUE(store->initialize().isOk());

  // The blocks are the rows of the whole parameter's initialisation.
  InitializerSpec xavier;
  xavier.kind = InitializerSpec::Kind::Xavier;
  xavier.seed = 3;
  Tensor whole(DType::F32, Shape{5, 3});
  ASSERT_TRUE(initialize(xavier, Shape{5, 3}, 0, whole).isOk());
  std::vector<float> rows = values(parameter(*store, "w.block0").value);
  std::vector<float> rest = values(parameter(*store, "w.block1").value);
  rows.insert(rows.end(), rest.begin(), rest.end());
  EXPECT_EQ(rows, values(whole));

  // One plan per update region, each fed the received value.
  std::vector<Plan> plans;
  for (auto update : server.getBody().getOps<ps::UpdateOp>())
    plans.push_back(planOf(update.getBody(), *store));
  ASSERT_EQ(plans.size(), 3u);
  ParameterId lr = *store->lookup("lr");
  for (const Plan &plan : plans) {
    EXPECT_EQ(plan.inputSlots().size(), 1u);
    EXPECT_TRUE(plan.outputSlots().empty());
    // Each writes its block and reads the shared learning rate.
    ASSERT_EQ(plan.accesses().size(), 2u);
    for (const Plan::ParameterAccess &access : plan.accesses())
      EXPECT_EQ(access.write, access.parameter != lr);
  }
  EXPECT_EQ(plans[1].inputSpecs()[0].shape, (Shape{3, 3}));

  // The updates run concurrently, as on an asynchronous server.
  std::vector<float> wBefore = values(whole);
  std::vector<float> bBefore = values(parameter(*store, "b").value);
  constexpr int kRuns = 50;
  std::vector<std::thread> threads;
  for (const Plan &plan : plans)
    threads.emplace_back([&] {
      Executor executor = createExecutor(plan, *store);
      const FeedSpec &spec = plan.inputSpecs()[0];
      feed(*executor.inputs()[0], spec.shape,
           std::vector<float>(spec.shape.numel(), 1.0f));
      for (int i = 0; i < kRuns; ++i)
        EXPECT_TRUE(executor.run().isOk());
    });
  for (std::thread &thread : threads)
    thread.join();

  std::vector<float> w = values(parameter(*store, "w.block0").value);
  std::vector<float> w1 = values(parameter(*store, "w.block1").value);
  w.insert(w.end(), w1.begin(), w1.end());
  std::vector<float> b = values(parameter(*store, "b").value);
  for (size_t i = 0; i < w.size(); ++i)
    EXPECT_NEAR(w[i], wBefore[i] - kRuns * 0.5f, 1e-4) << i;
  for (size_t i = 0; i < b.size(); ++i)
    EXPECT_NEAR(b[i], bBefore[i] - kRuns * 0.25f, 1e-4) << i;
  EXPECT_EQ(values(parameter(*store, "lr").value), std::vector<float>{0.5f});
}

/// A sync job whose worker pulls @w as two row blocks and @s whole, after
/// reading @w for its loss, which it computes before the receives or, if
/// `lossAfterReceives`, after them.
std::string receivingJob(bool lossAfterReceives) {
  const char *loss =
      "%loss = train.mean %w : (tensor<4x2xf32>) -> tensor<f32>\n";
  return std::string(R"mlir(
    module attributes {ps.job = #ps.job<mode = sync, trainers = 1,
        endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"],
        slice_var_up = true, split_method = round_robin,
        min_block_size = 2, geo_push_steps = 100>} {
      ps.worker @trainer main @step startup @startup {
        train.param @w : tensor<4x2xf32> init #train.constant<0.0>
        train.param @s : tensor<f32> init #train.constant<0.0>
        train.step @startup() {
          train.yield
        }
        train.step @step() -> tensor<f32> {
          %w = train.read @w : tensor<4x2xf32>
          )mlir") +
         (lossAfterReceives ? "" : loss) + R"mlir(
          %top = ps.recv @ps1::@w.block0 : tensor<2x2xf32>
          %bottom = ps.recv @ps0::@w.block1 : tensor<2x2xf32>
          %s = ps.recv @ps0::@s : tensor<f32>
          ps.fetch_barrier [@ps0, @ps1]
          )mlir" +
         (lossAfterReceives ? loss : "") + R"mlir(
          train.write %s to @s : tensor<f32>
          %whole = ps.concat %top, %bottom
              : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
          train.write %whole to @w : tensor<4x2xf32>
          train.yield %loss : tensor<f32>
        }
      }
      ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
        ps.block @w.block1 : tensor<2x2xf32> of @w : tensor<4x2xf32>
            rows [2, 4) init #train.constant<0.0> frozen
        ps.block @s : tensor<f32> init #train.constant<0.0> frozen
      }
      ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
        ps.block @w.block0 : tensor<2x2xf32> of @w : tensor<4x2xf32>
            rows [0, 2) init #train.constant<0.0> frozen
      }
    }
  )mlir";
}

/// Returns the names of the ops of the instructions of `plan`.
std::vector<std::string> instructionOps(const Plan &plan) {
  std::vector<std::string> ops;
  for (const Plan::Instruction &instruction : plan.instructions())
    ops.push_back(instruction.where.substr(instruction.where.find('\'')));
  return ops;
}

/// The store and main plan of the worker of receivingJob.
struct ReceivingStep {
  ParameterStore store;
  Plan plan;
};

class ReceivingJobTest : public JobPlanTest {
protected:
  /// Loads the worker's main step of receivingJob(`lossAfterReceives`).
  std::optional<ReceivingStep> load(bool lossAfterReceives) {
    if (!parse(receivingJob(lossAfterReceives).c_str()))
      return std::nullopt;
    auto worker = cast<ps::WorkerOp>(module->lookupSymbol("trainer"));
    FailureOr<ParameterStore> store =
        buildParameterStore(worker, PlanOptions());
    if (failed(store))
      return std::nullopt;
    auto step = cast<train::StepOp>(worker.lookupSymbol("step"));
    Plan plan = planOf(step.getBody(), *store);
    return ReceivingStep{std::move(*store), std::move(plan)};
  }
};

TEST_F(ReceivingJobTest, ReceivedBlocksLandInTheirParameter) {
  std::optional<ReceivingStep> loaded = load(/*lossAfterReceives=*/false);
  ASSERT_TRUE(loaded);
  const ParameterStore *store = &loaded->store;
  const Plan &plan = loaded->plan;

  // Neither a concat nor a write is left: the receive writes both.
  EXPECT_EQ(instructionOps(plan),
            (std::vector<std::string>{"'train.mean'", "'ps.recv'",
                                      "'ps.fetch_barrier'"}));
  ParameterId w = *store->lookup("w"), s = *store->lookup("s");
  std::vector<ParameterId> writes = plan.instructions()[1].writes;
  std::sort(writes.begin(), writes.end());
  writes.erase(std::unique(writes.begin(), writes.end()), writes.end());
  EXPECT_EQ(writes, (std::vector<ParameterId>{w, s}));
  // The blocks are views of @w's rows [0, 2) and [2, 4); @s is @s.
  std::vector<std::pair<int64_t, int64_t>> rows;
  for (const Plan::Slot &slot : plan.slots())
    if (slot.parameter == w && slot.rows)
      rows.emplace_back(slot.rows->first, slot.rows->count);
  EXPECT_EQ(rows, (std::vector<std::pair<int64_t, int64_t>>{{0, 2}, {2, 2}}));
  ASSERT_EQ(plan.accesses().size(), 2u);
  for (const Plan::ParameterAccess &access : plan.accesses())
    EXPECT_TRUE(access.write) << access.parameter;
}

TEST_F(ReceivingJobTest, ReceivedBlocksWaitForTheParametersLastRead) {
  std::optional<ReceivingStep> loaded = load(/*lossAfterReceives=*/true);
  ASSERT_TRUE(loaded);
  const ParameterStore *store = &loaded->store;
  const Plan &plan = loaded->plan;

  // The mean reads @w after the receives, so @w's blocks keep their concat
  // and write; @s, which nothing reads, still lands in place.
  EXPECT_EQ(instructionOps(plan),
            (std::vector<std::string>{"'ps.recv'", "'ps.fetch_barrier'",
                                      "'train.mean'", "'ps.concat'",
                                      "'train.write'"}));
  ParameterId s = *store->lookup("s");
  EXPECT_EQ(plan.instructions()[0].writes, std::vector<ParameterId>{s});
}

/// A sync job whose worker sends @w's gradient (its value, as it happens)
/// and receives @w whole, @v as two row blocks, and @u whole after reading
/// it between the send barrier and the receives.
const char *const kBlockReceivesJob = R"mlir(
  module attributes {ps.job = #ps.job<mode = sync, trainers = 1,
      endpoints = ["127.0.0.1:6170", "127.0.0.1:6171"],
      slice_var_up = true, split_method = round_robin,
      min_block_size = 2, geo_push_steps = 100>} {
    ps.worker @trainer main @step startup @startup {
      train.param @w : tensor<2x2xf32> init #train.constant<0.0>
      train.param @v : tensor<4x2xf32> init #train.constant<0.0>
      train.param @u : tensor<3xf32> init #train.constant<0.0>
      train.step @startup() {
        %w = ps.recv @ps0::@w : tensor<2x2xf32>
        %top = ps.recv @ps0::@v.block0 : tensor<2x2xf32>
        %bottom = ps.recv @ps1::@v.block1 : tensor<2x2xf32>
        %u = ps.recv @ps1::@u : tensor<3xf32>
        ps.fetch_barrier [@ps0, @ps1]
        train.write %w to @w : tensor<2x2xf32>
        %v = ps.concat %top, %bottom
            : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
        train.write %v to @v : tensor<4x2xf32>
        train.write %u to @u : tensor<3xf32>
        train.yield
      }
      train.step @step() -> tensor<f32> {
        %w0 = train.read @w : tensor<2x2xf32>
        %loss = train.mean %w0 : (tensor<2x2xf32>) -> tensor<f32>
        ps.send grad %w0 to @ps0::@w : tensor<2x2xf32>
        ps.send_barrier [@ps0]
        %u0 = train.read @u : tensor<3xf32>
        %late = train.mean %u0 : (tensor<3xf32>) -> tensor<f32>
        %w = ps.recv @ps0::@w : tensor<2x2xf32>
        %top = ps.recv @ps0::@v.block0 : tensor<2x2xf32>
        %bottom = ps.recv @ps1::@v.block1 : tensor<2x2xf32>
        %u = ps.recv @ps1::@u : tensor<3xf32>
        ps.fetch_barrier [@ps0, @ps1]
        train.write %w to @w : tensor<2x2xf32>
        %v = ps.concat %top, %bottom
            : tensor<2x2xf32>, tensor<2x2xf32> -> tensor<4x2xf32>
        train.write %v to @v : tensor<4x2xf32>
        train.write %u to @u : tensor<3xf32>
        %sum = train.add %loss, %late
            : (tensor<f32>, tensor<f32>) -> tensor<f32>
        train.yield %sum : tensor<f32>
      }
    }
    ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 1 mode sync {
      ps.block @w : tensor<2x2xf32> init #train.constant<0.0>
      ps.block @v.block0 : tensor<2x2xf32> of @v : tensor<4x2xf32>
          rows [0, 2) init #train.constant<0.0> frozen
      ps.block @lr : tensor<f32> init #train.constant<0.5> frozen
      ps.update @w on grad (%g: tensor<2x2xf32>) {
        %lr = train.read @lr : tensor<f32>
        train.sgd @w, %g, %lr : tensor<2x2xf32>, tensor<f32>
      }
    }
    ps.server @ps1 endpoint "127.0.0.1:6171" fan_in 1 mode sync {
      ps.block @v.block1 : tensor<2x2xf32> of @v : tensor<4x2xf32>
          rows [2, 4) init #train.constant<0.0> frozen
      ps.block @u : tensor<3xf32> init #train.constant<0.0> frozen
    }
  }
)mlir";

/// Returns the parameters and blocks of `plan`'s block receives as
/// (parameter, server, block).
std::vector<std::tuple<ParameterId, int, int>> blockReceives(const Plan &plan) {
  std::vector<std::tuple<ParameterId, int, int>> receives;
  for (const Plan::BlockReceive &receive : plan.blockReceives())
    receives.emplace_back(receive.parameter, receive.from.server,
                          receive.from.block);
  return receives;
}

TEST_F(JobPlanTest, BlockReceivesAreWholeAndUntouchedSinceTheSendBarrier) {
  ASSERT_TRUE(parse(kBlockReceivesJob));
  auto worker = cast<ps::WorkerOp>(module->lookupSymbol("trainer"));
  FailureOr<ParameterStore> store = buildParameterStore(worker, PlanOptions());
  ASSERT_TRUE(succeeded(store));
  ParameterId w = *store->lookup("w"), u = *store->lookup("u");
  Plan startup = planOf(
      cast<train::StepOp>(worker.lookupSymbol("startup")).getBody(), *store);
  Plan step = planOf(cast<train::StepOp>(worker.lookupSymbol("step")).getBody(),
                     *store);

  // Every block lands in place in both plans: one receive call writes all.
  for (const Plan *plan : {&startup, &step}) {
    std::vector<std::string> ops = instructionOps(*plan);
    EXPECT_EQ(std::count(ops.begin(), ops.end(), "'ps.recv'"), 1);
    EXPECT_EQ(std::count(ops.begin(), ops.end(), "'train.write'"), 0);
  }
  // Startup: @w and @u are whole blocks nothing else touches; @v's rows
  // come from two blocks.
  EXPECT_EQ(
      blockReceives(startup),
      (std::vector<std::tuple<ParameterId, int, int>>{{w, 0, 0}, {u, 1, 1}}));
  // The step reads @u after its send barrier, while the servers update:
  // only @w may be its server's storage.
  EXPECT_EQ(blockReceives(step),
            (std::vector<std::tuple<ParameterId, int, int>>{{w, 0, 0}}));
  size_t receive = step.blockReceives().front().instruction;
  EXPECT_EQ(instructionOps(step)[receive], "'ps.recv'");
}

TEST_F(JobPlanTest, CommunicationNeedsATransport) {
  std::string diagnostic;
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &d) {
    diagnostic = d.str();
    return success();
  });
  ASSERT_TRUE(parse(R"mlir(
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
  )mlir"));
  auto worker = cast<ps::WorkerOp>(module->lookupSymbol("w"));
  FailureOr<ParameterStore> store = buildParameterStore(worker, PlanOptions());
  ASSERT_TRUE(succeeded(store));
  auto step = cast<train::StepOp>(worker.lookupSymbol("step"));
  FailureOr<Plan> plan = buildPlan(step.getBody(), *store, PlanOptions());
  ASSERT_TRUE(succeeded(plan)) << diagnostic;
  // Run outside a worker (no communication context), the send refuses.
  Executor executor = createExecutor(*plan, *store);
  feed(*executor.inputs()[0], Shape{2}, {1, 2});
  Status status = executor.run();
  EXPECT_EQ(status.code(), StatusCode::FailedPrecondition);
  EXPECT_NE(status.message().find("'ps.send': a communication op runs "
                                  "outside a worker"),
            std::string::npos)
      << status.message();
}

} // namespace
