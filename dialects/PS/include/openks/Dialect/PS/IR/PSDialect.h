//===- PSDialect.h - Parameter-server dialect -------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSDIALECT_H
#define OPENKS_DIALECT_PS_IR_PSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "openks/Dialect/PS/IR/PSDialect.h.inc"

#endif // OPENKS_DIALECT_PS_IR_PSDIALECT_H
