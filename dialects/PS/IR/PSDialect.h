//===- PSDialect.h - Parameter-server dialect -------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECTS_PS_IR_PSDIALECT_H
#define OPENKS_DIALECTS_PS_IR_PSDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/PS/IR/PSDialect.h.inc"

#endif // OPENKS_DIALECTS_PS_IR_PSDIALECT_H
