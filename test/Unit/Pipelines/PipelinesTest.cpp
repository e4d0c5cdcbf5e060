//===- PipelinesTest.cpp - Typed pipelines against their passes -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The options of openks-minimize and openks-transpile are declared twice:
// in Passes.td for openks-append-optimizer and openks-configure-job, and in
// Pipelines.h for the pipelines. These tests fail when the two drift apart
// (an option missing, renamed, with another default or value name, or not
// forwarded to its pass), and check that the typed pipelines build what the
// textual ones do.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

#include <functional>
#include <optional>

using namespace mlir;
using namespace openks;

/// Returns `options` as a textual pipeline prints them: `{name=value ...}`,
/// sorted by name.
static std::string printed(const detail::PassOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  options.print(os);
  return text;
}

/// Returns the options of `pass` as a textual pipeline prints them, without
/// the pass's argument.
static std::string printedOptions(Pass &pass) {
  std::string text;
  llvm::raw_string_ostream os(text);
  pass.printAsTextualPipeline(os);
  return StringRef(text).drop_front(pass.getArgument().size()).str();
}

/// Returns the arguments of the passes in `pm`, in order.
static std::vector<std::string> passArguments(OpPassManager &pm) {
  std::vector<std::string> arguments;
  for (Pass &pass : pm.getPasses())
    arguments.push_back(pass.getArgument().str());
  return arguments;
}

/// Returns the pass of `pm` whose argument is `argument`.
static Pass *findPass(OpPassManager &pm, StringRef argument) {
  for (Pass &pass : pm.getPasses())
    if (pass.getArgument() == argument)
      return &pass;
  return nullptr;
}

/// Checks, for every option string in `texts`, that the pipeline options
/// parsed from it reach the pass `createPass` makes in the pipeline `build`
/// adds, and that this pass parses the same string to the same options.
template <typename OptionsT>
static void
expectForwarded(ArrayRef<const char *> texts,
                function_ref<std::unique_ptr<Pass>()> createPass,
                function_ref<void(OpPassManager &, const OptionsT &)> build) {
  for (const char *text : texts) {
    SCOPED_TRACE(text);
    std::unique_ptr<OptionsT> options = OptionsT::createFromString(text);
    ASSERT_TRUE(options);
    std::unique_ptr<Pass> parsed = createPass();
    ASSERT_TRUE(
        succeeded(parsed->initializeOptions(text, [](const Twine &message) {
          ADD_FAILURE() << message.str();
          return failure();
        })));
    EXPECT_EQ(printedOptions(*parsed), printed(*options));

    OpPassManager pm(ModuleOp::getOperationName());
    build(pm, *options);
    Pass *built = findPass(pm, parsed->getArgument());
    ASSERT_NE(built, nullptr);
    EXPECT_EQ(printedOptions(*built), printed(*options));
  }
}

namespace {

TEST(PipelineOptionsTest, MinimizeOptionsAreThoseOfAppendOptimizer) {
  // The same names with the same defaults.
  EXPECT_EQ(printed(MinimizeOptions()),
            printedOptions(*createAppendOptimizerPass()));
  // Every option and every value name, through appendOptimizerOptions().
  expectForwarded<MinimizeOptions>(
      {"optimizer=sgd lr-schedule=constant",
       "optimizer=momentum momentum=0.5 nesterov=true",
       "optimizer=adam beta1=0.8 beta2=0.99 epsilon=1e-7",
       "optimizer=adagrad weight-decay=0.001 clip-global-norm=5",
       "optimizer=rmsprop rho=0.9 rmsprop-momentum=0.5 centered=true",
       "optimizer=decayed-adagrad rho=0.8 epsilon=1e-5",
       "optimizer=ftrl ftrl-l1=0.1 ftrl-l2=0.2 lr-power=-0.3",
       "optimizer=adamax beta1=0.7 beta2=0.9",
       "lr=0.2 lr-schedule=exponential decay-rate=0.9 decay-steps=10 "
       "staircase=true",
       "lr-schedule=piecewise boundaries=10,20 values=0.1,0.01,0.001"},
      [] { return createAppendOptimizerPass(); }, buildMinimizePipeline);
}

TEST(PipelineOptionsTest, TranspileOptionsAreThoseOfConfigureJob) {
  EXPECT_EQ(printed(TranspileOptions()),
            printedOptions(*createConfigureJobPass()));
  expectForwarded<TranspileOptions>(
      {"pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 mode=sync",
       "pservers=127.0.0.1:1 mode=async split-method=hash-name",
       "pservers=h:2 mode=half-async slice-var-up=false "
       "split-method=round-robin min-block-size=16",
       "pservers=[::1]:3 mode=geo geo-push-steps=5"},
      [] { return createConfigureJobPass(); }, buildTranspilePipeline);
}

TEST(PipelineOptionsTest, PipelinesRunTheirPassesInOrder) {
  OpPassManager minimize(ModuleOp::getOperationName());
  buildMinimizePipeline(minimize, MinimizeOptions());
  EXPECT_EQ(passArguments(minimize),
            (std::vector<std::string>{"openks-append-backward",
                                      "openks-append-optimizer"}));

  OpPassManager transpile(ModuleOp::getOperationName());
  buildTranspilePipeline(transpile, TranspileOptions());
  EXPECT_EQ(passArguments(transpile),
            (std::vector<std::string>{"openks-configure-job",
                                      "openks-slice-variables",
                                      "openks-dispatch", "openks-build-servers",
                                      "openks-insert-send-recv"}));
}

/// A forward program with a matrix of 8 elements, which min-block-size=2
/// slices, and a bias.
constexpr const char *kProgram = R"mlir(
  train.program @tiny {
    train.param @b : tensor<2xf32> init #train.constant<0.0>
    train.param @w : tensor<4x2xf32> init #train.uniform<min = -1.0, max = 1.0, seed = 1>
    train.step @step(%x: tensor<3x4xf32>) -> tensor<f32> {
      %w = train.read @w : tensor<4x2xf32>
      %b = train.read @b : tensor<2xf32>
      %xw = train.matmul %x, %w : (tensor<3x4xf32>, tensor<4x2xf32>) -> tensor<3x2xf32>
      %y = train.add %xw, %b : (tensor<3x2xf32>, tensor<2xf32>) -> tensor<3x2xf32>
      %loss = train.mean %y : (tensor<3x2xf32>) -> tensor<f32>
      train.yield %loss : tensor<f32>
    }
  }
)mlir";

