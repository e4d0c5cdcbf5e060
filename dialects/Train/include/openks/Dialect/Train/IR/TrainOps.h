//===- TrainOps.h - Train dialect ops ---------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINOPS_H
#define OPENKS_DIALECT_TRAIN_IR_TRAINOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "openks/Dialect/Train/IR/TrainAttrs.h"
#include "openks/Dialect/Train/IR/TrainDialect.h"
#include "openks/Dialect/Train/IR/TrainInterfaces.h"
#include "openks/Dialect/Train/IR/TrainTypes.h"

namespace openks::train {
/// The resource parameter reads, writes and updates have effects on.
struct ParameterResource
    : public mlir::SideEffects::Resource::Base<ParameterResource> {
  llvm::StringRef getName() final { return "train.parameter"; }
};

/// Tags `op` with `role` (the discardable `train.role` attribute).
void setRole(mlir::Operation *op, Role role);

/// Returns the role `op` is tagged with, if any.
std::optional<Role> getRole(mlir::Operation *op);

/// The gradient slots train.param_grad fills.
struct GradientResource
    : public mlir::SideEffects::Resource::Base<GradientResource> {
  llvm::StringRef getName() final { return "train.gradient"; }
};
} // namespace openks::train

#define GET_OP_CLASSES
#include "openks/Dialect/Train/IR/TrainOps.h.inc"

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINOPS_H
