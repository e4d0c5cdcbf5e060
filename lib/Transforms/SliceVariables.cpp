//===- SliceVariables.cpp - Split optimized parameters into blocks --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"
#include "openks/Transforms/Slicing.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"

namespace openks {
#define GEN_PASS_DEF_SLICEVARIABLESPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

struct SliceVariablesPass
    : public openks::impl::SliceVariablesPassBase<SliceVariablesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // Slicing again computes the same blocks; once the servers hold them it
    // would cut them anew behind their backs.
    SmallVector<OptimizerUse> optimizers = findOptimizers(module);
    if (failed(checkStage(module, optimizers, getArgument(),
                          TranspileStage::Configured,
                          TranspileStage::Dispatched)))
      return signalPassFailure();
    ps::JobAttr job = getJob(module);
    FailureOr<SmallVector<train::ParamOp>> params =
        getOptimizedParameters(optimizers);
    if (failed(params))
      return signalPassFailure();

    int64_t maxSlices = job.getSliceVarUp().getValue()
                            ? static_cast<int64_t>(job.getEndpoints().size())
                            : 1;
    Builder builder(&getContext());
    for (train::ParamOp param : *params) {
      SmallVector<int64_t> rows;
      for (const VarBlock &block :
           sliceVariable(param.getParameterType().getShape(), maxSlices,
                         job.getMinBlockSize()))
        rows.push_back(block.rows);
      param->setAttr(ps::PSDialect::kSlicesAttrName,
                     builder.getDenseI64ArrayAttr(rows));
    }
  }
};

} // namespace
