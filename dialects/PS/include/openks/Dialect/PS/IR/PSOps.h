//===- PSOps.h - Parameter-server dialect ops -------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSOPS_H
#define OPENKS_DIALECT_PS_IR_PSOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "openks/Dialect/PS/IR/PSDialect.h"
#include "openks/Dialect/Train/IR/TrainInterfaces.h"
#include "openks/Dialect/Train/IR/TrainTypes.h"
#include <string>
#include <vector>

#include "openks/Dialect/PS/IR/PSEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "openks/Dialect/PS/IR/PSAttrs.h.inc"

namespace openks::ps {
/// The message channels that communication ops read and write.
struct ChannelResource
    : public mlir::SideEffects::Resource::Base<ChannelResource> {
  llvm::StringRef getName() final { return "ps.channel"; }
};
} // namespace openks::ps

#define GET_OP_CLASSES
#include "openks/Dialect/PS/IR/PSOps.h.inc"

#endif // OPENKS_DIALECT_PS_IR_PSOPS_H
