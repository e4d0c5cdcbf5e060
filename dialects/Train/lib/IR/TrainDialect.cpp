//===- TrainDialect.cpp - Train dialect -----------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainDialect.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

using namespace mlir;
using namespace openks::train;

#include "openks/Dialect/Train/IR/TrainDialect.cpp.inc"

void openks::train::setRole(Operation *op, Role role) {
  op->setAttr(TrainDialect::kRoleAttrName,
              RoleAttr::get(op->getContext(), role));
}

std::optional<Role> openks::train::getRole(Operation *op) {
  if (auto role = op->getAttrOfType<RoleAttr>(TrainDialect::kRoleAttrName))
    return role.getValue();
  return std::nullopt;
}

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
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "openks/Dialect/Train/IR/TrainOps.cpp.inc"
      >();
}
