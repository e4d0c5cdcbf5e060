//===- ConfigureJob.cpp - Attach the parameter-server job -----------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Endpoint.h"
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
    : public openks::impl::ConfigureJobPassBase<ConfigureJobPass> {
  using ConfigureJobPassBase::ConfigureJobPassBase;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    Builder builder(&getContext());
    // Endpoints are stored in canonical form, so that every later pass and
    // the runtime compare them as strings.
    StatusOr<std::vector<std::string>> canonical = canonicalEndpointList(
        std::vector<std::string>(pservers.begin(), pservers.end()),
        "server endpoints");
    if (!canonical) {
      module.emitError("openks-configure-job: ")
          << canonical.status().message();
      return signalPassFailure();
    }
    SmallVector<Attribute> endpoints;
    for (const std::string &endpoint : *canonical)
      endpoints.push_back(builder.getStringAttr(endpoint));
    auto job = ps::JobAttr::getChecked(
        [&] { return module.emitError("openks-configure-job: "); },
        &getContext(), ps::Mode(mode), int64_t(trainers),
        builder.getArrayAttr(endpoints), builder.getBoolAttr(sliceVarUp),
        ps::SplitMethod(splitMethod), int64_t(minBlockSize),
        int64_t(geoPushSteps));
    if (!job)
      return signalPassFailure();
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
