//===- Pipelines.cpp - OpenKS pass pipelines ------------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

/// openks-minimize: the backward pass, then the optimizer, which takes the
/// pipeline's options (those of openks-append-optimizer).
static LogicalResult
buildMinimizePipeline(OpPassManager &pm, StringRef options,
                      function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::unique_ptr<Pass> optimizer = openks::createAppendOptimizerPass();
  if (failed(optimizer->initializeOptions(options, errorHandler)))
    return failure();
  pm.addPass(openks::createAppendBackwardPass());
  pm.addPass(std::move(optimizer));
  return success();
}

/// openks-transpile: configure the job with the pipeline's options (those
/// of openks-configure-job), then slice, dispatch, build the servers and
/// rewrite the training program into the worker.
static LogicalResult
buildTranspilePipeline(OpPassManager &pm, StringRef options,
                       function_ref<LogicalResult(const Twine &)> errorHandler) {
  std::unique_ptr<Pass> configure = openks::createConfigureJobPass();
  if (failed(configure->initializeOptions(options, errorHandler)))
    return failure();
  pm.addPass(std::move(configure));
  pm.addPass(openks::createSliceVariablesPass());
  pm.addPass(openks::createDispatchPass());
  pm.addPass(openks::createBuildServersPass());
  pm.addPass(openks::createInsertSendRecvPass());
  return success();
}

void openks::registerAllPasses() {
  registerOpenKSPasses();
  registerPassPipeline(
      "openks-minimize",
      "What DistributedOptimizer.minimize does before it transpiles: "
      "openks-append-backward, then openks-append-optimizer with this "
      "pipeline's options (optimizer, lr, momentum, beta1, beta2, epsilon, "
      "weight-decay, clip-global-norm, lr-schedule, ...)",
      buildMinimizePipeline,
      [](function_ref<void(const detail::PassOptions &)>) {});
  registerPassPipeline(
      "openks-transpile",
      "Paddle's _transpile on a minimized program: openks-configure-job "
      "with this pipeline's options (pservers, trainers, mode, "
      "slice-var-up, split-method, min-block-size, geo-push-steps), then "
      "openks-slice-variables, openks-dispatch, openks-build-servers and "
      "openks-insert-send-recv",
      buildTranspilePipeline,
      [](function_ref<void(const detail::PassOptions &)>) {});
}
