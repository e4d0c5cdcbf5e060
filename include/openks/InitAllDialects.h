//===- InitAllDialects.h - Register every OpenKS dialect --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One call that makes every OpenKS dialect available to a tool or an
// embedding compiler: `train` (training programs), `ps` (parameter-server
// jobs) and `paddle` (Paddle ProgramDescs, field for field). A user of this
// header links OpenKS::TrainDialect, OpenKS::PSDialect and
// OpenKS::PaddleDialect.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_INITALLDIALECTS_H
#define OPENKS_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"
#include "openks/Dialect/PS/IR/PSDialect.h"
#include "openks/Dialect/Paddle/IR/PaddleDialect.h"
#include "openks/Dialect/Train/IR/TrainDialect.h"

namespace openks {

/// Adds every OpenKS dialect to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<train::TrainDialect, ps::PSDialect, paddle::PaddleDialect>();
}

} // namespace openks

#endif // OPENKS_INITALLDIALECTS_H
