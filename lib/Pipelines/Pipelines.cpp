//===- Pipelines.cpp - OpenKS pass pipelines ------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Pipelines/Pipelines.h"
#include "openks/Transforms/PassOptions.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace openks;

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

AppendOptimizerPassOptions MinimizeOptions::appendOptimizerOptions() const {
  AppendOptimizerPassOptions options;
  options.optimizer = optimizer;
  options.learningRate = learningRate;
  options.momentum = momentum;
  options.nesterov = nesterov;
  options.beta1 = beta1;
  options.beta2 = beta2;
  options.epsilon = epsilon;
  options.rho = rho;
  options.rmspropMomentum = rmspropMomentum;
  options.centered = centered;
  options.ftrlL1 = ftrlL1;
  options.ftrlL2 = ftrlL2;
  options.lrPower = lrPower;
  options.weightDecay = weightDecay;
  options.clipGlobalNorm = clipGlobalNorm;
  options.lrSchedule = lrSchedule;
  options.decayRate = decayRate;
  options.decaySteps = decaySteps;
  options.staircase = staircase;
  options.boundaries.assign(boundaries.begin(), boundaries.end());
  options.values.assign(values.begin(), values.end());
  return options;
}

ConfigureJobPassOptions TranspileOptions::configureJobOptions() const {
  ConfigureJobPassOptions options;
  options.pservers.assign(pservers.begin(), pservers.end());
  options.trainers = trainers;
  options.mode = mode;
  options.sliceVarUp = sliceVarUp;
  options.splitMethod = splitMethod;
  options.minBlockSize = minBlockSize;
  options.geoPushSteps = geoPushSteps;
  return options;
}

//===----------------------------------------------------------------------===//
// Pipelines
//===----------------------------------------------------------------------===//

void openks::buildMinimizePipeline(OpPassManager &pm,
                                   const MinimizeOptions &options) {
  pm.addPass(createAppendBackwardPass());
  pm.addPass(createAppendOptimizerPass(options.appendOptimizerOptions()));
}

void openks::buildTranspilePipeline(OpPassManager &pm,
                                    const TranspileOptions &options) {
  pm.addPass(createConfigureJobPass(options.configureJobOptions()));
  pm.addPass(createSliceVariablesPass());
  pm.addPass(createDispatchPass());
  pm.addPass(createBuildServersPass());
  pm.addPass(createInsertSendRecvPass());
}

//===----------------------------------------------------------------------===//
// Registration
//===----------------------------------------------------------------------===//

/// Registers `build` as the pipeline `argument` with options `OptionsT`, as
/// `PassPipelineRegistration<OptionsT>` does, except that options which do not
/// parse or that `check` rejects (see PassOptions.h), and a pass manager
/// anchored on another op than `builtin.module`, are reported through the
/// error handler: the first would fail without a message, the second be
/// reported against the program, the last abort in `OpPassManager::addPass`.
template <typename OptionsT>
static void registerModulePipeline(StringRef argument, StringRef description,
                                   void (*build)(OpPassManager &,
                                                 const OptionsT &),
                                   std::string (*check)(const OptionsT &)) {
  registerPassPipeline(
      argument, description,
      [argument, build,
       check](OpPassManager &pm, StringRef text,
              function_ref<LogicalResult(const Twine &)> errorHandler) {
        // Module passes cannot nest under another op; an op-agnostic pass
        // manager (`any`) can hold them.
        std::optional<StringRef> anchor = pm.getOpName();
        if (anchor && *anchor != ModuleOp::getOperationName())
          return errorHandler(argument + " runs on '" +
                              ModuleOp::getOperationName() + "', not on '" +
                              *anchor + "'");
        OptionsT options;
        std::string message;
        llvm::raw_string_ostream os(message);
        if (failed(options.parseFromString(text, os))) {
          // An unknown option is reported on `os`, but llvm::cl reports a bad
          // value on stderr only.
          if (message.empty())
            return errorHandler(argument + ": cannot parse options `" + text +
                                "`");
          return errorHandler(argument + ": " + StringRef(message).trim());
        }
        if (std::string error = check(options); !error.empty())
          return errorHandler(argument + ": " + error);
        build(pm, options);
        return success();
      },
      [](function_ref<void(const detail::PassOptions &)> optionHandler) {
        optionHandler(OptionsT());
      });
}

void openks::registerOpenKSPipelines() {
  registerModulePipeline<MinimizeOptions>(
      "openks-minimize",
      "What DistributedOptimizer.minimize does before it transpiles: "
      "openks-append-backward, then openks-append-optimizer with this "
      "pipeline's options",
      buildMinimizePipeline, [](const MinimizeOptions &options) {
        return checkAppendOptimizerOptions(options.appendOptimizerOptions());
      });
  registerModulePipeline<TranspileOptions>(
      "openks-transpile",
      "Paddle's _transpile on a minimized program: openks-configure-job "
      "with this pipeline's options, then openks-slice-variables, "
      "openks-dispatch, openks-build-servers and openks-insert-send-recv",
      buildTranspilePipeline, [](const TranspileOptions &options) {
        return checkConfigureJobOptions(options.configureJobOptions());
      });
}
