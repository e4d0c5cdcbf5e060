//===- openks-reduce.cpp - The OpenKS test-case reducer -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An mlir-reduce that knows the dialects openks-opt knows (see
// ToolDialects.h) and the passes it runs, so a failing OpenKS program can be
// cut down to the ops the failure needs. Stock mlir-reduce takes no dialect
// plugin, so it cannot parse the input. The reduction passes
// (`reduction-tree`, `opt-reduction-pass`) come with mlirReduceMain; the
// OpenKS passes and the generic transformations are registered here so that
// `opt-reduction-pass` can run them. See docs/Editors.md for a worked
// example.
//
//===----------------------------------------------------------------------===//

#include "openks/InitAllPasses.h"

#include "ToolDialects.h"
#include "ToolVersion.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Tools/mlir-reduce/MlirReduceMain.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

int main(int argc, char **argv) {
  // mlirReduceMain sets up llvm::InitLLVM and registers the reducer passes.
  openks::tools::printOpenKSVersionFirst("openks-reduce");
  registerTransformsPasses();
  openks::registerAllPasses();
  DialectRegistry registry;
  openks::tools::registerToolDialects(registry);
  MLIRContext context(registry);
  return failed(mlirReduceMain(argc, argv, context));
}
