//===- PSOps.h - Parameter-server dialect ops -------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECTS_PS_IR_PSOPS_H
#define OPENKS_DIALECTS_PS_IR_PSOPS_H

#include "dialects/PS/IR/PSDialect.h"
#include "dialects/Train/IR/TrainInterfaces.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "dialects/PS/IR/PSEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/PS/IR/PSAttrs.h.inc"

namespace openks::ps {
/// The message channels that communication ops read and write.
struct ChannelResource
    : public mlir::SideEffects::Resource::Base<ChannelResource> {
  llvm::StringRef getName() final { return "ps.channel"; }
};
} // namespace openks::ps

#define GET_OP_CLASSES
#include "dialects/PS/IR/PSOps.h.inc"

#endif // OPENKS_DIALECTS_PS_IR_PSOPS_H
