//===- Diagnostics.h - MLIR diagnostics as a Status ---------------*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Fleet API reports errors as Status values; what the compiler says on
// an MLIR context (the passes, the loader, the parser, the exporter) is
// gathered into one, each error with its location.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_FLEET_DIAGNOSTICS_H
#define OPENKS_LIB_FLEET_DIAGNOSTICS_H

#include "openks/Support/Status.h"

#include "mlir/IR/MLIRContext.h"
#include "llvm/ADT/STLFunctionalExtras.h"

namespace openks::fleet {

/// Runs `action`; when it fails, returns an InvalidArgument Status whose
/// message is `what` followed by each error reported on `context` while it
/// ran, one per line with its location.
Status captureDiagnostics(mlir::MLIRContext *context, const char *what,
                          llvm::function_ref<mlir::LogicalResult()> action);

} // namespace openks::fleet

#endif // OPENKS_LIB_FLEET_DIAGNOSTICS_H
