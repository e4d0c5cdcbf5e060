//===- Dispatch.cpp - Place parameter blocks on servers -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"
#include "openks/Transforms/Slicing.h"

#include "TranspileState.h"
#include "openks/Dialect/PS/IR/PSNaming.h"

#include "mlir/IR/Builders.h"

namespace openks {
#define GEN_PASS_DEF_DISPATCHPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

struct DispatchPass : public openks::impl::DispatchPassBase<DispatchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Dispatching again places the blocks where they are; once the servers
    // hold them it would move them behind their backs.
    SmallVector<OptimizerUse> optimizers = findOptimizers(module);
    if (failed(checkStage(module, optimizers, getArgument(),
                          TranspileStage::Sliced, TranspileStage::Dispatched)))
      return signalPassFailure();
    ps::JobAttr job = getJob(module);
    FailureOr<SmallVector<train::ParamOp>> params =
        getOptimizedParameters(optimizers);
    if (failed(params))
      return signalPassFailure();

    int numServers = static_cast<int>(job.getEndpoints().size());
    SmallVector<int64_t> blockCounts;
    std::vector<std::vector<std::string>> names;
    for (train::ParamOp param : *params) {
      int64_t blocks =
          param
              ->getAttrOfType<DenseI64ArrayAttr>(ps::PSDialect::kSlicesAttrName)
              .size();
      if (blocks > numServers) {
        param.emitOpError(getArgument())
            << ": has " << blocks << " blocks but the job only " << numServers
            << " servers; a server holds at most one block of a parameter";
        return signalPassFailure();
      }
      blockCounts.push_back(blocks);
      std::vector<std::string> &blockNames = names.emplace_back();
      for (int64_t i = 0; i < blocks; ++i)
        blockNames.push_back(ps::getBlockName(param.getSymName(), i, blocks));
    }

    std::vector<std::vector<int>> placement =
        job.getSplitMethod() == ps::SplitMethod::RoundRobin
            ? dispatchRoundRobin(blockCounts, numServers)
            : dispatchHashName(names, numServers);
    for (auto [param, servers] : llvm::zip(*params, placement))
      param->setAttr(ps::PSDialect::kPlacementAttrName,
                     DenseI64ArrayAttr::get(
                         &getContext(),
                         SmallVector<int64_t>(servers.begin(), servers.end())));
  }
};

} // namespace