class PipelinesTest : public ::testing::Test {
protected:
  PipelinesTest() {
    registerAllPasses();
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  /// Parses kProgram.
  OwningOpRef<ModuleOp> parseProgram() {
    return parseSourceString<ModuleOp>(kProgram, &context);
  }

  /// Runs the pipeline that `build` adds on `module`.
  static void run(ModuleOp module, function_ref<void(OpPassManager &)> build) {
    auto pm = PassManager::on<ModuleOp>(module.getContext());
    build(pm);
    ASSERT_TRUE(succeeded(pm.run(module)));
  }

  /// Runs the textual pipeline `pipeline` on `module`.
  static void run(ModuleOp module, StringRef pipeline) {
    auto pm = PassManager::on<ModuleOp>(module.getContext());
    ASSERT_TRUE(succeeded(parsePassPipeline(pipeline, pm)));
    ASSERT_TRUE(succeeded(pm.run(module)));
  }

  /// Returns `module` as the printer writes it.
  static std::string print(ModuleOp module) {
    std::string text;
    llvm::raw_string_ostream os(text);
    module.print(os);
    return text;
  }

  MLIRContext context;
};

TEST_F(PipelinesTest, TypedMinimizeOptionsReachTheOptimizer) {
  MinimizeOptions adam;
  adam.optimizer = OptimizerKind::Adam;
  adam.learningRate = 0.5;
  adam.beta1 = 0.8;
  OwningOpRef<ModuleOp> module = parseProgram();
  ASSERT_TRUE(module);
  run(*module, [&](OpPassManager &pm) { buildMinimizePipeline(pm, adam); });
  int adamOps = 0;
  module->walk([&](train::AdamOp op) {
    EXPECT_EQ(op.getBeta1().convertToDouble(), 0.8);
    ++adamOps;
  });
  EXPECT_EQ(adamOps, 2);
  std::optional<double> learningRate;
  module->walk([&](train::ParamOp param) {
    if (param.getSymName() == "learning_rate")
      if (auto init = dyn_cast<train::ConstantInitAttr>(param.getInitializer()))
        learningRate = init.getValue().convertToDouble();
  });
  ASSERT_TRUE(learningRate);
  EXPECT_EQ(*learningRate, 0.5);

  MinimizeOptions piecewise;
  piecewise.lrSchedule = LRSchedule::Piecewise;
  piecewise.boundaries = {100};
  piecewise.values = {0.5, 0.05};
  module = parseProgram();
  ASSERT_TRUE(module);
  run(*module,
      [&](OpPassManager &pm) { buildMinimizePipeline(pm, piecewise); });
  int decayOps = 0;
  module->walk([&](train::PiecewiseDecayOp op) {
    EXPECT_EQ(op.getBoundaries(), ArrayRef<int64_t>{100});
    EXPECT_EQ(op.getValues(), (ArrayRef<double>{0.5, 0.05}));
    ++decayOps;
  });
  EXPECT_EQ(decayOps, 1);
}

TEST_F(PipelinesTest, TypedTranspileBuildsWhatTheTextualOneDoes) {
  struct Case {
    const char *text;
    std::function<void(TranspileOptions &)> set;
  };
  const Case cases[] = {
      {"pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 min-block-size=2",
       [](TranspileOptions &options) {
         options.pservers = {"127.0.0.1:6170", "127.0.0.1:6171"};
         options.trainers = 2;
         options.minBlockSize = 2;
       }},
      {"pservers=127.0.0.1:6170,127.0.0.1:6171,127.0.0.1:6172 trainers=3 "
       "mode=geo split-method=hash-name min-block-size=2 geo-push-steps=5",
       [](TranspileOptions &options) {
         options.pservers = {"127.0.0.1:6170", "127.0.0.1:6171",
                             "127.0.0.1:6172"};
         options.trainers = 3;
         options.mode = ps::Mode::Geo;
         options.splitMethod = ps::SplitMethod::HashName;
         options.minBlockSize = 2;
         options.geoPushSteps = 5;
       }},
      {"pservers=127.0.0.1:6170,127.0.0.1:6171 mode=half-async "
       "slice-var-up=false",
       [](TranspileOptions &options) {
         options.pservers = {"127.0.0.1:6170", "127.0.0.1:6171"};
         options.mode = ps::Mode::HalfAsync;
         options.sliceVarUp = false;
       }},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    OwningOpRef<ModuleOp> textual = parseProgram();
    ASSERT_TRUE(textual);
    run(*textual, "openks-minimize{optimizer=momentum}");
    OwningOpRef<ModuleOp> typed = textual->clone();

    run(*textual, std::string("openks-transpile{") + c.text + "}");
    TranspileOptions options;
    c.set(options);
    run(*typed,
        [&](OpPassManager &pm) { buildTranspilePipeline(pm, options); });
    EXPECT_EQ(print(*typed), print(*textual));
    EXPECT_NE(print(*typed).find("ps.worker @tiny"), std::string::npos);
  }
}

} // namespace
