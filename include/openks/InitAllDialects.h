//===- InitAllDialects.h - Register every OpenKS dialect --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// One call that makes the `train` and `ps` dialects available to a tool or
// an embedding compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_INITALLDIALECTS_H
#define OPENKS_INITALLDIALECTS_H

#include "mlir/IR/DialectRegistry.h"
#include "openks/Dialect/PS/IR/PSDialect.h"
#include "openks/Dialect/Train/IR/TrainDialect.h"

namespace openks {

/// Adds every OpenKS dialect to `registry`.
inline void registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<train::TrainDialect, ps::PSDialect>();
}

} // namespace openks

#endif // OPENKS_INITALLDIALECTS_H
