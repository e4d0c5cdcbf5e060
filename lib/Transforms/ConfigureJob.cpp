//===- ConfigureJob.cpp - Attach the parameter-server job -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CheckedOptionsPass.h"
#include "openks/Transforms/Passes.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace openks {
#define GEN_PASS_DEF_CONFIGUREJOBPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

namespace {

struct ConfigureJobPass
    : public CheckedOptionsPass<
          openks::impl::ConfigureJobPassBase<ConfigureJobPass>> {
  using CheckedOptionsPass::CheckedOptionsPass;
  template <typename OptionsT>
  friend std::string openks::checkConfigureJobOptions(const OptionsT &);

  std::string checkOptions() override {
    return checkConfigureJobOptions(*this);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(&getContext());
    // Options parsed from text were checked then; these may come from C++.
    if (failed(checkOptionsOnRun()))
      return signalPassFailure();
    // Endpoints are stored in canonical form, so that every later pass and
    // the runtime compare them as strings.
    StatusOr<std::vector<std::string>> canonical = canonicalEndpointList(
        std::vector<std::string>(pservers.begin(), pservers.end()),
        "option 'pservers'");
    SmallVector<Attribute> endpoints;
    for (const std::string &endpoint : *canonical)
      endpoints.push_back(builder.getStringAttr(endpoint));
    // The checks above are the job attribute's own.
    auto job = ps::JobAttr::get(
        &getContext(), ps::Mode(mode), int64_t(trainers),
        builder.getArrayAttr(endpoints), builder.getBoolAttr(sliceVarUp),
        ps::SplitMethod(splitMethod), int64_t(minBlockSize),
        int64_t(geoPushSteps));
    // Configuring the same job again changes nothing; another job can only
    // replace this one before the module is sliced.
    if (getJob(module) == job)
      return markAllAnalysesPreserved();
    if (failed(checkStage(module, getArgument(), TranspileStage::Forward,
                          TranspileStage::Configured)))
      return signalPassFailure();
    module->setAttr(ps::JobAttr::kAttrName, job);
  }
};

} // namespace
