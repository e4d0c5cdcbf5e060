//===- PaddleDialect.h - Paddle dialect -------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PADDLE_IR_PADDLEDIALECT_H
#define OPENKS_DIALECT_PADDLE_IR_PADDLEDIALECT_H

#include "mlir/IR/Dialect.h"

#include "openks/Dialect/Paddle/IR/PaddleDialect.h.inc"

#endif // OPENKS_DIALECT_PADDLE_IR_PADDLEDIALECT_H
