//===- openks-lsp-server.cpp - The OpenKS language server -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An mlir-lsp-server that knows the dialects openks-opt knows (the `train`,
// `ps` and `paddle` dialects and the upstream ones, see ToolDialects.h), so
// an editor shows parse and verifier errors of OpenKS IR as you type, and
// offers hover, go-to-definition, references and completion on it.
// Stock mlir-lsp-server takes no dialect plugin, so it cannot. The server
// speaks the Language Server Protocol on standard input and output; see
// docs/Editors.md for pointing an editor at it.
//
//===----------------------------------------------------------------------===//

#include "ToolDialects.h"
#include "ToolVersion.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-lsp-server/MlirLspServerMain.h"
#include "llvm/Support/InitLLVM.h"

using namespace mlir;

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  openks::tools::printOpenKSVersionFirst("openks-lsp-server");
  DialectRegistry registry;
  openks::tools::registerToolDialects(registry);
  return failed(MlirLspServerMain(argc, argv, registry));
}
