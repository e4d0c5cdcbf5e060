//===- ConfigureJob.cpp - Attach the parameter-server job -----------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"

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
    : public openks::impl::ConfigureJobPassBase<ConfigureJobPass> {
  using ConfigureJobPassBase::ConfigureJobPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(&getContext());
    SmallVector<Attribute> endpoints;
    for (const std::string &endpoint : pservers)
      endpoints.push_back(builder.getStringAttr(endpoint));
    auto job = ps::JobAttr::getChecked(
        [&] { return module.emitError("openks-configure-job: "); },
        &getContext(), ps::Mode(mode), int64_t(trainers),
        builder.getArrayAttr(endpoints), builder.getBoolAttr(sliceVarUp),
        ps::SplitMethod(splitMethod), int64_t(minBlockSize),
        int64_t(geoPushSteps));
    if (!job)
      return signalPassFailure();
    module->setAttr(ps::JobAttr::kAttrName, job);
  }
};

} // namespace
