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
}
