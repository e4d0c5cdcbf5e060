//===- TrainDialect.cpp - Train dialect -----------------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "dialects/Train/IR/TrainDialect.h"
#include "dialects/Train/IR/TrainOps.h"

using namespace mlir;
using namespace openks::train;

#include "dialects/Train/IR/TrainDialect.cpp.inc"

LogicalResult TrainDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attribute) {
  if (attribute.getName() != kRoleAttrName)
    return op->emitError("unknown train dialect attribute '")
           << attribute.getName().getValue() << "'";
  if (!isa<RoleAttr>(attribute.getValue()))
    return op->emitError("'")
           << kRoleAttrName << "' must be a #train.role, got "
           << attribute.getValue();
  return success();
}

void TrainDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Train/IR/TrainOps.cpp.inc"
      >();
}
