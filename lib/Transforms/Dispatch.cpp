//===- Dispatch.cpp - Place parameter blocks on servers -------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Passes.h"
#include "openks/Transforms/Slicing.h"

#include "TranspileState.h"

#include "mlir/IR/Builders.h"

namespace openks {
#define GEN_PASS_DEF_DISPATCHPASS
#include "openks/Transforms/Passes.h.inc"
} // namespace openks

using namespace mlir;
using namespace openks;

/// Paddle's block names: the parameter itself when it is one block, else
/// `<param>.block<i>`.
static std::vector<std::string> blockNames(train::ParamOp param,
                                           int64_t blocks) {
  if (blocks == 1)
    return {param.getSymName().str()};
  std::vector<std::string> names;
  for (int64_t i = 0; i < blocks; ++i)
    names.push_back((param.getSymName() + ".block" + Twine(i)).str());
  return names;
}

namespace {

struct DispatchPass : public openks::impl::DispatchPassBase<DispatchPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    FailureOr<ps::JobAttr> job = getJob(module, getArgument());
    if (failed(job))
      return signalPassFailure();
    FailureOr<SmallVector<train::ParamOp>> params =
        getOptimizedParameters(module, getArgument());
    if (failed(params))
      return signalPassFailure();

    SmallVector<int64_t> blockCounts;
    std::vector<std::vector<std::string>> names;
    for (train::ParamOp param : *params) {
      auto slices = param->getAttrOfType<DenseI64ArrayAttr>(
          ps::PSDialect::kSlicesAttrName);
      if (!slices) {
        param.emitOpError("has no '")
            << ps::PSDialect::kSlicesAttrName
            << "'; run openks-slice-variables first";
        return signalPassFailure();
      }
      blockCounts.push_back(slices.size());
      names.push_back(blockNames(param, slices.size()));
    }

    int numEndpoints = static_cast<int>(job->getEndpoints().size());
    std::vector<std::vector<int>> placement =
        job->getSplitMethod() == ps::SplitMethod::RoundRobin
            ? dispatchRoundRobin(blockCounts, numEndpoints)
            : dispatchHashName(names, numEndpoints);
    for (auto [param, servers] : llvm::zip(*params, placement)) {
      SmallVector<Attribute> endpoints;
      for (int server : servers)
        endpoints.push_back(job->getEndpoints()[server]);
      param->setAttr(ps::PSDialect::kPlacementAttrName,
                     ArrayAttr::get(&getContext(), endpoints));
    }
  }
};

} // namespace
