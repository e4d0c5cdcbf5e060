//===- TranspileState.cpp - What the transpile passes share ---------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "TranspileState.h"

#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace openks;

FailureOr<ps::JobAttr> openks::getJob(ModuleOp module, StringRef pass) {
  if (auto job = module->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName))
    return job;
  return module.emitError(pass)
         << ": the module has no '" << ps::JobAttr::kAttrName
         << "'; run openks-configure-job first";
}

FailureOr<SmallVector<train::ParamOp>>
openks::getOptimizedParameters(ModuleOp module, StringRef pass) {
  llvm::SetVector<Operation *> params;
  WalkResult result = module.walk([&](train::OptimizerOpInterface op) {
    auto param = SymbolTable::lookupNearestSymbolFrom<train::ParamOp>(
        op, op.getParamAttr());
    if (!param) {
      op->emitOpError("updates ")
          << op.getParamAttr() << ", which is not a train.param";
      return WalkResult::interrupt();
    }
    params.insert(param);
    return WalkResult::advance();
  });
  if (result.wasInterrupted())
    return failure();
  if (params.empty())
    return module.emitError(pass)
           << ": no optimizer ops to distribute; run openks-minimize first";
  SmallVector<train::ParamOp> ordered;
  for (Operation *param : params)
    ordered.push_back(cast<train::ParamOp>(param));
  return ordered;
}
