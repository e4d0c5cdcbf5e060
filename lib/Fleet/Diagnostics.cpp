//===- Diagnostics.cpp - MLIR diagnostics as a Status ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "mlir/IR/Diagnostics.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace openks;

Status
openks::fleet::captureDiagnostics(MLIRContext *context, const char *what,
                                  llvm::function_ref<LogicalResult()> action) {
  std::string errors;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diagnostic) {
    if (diagnostic.getSeverity() != DiagnosticSeverity::Error)
      return success();
    llvm::raw_string_ostream os(errors);
    os << "\n  " << diagnostic.getLocation() << ": " << diagnostic;
    return success();
  });
  if (succeeded(action()))
    return Status::ok();
  return Status::invalidArgument("{}{}", what, errors);
}
