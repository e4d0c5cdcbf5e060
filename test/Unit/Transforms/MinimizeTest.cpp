//===- MinimizeTest.cpp - minimize checked through the executor -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs programs minimized by openks-minimize and checks what they compute:
// the generated backward pass of every differentiable op against central
// finite differences of the forward program (in f64), sparse tables' row
// gradients included; each parameter's own update settings against Paddle's
// formulas written out; sparse tables against dense ones under every
// optimizer; and the minimized MLP example against the hand-written one,
// parameter for parameter.
//
//===----------------------------------------------------------------------===//

#include "Runtime/RuntimeTesting.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Executor.h"
#include "openks/Runtime/Loader/PlanBuilder.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "gtest/gtest.h"
#include <cmath>
#include <map>
#include <fmt/format.h>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using openks::runtime::testing::createExecutor;

namespace {

/// The parameters, the plan and an executor of a program's only step.
struct LoadedStep {
  LoadedStep(ParameterStore builtStore, Plan builtPlan)
      : store(std::move(builtStore)), plan(std::move(builtPlan)),
        executor(createExecutor(plan, store)) {}

  ParameterStore store;
  Plan plan;
  Executor executor;
};

class MinimizeTest : public ::testing::Test {
protected:
  MinimizeTest() {
    registerAllPasses();
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(const std::string &source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  OwningOpRef<ModuleOp> parseFile(const std::string &path) {
    return parseSourceFile<ModuleOp>(path, &context);
  }

  /// Runs openks-minimize with `options` on `module`.
  static void minimize(ModuleOp module, const std::string &options) {
    auto pm = PassManager::on<ModuleOp>(module.getContext());
    ASSERT_TRUE(
        succeeded(parsePassPipeline("openks-minimize{" + options + "}", pm)));
    ASSERT_TRUE(succeeded(pm.run(module)));
  }

  /// Loads the module's only step, with the parameters of its program.
  static std::unique_ptr<LoadedStep> load(ModuleOp module, int64_t maxBatch) {
    train::StepOp step;
    module.walk([&](train::StepOp op) { step = op; });
    PlanOptions options;
    options.maxBatch = maxBatch;
    FailureOr<ParameterStore> store =
        buildParameterStore(step->getParentOp(), options);
    EXPECT_TRUE(succeeded(store));
    FailureOr<Plan> plan = buildPlan(step.getBody(), *store, options);
    EXPECT_TRUE(succeeded(plan));
    return std::make_unique<LoadedStep>(std::move(*store), std::move(*plan));
  }

  MLIRContext context;
};

/// The forward program of one gradient check: `body` computes `%out` from
/// the step's `inputs` and the parameters in `params`; the loss is
/// mean(out * r), r a fixed random weight, so that no gradient vanishes by
/// symmetry (as mean(softmax(x)) would).
struct GradientCase {
  const char *name;
  std::string params;
  std::string inputs;
  std::string body;
  std::string outType;
  /// Fills the step inputs.
  std::function<void(Executor &)> feed;
};

std::string programOf(const GradientCase &c) {
  return fmt::format(R"mlir(
    train.program @check {{
      {0}
      train.param @r : {3} init #train.uniform<min = -1.0, max = 1.0, seed = 99> frozen
      train.step @step({1}) -> tensor<f64> {{
        {2}
        %r = train.read @r : {3}
        %weighted = train.mul %out, %r : ({3}, {3}) -> {3}
        %loss = train.mean %weighted : ({3}) -> tensor<f64>
        train.yield %loss : tensor<f64>
      }}
    }}
  )mlir",
                     c.params, c.inputs, c.body, c.outType);
}

/// Sets i64 input `index` to `values` with shape `shape`.
void feedIds(Executor &executor, size_t index, const Shape &shape,
             std::vector<int64_t> values) {
  Tensor &input = *executor.inputs()[index];
  input.resize(shape);
  std::copy(values.begin(), values.end(), input.data<int64_t>());
}

/// Sets f64 input `index` to `values` with shape `shape`.
void feedFloats(Executor &executor, size_t index, const Shape &shape,
                std::vector<double> values) {
  Tensor &input = *executor.inputs()[index];
  input.resize(shape);
  std::copy(values.begin(), values.end(), input.data<double>());
}

double lossOf(Executor &executor) {
  Status status = executor.run();
  EXPECT_TRUE(status.isOk()) << status.message();
  return *executor.outputs().front()->data<double>();
}

/// The case of the unary op `op` on the [3, 4] f64 parameter `name` that
/// `param` declares.
GradientCase unaryCase(const char *op, const std::string &param,
                       const char *name) {
  return GradientCase{op,
                      param,
                      "",
                      fmt::format("%{0} = train.read @{0} : tensor<3x4xf64>\n"
                                  "%out = train.{1} %{0} : tensor<3x4xf64>",
                                  name, op),
                      "tensor<3x4xf64>",
                      [](Executor &) {}};
}

std::vector<GradientCase> gradientCases() {
  auto noFeed = [](Executor &) {};
  const std::string a = "train.param @a : tensor<3x4xf64> init "
                        "#train.uniform<min = -1.0, max = 1.0, seed = 1>";
  const std::string b = "train.param @b : tensor<4x2xf64> init "
                        "#train.uniform<min = -1.0, max = 1.0, seed = 2>";
  const std::string bias = "train.param @bias : tensor<4xf64> init "
                           "#train.uniform<min = -1.0, max = 1.0, seed = 3>";
  const std::string readA = "%a = train.read @a : tensor<3x4xf64>\n";
  auto unary = [&](const char *op) { return unaryCase(op, a, "a"); };
  return {
      {"matmul", a + "\n" + b, "",
       readA + "%b = train.read @b : tensor<4x2xf64>\n"
               "%out = train.matmul %a, %b : (tensor<3x4xf64>, "
               "tensor<4x2xf64>) -> tensor<3x2xf64>",
       "tensor<3x2xf64>", noFeed},
      {"add", a + "\n" + bias, "",
       readA + "%bias = train.read @bias : tensor<4xf64>\n"
               "%out = train.add %a, %bias : (tensor<3x4xf64>, "
               "tensor<4xf64>) -> tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      {"mul", a + "\n" + bias, "",
       readA + "%bias = train.read @bias : tensor<4xf64>\n"
               "%out = train.mul %a, %bias : (tensor<3x4xf64>, "
               "tensor<4xf64>) -> tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      {"mul_same_shape", a, "",
       readA + "%out = train.mul %a, %a : (tensor<3x4xf64>, "
               "tensor<3x4xf64>) -> tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      unary("relu"),
      unary("sigmoid"),
      unary("tanh"),
      unary("softmax"),
      {"scale", a, "",
       readA + "%out = train.scale %a by -2.5 : tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      {"softmax_cross_entropy", a, "%labels: tensor<3xi64>",
       readA + "%out = train.softmax_cross_entropy %a, %labels : "
               "(tensor<3x4xf64>, tensor<3xi64>) -> tensor<3xf64>",
       "tensor<3xf64>",
       [](Executor &executor) {
         feedIds(executor, 0, Shape{3}, {2, 0, 3});
       }},
      {"sigmoid_cross_entropy", a, "%z: tensor<3x4xf64>",
       readA + "%out = train.sigmoid_cross_entropy %a, %z : "
               "(tensor<3x4xf64>, tensor<3x4xf64>) -> tensor<3x4xf64>",
       "tensor<3x4xf64>",
       [](Executor &executor) {
         feedFloats(executor, 0, Shape{3, 4},
                    {1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 0, 1});
       }},
      {"mean", a, "",
       readA + "%m = train.mean %a : (tensor<3x4xf64>) -> tensor<f64>\n"
               "%out = train.scale %m by 3.0 : tensor<f64>",
       "tensor<f64>", noFeed},
      {"reduce_sum", a, "",
       readA + "%out = train.reduce_sum %a dims [1] : (tensor<3x4xf64>) -> "
               "tensor<3xf64>",
       "tensor<3xf64>", noFeed},
      {"reduce_sum_keep_dims", a, "",
       readA + "%out = train.reduce_sum %a dims [0] keep_dims : "
               "(tensor<3x4xf64>) -> tensor<1x4xf64>",
       "tensor<1x4xf64>", noFeed},
      {"reshape", a, "",
       readA + "%out = train.reshape %a : (tensor<3x4xf64>) -> "
               "tensor<2x6xf64>",
       "tensor<2x6xf64>", noFeed},
      {"concat", a + "\n" + b, "",
       readA + "%b = train.read @b : tensor<4x2xf64>\n"
               "%bt = train.reshape %b : (tensor<4x2xf64>) -> tensor<2x4xf64>\n"
               "%out = train.concat %a, %bt, %a axis 0 : (tensor<3x4xf64>, "
               "tensor<2x4xf64>, tensor<3x4xf64>) -> tensor<8x4xf64>",
       "tensor<8x4xf64>", noFeed},
      {"embedding",
       "train.param @table : tensor<5x3xf64> init #train.uniform<min = -1.0, "
       "max = 1.0, seed = 4>",
       "%ids: tensor<2x3xi64>",
       "%t = train.read @table : tensor<5x3xf64>\n"
       "%out = train.embedding %t, %ids {padding_idx = 1 : i64} : "
       "(tensor<5x3xf64>, tensor<2x3xi64>) -> tensor<2x3x3xf64>",
       "tensor<2x3x3xf64>",
       [](Executor &executor) {
         feedIds(executor, 0, Shape{2, 3}, {0, 4, 0, 1, 2, 4});
       }},
  };
}

/// The cases of the ops of knowledge-graph, click and word2vec models.
std::vector<GradientCase> modelOpCases() {
  auto noFeed = [](Executor &) {};
  const std::string a = "train.param @a : tensor<3x4xf64> init "
                        "#train.uniform<min = -1.0, max = 1.0, seed = 1>";
  // Positive values, inside the domains of log, sqrt and division.
  const std::string pos = "train.param @pos : tensor<3x4xf64> init "
                          "#train.uniform<min = 0.5, max = 2.0, seed = 5>";
  const std::string posBias = "train.param @pbias : tensor<4xf64> init "
                              "#train.uniform<min = 0.5, max = 2.0, seed = 6>";
  const std::string counter =
      "train.param @counter : tensor<i64> init #train.constant<4.0> frozen";
  const std::string readA = "%a = train.read @a : tensor<3x4xf64>\n";
  const std::string readPos = "%pos = train.read @pos : tensor<3x4xf64>\n";
  const std::string readStep = "%step = train.read @counter : tensor<i64>\n";
  const std::string table = "train.param @table : tensor<5x3xf64> init "
                            "#train.uniform<min = -1.0, max = 1.0, seed = 4>";
  const std::string readTable = "%t = train.read @table : tensor<5x3xf64>\n";
  auto unary = [&](const char *op, bool positive) {
    return positive ? unaryCase(op, pos, "pos") : unaryCase(op, a, "a");
  };
  auto feedLists = [](Executor &executor) {
    feedIds(executor, 0, Shape{6}, {0, 4, 1, 2, 4, 3});
    feedIds(executor, 1, Shape{3}, {2, 0, 4});
  };
  auto sequencePool = [&](const char *type) {
    return GradientCase{
        type,
        a,
        "%lengths: tensor<2xi64>",
        readA + fmt::format("%out = train.sequence_pool {} %a, %lengths : "
                            "(tensor<3x4xf64>, tensor<2xi64>) -> "
                            "tensor<2x4xf64>",
                            type),
        "tensor<2x4xf64>",
        [](Executor &executor) {
          feedIds(executor, 0, Shape{2}, {2, 1});
        }};
  };
  auto dropout = [&](const char *name, const char *options) {
    return GradientCase{
        name,
        a + "\n" + counter,
        "",
        readA + readStep +
            fmt::format("%out = train.dropout %a {} : tensor<3x4xf64>",
                        options),
        "tensor<3x4xf64>",
        noFeed};
  };
  return {
      {"sub", a + "\n" + posBias, "",
       readA + "%b = train.read @pbias : tensor<4xf64>\n"
               "%out = train.sub %a, %b : (tensor<3x4xf64>, tensor<4xf64>) "
               "-> tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      {"div", a + "\n" + posBias, "",
       readA + "%b = train.read @pbias : tensor<4xf64>\n"
               "%out = train.div %a, %b : (tensor<3x4xf64>, tensor<4xf64>) "
               "-> tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      {"div_same_shape", a + "\n" + pos, "",
       readA + readPos +
           "%out = train.div %a, %pos : (tensor<3x4xf64>, tensor<3x4xf64>) "
           "-> tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      unary("abs", false),
      unary("square", false),
      unary("sqrt", true),
      unary("exp", false),
      unary("log", true),
      unary("softsign", false),
      {"p_norm_l1", a, "",
       readA + "%out = train.p_norm %a p 1 axis 1 : (tensor<3x4xf64>) -> "
               "tensor<3xf64>",
       "tensor<3xf64>", noFeed},
      {"p_norm_l2_keep_dims", a, "",
       readA + "%out = train.p_norm %a p 2 axis 0 keep_dims : "
               "(tensor<3x4xf64>) -> tensor<1x4xf64>",
       "tensor<1x4xf64>", noFeed},
      {"cos_sim", a + "\n" + pos, "",
       readA + readPos +
           "%out = train.cos_sim %a, %pos : (tensor<3x4xf64>, "
           "tensor<3x4xf64>) -> tensor<3x1xf64>",
       "tensor<3x1xf64>", noFeed},
      {"cos_sim_broadcast", a + "\n" + posBias, "",
       readA + "%b = train.read @pbias : tensor<4xf64>\n"
               "%row = train.reshape %b : (tensor<4xf64>) -> tensor<1x4xf64>\n"
               "%out = train.cos_sim %a, %row : (tensor<3x4xf64>, "
               "tensor<1x4xf64>) -> tensor<3x1xf64>",
       "tensor<3x1xf64>", noFeed},
      {"square_error", a + "\n" + pos, "",
       readA + readPos + "%out = train.square_error %a, %pos : tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      {"margin_loss", a + "\n" + pos, "",
       readA + readPos +
           "%out = train.margin_loss %a, %pos margin 1.0 : tensor<3x4xf64>",
       "tensor<3x4xf64>", noFeed},
      sequencePool("sum"),
      sequencePool("mean"),
      sequencePool("sqrt"),
      {"embedding_then_sequence_pool", table,
       "%ids: tensor<6xi64>, %lengths: tensor<3xi64>",
       readTable +
           "%e = train.embedding %t, %ids : (tensor<5x3xf64>, tensor<6xi64>) "
           "-> tensor<6x3xf64>\n"
           "%out = train.sequence_pool mean %e, %lengths : (tensor<6x3xf64>, "
           "tensor<3xi64>) -> tensor<3x3xf64>",
       "tensor<3x3xf64>", feedLists},
      {"embedding_pool", table, "%ids: tensor<6xi64>, %lengths: tensor<3xi64>",
       readTable + "%out = train.embedding_pool sqrt %t, %ids, %lengths "
                   "{padding_idx = 4 : i64} : (tensor<5x3xf64>, "
                   "tensor<6xi64>, tensor<3xi64>) -> tensor<3x3xf64>",
       "tensor<3x3xf64>", feedLists},
      // A sparse table read by a pooled lookup and a plain one: their
      // row-sparse gradients merged, row 3 untouched.
      {"sparse_table", table + " sparse",
       "%ids: tensor<6xi64>, %lengths: tensor<3xi64>, %rows: tensor<3xi64>",
       readTable +
           "%p = train.embedding_pool mean %t, %ids, %lengths "
           "{padding_idx = 2 : i64} : (tensor<5x3xf64>, tensor<6xi64>, "
           "tensor<3xi64>) -> tensor<3x3xf64>\n"
           "%e = train.embedding %t, %rows : (tensor<5x3xf64>, "
           "tensor<3xi64>) -> tensor<3x3xf64>\n"
           "%out = train.add %p, %e : (tensor<3x3xf64>, tensor<3x3xf64>) "
           "-> tensor<3x3xf64>",
       "tensor<3x3xf64>",
       [](Executor &executor) {
         feedIds(executor, 0, Shape{6}, {0, 4, 1, 2, 4, 0});
         feedIds(executor, 1, Shape{3}, {2, 0, 4});
         feedIds(executor, 2, Shape{3}, {4, 4, 2});
       }},
      dropout("dropout", "step %step prob 0.5 seed 3"),
      dropout("dropout_upscale", "step %step prob 0.5 seed 3 upscale_in_train"),
      dropout("dropout_is_test", "prob 0.25 is_test"),
      {"nce",
       a + "\n" + counter +
           "\ntrain.param @w : tensor<10x4xf64> init #train.uniform<min = "
           "-1.0, max = 1.0, seed = 7>\ntrain.param @b : tensor<10xf64> "
           "init #train.uniform<min = -1.0, max = 1.0, seed = 8>",
       "%labels: tensor<3xi64>",
       readA + readStep +
           "%w = train.read @w : tensor<10x4xf64>\n"
           "%b = train.read @b : tensor<10xf64>\n"
           "%out = train.nce %a, %labels, %w, %b, %step num_neg_samples 3 "
           "sampler log_uniform seed 2 : (tensor<3x4xf64>, tensor<3xi64>, "
           "tensor<10x4xf64>, tensor<10xf64>, tensor<i64>) -> tensor<3xf64>",
       "tensor<3xf64>",
       [](Executor &executor) {
         feedIds(executor, 0, Shape{3}, {9, 0, 4});
       }},
  };
}

TEST_F(MinimizeTest, GeneratedBackwardMatchesFiniteDifferences) {
  constexpr double h = 1e-6;
  std::vector<GradientCase> cases = gradientCases();
  for (GradientCase &c : modelOpCases())
    cases.push_back(std::move(c));
  for (const GradientCase &c : cases) {
    SCOPED_TRACE(c.name);
    std::string source = programOf(c);
    OwningOpRef<ModuleOp> forward = parse(source);
    ASSERT_TRUE(forward) << source;
    OwningOpRef<ModuleOp> minimized = parse(source);
    // With sgd at lr 1, one step moves each parameter by minus its gradient.
    minimize(*minimized, "optimizer=sgd lr=1.0");

    std::unique_ptr<LoadedStep> loss = load(*forward, 8);
    std::unique_ptr<LoadedStep> train = load(*minimized, 8);
    ASSERT_TRUE(loss->store.initialize().isOk());
    ASSERT_TRUE(train->store.initialize().isOk());
    c.feed(loss->executor);
    c.feed(train->executor);

    std::map<std::string, std::vector<double>> before;
    for (ParameterId id = 0; id < train->store.size(); ++id) {
      const Parameter &param = train->store[id];
      if (param.trainable)
        before[param.name].assign(param.value.data<double>(),
                                  param.value.data<double>() +
                                      param.value.numel());
    }
    lossOf(train->executor);

    int checked = 0;
    double largest = 0;
    for (ParameterId id = 0; id < loss->store.size(); ++id) {
      Parameter &param = loss->store[id];
      if (!param.trainable)
        continue;
      std::optional<ParameterId> afterId = train->store.lookup(param.name);
      ASSERT_TRUE(afterId) << param.name;
      const Parameter *after = &train->store[*afterId];
      double *values = param.value.data<double>();
      for (int64_t i = 0; i < param.value.numel(); ++i) {
        double saved = values[i];
        values[i] = saved + h;
        double up = lossOf(loss->executor);
        values[i] = saved - h;
        double down = lossOf(loss->executor);
        values[i] = saved;
        double numeric = (up - down) / (2 * h);
        double analytic =
            before[param.name][i] - after->value.data<double>()[i];
        EXPECT_NEAR(analytic, numeric, 1e-6 + 1e-5 * std::abs(numeric))
            << param.name << "[" << i << "]";
        largest = std::max(largest, std::abs(numeric));
        ++checked;
      }
    }
    EXPECT_GT(checked, 0);
    // The check means something only if the loss moves.
    EXPECT_GT(largest, 1e-3);
  }
}

/// One check of a parameter's update settings: `settings` on @w and the
/// minimize options `options`, after which one SGD step (lr 0.3) on the
/// gradient g must give `expected(w, g)` for each element.
struct SettingsCase {
  const char *settings;
  const char *options;
  std::function<std::vector<double>(const std::vector<double> &,
                                    const std::vector<double> &)>
      expected;
};

TEST_F(MinimizeTest, ParameterSettingsApplyPaddlesFormulas) {
  const double lr = 0.3;
  // The loss mean(w * x) has the gradient x / 6.
  const std::vector<double> x = {0.6, -0.3, 0.06, -0.024, 1.2, 0.0};
  std::vector<double> g;
  for (double value : x)
    g.push_back(value / 6);
  auto sign = [](double v) { return double((v > 0) - (v < 0)); };
  auto each = [](const std::vector<double> &w,
                 const std::function<double(size_t)> &update) {
    std::vector<double> result;
    for (size_t i = 0; i < w.size(); ++i)
      result.push_back(w[i] - update(i));
    return result;
  };
  double norm = 0;
  for (double value : g)
    norm += value * value;
  norm = std::sqrt(norm);
  const SettingsCase cases[] = {
      {"", "weight-decay=0.01",
       [&](auto &w, auto &g) {
         return each(w, [&](size_t i) { return lr * (g[i] + 0.01 * w[i]); });
       }},
      // A regularizer of its own replaces the weight decay; 0 turns it off.
      {"l2_decay 0.0", "weight-decay=0.01",
       [&](auto &w, auto &g) {
         return each(w, [&](size_t i) { return lr * g[i]; });
       }},
      {"lr_scale 0.5 l1_decay 0.1 clip_max 0.05", "weight-decay=0.01",
       [&](auto &w, auto &g) {
         return each(w, [&](size_t i) {
           double clipped = std::min(std::max(g[i], -0.05), 0.05);
           return 0.5 * lr * (clipped + 0.1 * sign(w[i]));
         });
       }},
      {"l2_decay 0.2 clip_min -0.001 clip_max 0.01", "",
       [&](auto &w, auto &g) {
         return each(w, [&](size_t i) {
           return lr * (std::min(std::max(g[i], -0.001), 0.01) + 0.2 * w[i]);
         });
       }},
      // Its own clip replaces the global-norm clip, which would act here.
      {"clip_norm 0.05", "clip-global-norm=0.01",
       [&](auto &w, auto &g) {
         return each(w, [&](size_t i) { return lr * g[i] * 0.05 / norm; });
       }},
      {"lr_scale 3.0 clip_norm 10.0", "",
       [&](auto &w, auto &g) {
         return each(w, [&](size_t i) { return 3.0 * lr * g[i]; });
       }},
  };
  ASSERT_GT(norm, 0.05);
  for (const SettingsCase &c : cases) {
    SCOPED_TRACE(std::string(c.settings) + " / " + c.options);
    OwningOpRef<ModuleOp> module = parse(fmt::format(R"mlir(
      train.program @settings {{
        train.param @w : tensor<2x3xf64> init #train.uniform<min = -1.0, max = 1.0, seed = 5> {0}
        train.step @step(%x: tensor<2x3xf64>) -> tensor<f64> {{
          %w = train.read @w : tensor<2x3xf64>
          %wx = train.mul %w, %x : (tensor<2x3xf64>, tensor<2x3xf64>) -> tensor<2x3xf64>
          %loss = train.mean %wx : (tensor<2x3xf64>) -> tensor<f64>
          train.yield %loss : tensor<f64>
        }}
      }}
    )mlir",
                                                     c.settings));
    ASSERT_TRUE(module);
    minimize(*module, fmt::format("lr={} {}", lr, c.options));
    std::unique_ptr<LoadedStep> step = load(*module, 2);
    ASSERT_TRUE(step->store.initialize().isOk());
    const Tensor &w = step->store[*step->store.lookup("w")].value;
    std::vector<double> before(w.data<double>(), w.data<double>() + 6);
    feedFloats(step->executor, 0, Shape{2, 3}, x);
    ASSERT_TRUE(step->executor.run().isOk());
    std::vector<double> expected = c.expected(before, g);
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_NEAR(w.data<double>()[i], expected[i], 1e-14) << "element " << i;
  }
}

/// A lookup of a [4, 3] table, dense or marked `sparse`, under the loss of
/// the gradient checks.
std::string lookupProgram(bool sparse) {
  return programOf(GradientCase{
      "lookup",
      std::string("train.param @table : tensor<4x3xf64> init "
                  "#train.uniform<min = -1.0, max = 1.0, seed = 4>") +
          (sparse ? " sparse" : ""),
      "%ids: tensor<5xi64>",
      "%t = train.read @table : tensor<4x3xf64>\n"
      "%out = train.embedding %t, %ids : (tensor<4x3xf64>, tensor<5xi64>) "
      "-> tensor<5x3xf64>",
      "tensor<5x3xf64>",
      {}});
}

/// Returns every parameter of `store` (state too) by name, as doubles.
std::map<std::string, std::vector<double>>
valuesByName(const ParameterStore &store) {
  std::map<std::string, std::vector<double>> values;
  for (ParameterId id = 0; id < store.size(); ++id) {
    const Tensor &value = store[id].value;
    values[store[id].name].assign(value.data<double>(),
                                  value.data<double>() + value.numel());
  }
  return values;
}

TEST_F(MinimizeTest, SparseTablesTrainAsDenseOnesWhenEveryRowIsLookedUp) {
  for (const char *optimizer : {"sgd", "momentum", "adam", "adagrad", "rmsprop",
                                "decayed-adagrad", "ftrl", "adamax"}) {
    SCOPED_TRACE(optimizer);
    std::string options = fmt::format("optimizer={} lr=0.1", optimizer);
    std::unique_ptr<LoadedStep> runs[2];
    for (bool sparse : {false, true}) {
      OwningOpRef<ModuleOp> module = parse(lookupProgram(sparse));
      ASSERT_TRUE(module);
      minimize(*module, options);
      runs[sparse] = load(*module, 8);
      ASSERT_TRUE(runs[sparse]->store.initialize().isOk());
    }
    // Every batch looks up every row, some twice.
    for (int64_t step = 0; step < 4; ++step)
      for (auto &run : runs) {
        feedIds(run->executor, 0, Shape{5}, {step % 4, 3, 1, 0, 2});
        lossOf(run->executor);
      }
    std::map<std::string, std::vector<double>> dense =
        valuesByName(runs[0]->store);
    std::map<std::string, std::vector<double>> sparse =
        valuesByName(runs[1]->store);
    ASSERT_EQ(dense.size(), sparse.size());
    for (auto &[name, values] : dense)
      for (size_t i = 0; i < values.size(); ++i)
        EXPECT_NEAR(sparse[name][i], values[i],
                    1e-12 * std::max(1.0, std::abs(values[i])))
            << name << "[" << i << "]";
  }
}

TEST_F(MinimizeTest, SparseTablesUpdateOnlyTheRowsLookedUp) {
  // Adam updates lazily: a row no lookup touched keeps its value and state,
  // where the dense form still moves it on its momentum.
  std::unique_ptr<LoadedStep> runs[2];
  for (bool sparse : {false, true}) {
    OwningOpRef<ModuleOp> module = parse(lookupProgram(sparse));
    ASSERT_TRUE(module);
    minimize(*module, "optimizer=adam lr=0.1");
    runs[sparse] = load(*module, 8);
    ASSERT_TRUE(runs[sparse]->store.initialize().isOk());
  }
  std::map<std::string, std::vector<double>> afterFirst[2];
  for (bool sparse : {false, true}) {
    feedIds(runs[sparse]->executor, 0, Shape{5}, {0, 1, 2, 3, 0});
    lossOf(runs[sparse]->executor);
    afterFirst[sparse] = valuesByName(runs[sparse]->store);
    // Row 1 is not looked up in the second step.
    feedIds(runs[sparse]->executor, 0, Shape{5}, {0, 2, 3, 3, 0});
    lossOf(runs[sparse]->executor);
  }
  std::map<std::string, std::vector<double>> dense =
      valuesByName(runs[0]->store);
  std::map<std::string, std::vector<double>> sparse =
      valuesByName(runs[1]->store);
  for (const char *name : {"table", "table.moment1", "table.moment2"})
    for (int64_t i = 0; i < 12; ++i) {
      bool rowOne = i / 3 == 1;
      if (rowOne) {
        EXPECT_EQ(sparse[name][i], afterFirst[1][name][i]) << name << i;
        EXPECT_NE(dense[name][i], afterFirst[0][name][i]) << name << i;
      } else {
        EXPECT_NEAR(sparse[name][i], dense[name][i], 1e-12) << name << i;
      }
    }
}

TEST_F(MinimizeTest, MinimizedExampleMatchesTheHandWrittenOne) {
  OwningOpRef<ModuleOp> generated =
      parseFile(OPENKS_SOURCE_DIR "/docs/examples/mlp.mlir");
  OwningOpRef<ModuleOp> handWritten =
      parseFile(OPENKS_SOURCE_DIR "/test/Examples/Inputs/mlp-handwritten.mlir");
  ASSERT_TRUE(generated && handWritten);
  minimize(*generated, "optimizer=sgd lr=0.1");

  constexpr int64_t batch = 64;
  std::unique_ptr<LoadedStep> steps[] = {load(*generated, batch),
                                         load(*handWritten, batch)};
  std::unique_ptr<DataSource> sources[2];
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(steps[i]->store.initialize().isOk());
    ASSERT_TRUE(openDataSource("synthetic:classes=10,seed=7",
                               steps[i]->plan.inputSpecs(), Shard{}, sources[i])
                    .isOk());
  }
  for (int step = 0; step < 20; ++step)
    for (int i = 0; i < 2; ++i) {
      ASSERT_TRUE(sources[i]->next(batch, steps[i]->executor.inputs()).isOk());
      ASSERT_TRUE(steps[i]->executor.run().isOk());
    }

  const ParameterStore &generatedParams = steps[0]->store;
  const ParameterStore &handParams = steps[1]->store;
  ASSERT_EQ(generatedParams.size(), handParams.size());
  for (ParameterId id = 0; id < handParams.size(); ++id) {
    const Parameter &param = handParams[id];
    std::optional<ParameterId> matchId = generatedParams.lookup(param.name);
    ASSERT_TRUE(matchId) << param.name;
    const Parameter *match = &generatedParams[*matchId];
    ASSERT_EQ(match->value.shape(), param.value.shape()) << param.name;
    EXPECT_EQ(0, std::memcmp(match->value.rawData(), param.value.rawData(),
                             param.value.numel() * sizeof(float)))
        << param.name << " differs after 20 steps";
  }
}

} // namespace
