//===- ToolDialects.h - The dialects the MLIR drivers know ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-opt, openks-lsp-server, openks-reduce and openks-run read the same
// IR, so they register the same dialects: the OpenKS ones (`train`, `ps`,
// and `paddle`, the form openks-translate imports Paddle programs into) and
// the upstream dialects a training compiler mixes in. A dialect added here
// is known to all four: a file the optimizer parses is one the editor, the
// reducer and the runtime parse too (the runtime then refuses, by name, an
// op it has no kernel for).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_TOOLDIALECTS_H
#define OPENKS_TOOLS_TOOLDIALECTS_H

#include "openks/InitAllDialects.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/DialectRegistry.h"

namespace openks::tools {

/// Adds the dialects of the OpenKS drivers to `registry`: every OpenKS
/// dialect (`paddle` included), and func, arith, math, tensor, linalg and
/// scf.
inline void registerToolDialects(mlir::DialectRegistry &registry) {
  openks::registerAllDialects(registry);
  registry.insert<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                  mlir::linalg::LinalgDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect>();
}

} // namespace openks::tools

#endif // OPENKS_TOOLS_TOOLDIALECTS_H
