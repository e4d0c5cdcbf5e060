//===- PaddleOps.h - Paddle dialect ops -------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PADDLE_IR_PADDLEOPS_H
#define OPENKS_DIALECT_PADDLE_IR_PADDLEOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "openks/Dialect/Paddle/IR/PaddleAttrs.h"
#include "openks/Dialect/Paddle/IR/PaddleDialect.h"

#define GET_OP_CLASSES
#include "openks/Dialect/Paddle/IR/PaddleOps.h.inc"

#endif // OPENKS_DIALECT_PADDLE_IR_PADDLEOPS_H
