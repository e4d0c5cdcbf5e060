//===- ParameterStoreBuilder.cpp - Build parameter stores from IR ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LoaderUtils.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainAttrs.h"
#include "openks/Runtime/Loader/PlanBuilder.h"

#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

/// Translates an initializer attribute, mixing `runSeed` into its seed.
static InitializerSpec getInitializerSpec(train::InitializerAttrInterface attr,
                                          uint64_t runSeed) {
  InitializerSpec spec;
  llvm::TypeSwitch<Attribute>(attr)
      .Case([&](train::ConstantInitAttr a) {
        spec.kind = InitializerSpec::Kind::Constant;
        spec.value = a.getValue().convertToDouble();
      })
      .Case([&](train::UniformInitAttr a) {
        spec.kind = InitializerSpec::Kind::Uniform;
        spec.min = a.getMin().convertToDouble();
        spec.max = a.getMax().convertToDouble();
        spec.seed = mixSeed(a.getSeed(), runSeed);
      })
      .Case([&](train::GaussianInitAttr a) {
        spec.kind = InitializerSpec::Kind::Gaussian;
        spec.mean = a.getMean().convertToDouble();
        spec.std = a.getStd().convertToDouble();
        spec.seed = mixSeed(a.getSeed(), runSeed);
      })
      .Case([&](train::XavierInitAttr a) {
        spec.kind = InitializerSpec::Kind::Xavier;
        spec.seed = mixSeed(a.getSeed(), runSeed);
      });
  return spec;
}

FailureOr<ParameterStore>
openks::runtime::buildParameterStore(Operation *symbolTable,
                                     const PlanOptions &options) {
  if (symbolTable->getNumRegions() != 1 ||
      !symbolTable->getRegion(0).hasOneBlock())
    return symbolTable->emitOpError(
        "cannot hold parameters: it has no single-block body");
  ParameterStore store;
  for (Operation &op : symbolTable->getRegion(0).front()) {
    auto parameterOp = dyn_cast<train::ParameterOpInterface>(op);
    if (!parameterOp)
      continue;
    RankedTensorType type = parameterOp.getParameterType();
    FailureOr<DType> dtype = getDType(&op, type);
    if (failed(dtype))
      return failure();
    Parameter parameter;
    parameter.name = SymbolTable::getSymbolName(&op).str();
    parameter.initializer =
        getInitializerSpec(parameterOp.getInitializerAttr(), options.runSeed);
    parameter.trainable = parameterOp.isTrainable();
    parameter.wholeShape = getShape(type);
    // A row slice initialises as its rows of the whole origin.
    if (auto block = dyn_cast<ps::BlockOp>(op); block && block.isSlice()) {
      parameter.wholeShape =
          getShape(cast<RankedTensorType>(*block.getOriginType()));
      parameter.rowBegin = block.getRows().first;
      parameter.origin = block.getOriginName().str();
    }
    StatusOr<Tensor> value = Tensor::allocate(*dtype, getShape(type));
    if (!value)
      return op.emitOpError() << value.status().message();
    parameter.value = std::move(*value);
    store.add(std::move(parameter));
  }
  return std::move(store);
}
