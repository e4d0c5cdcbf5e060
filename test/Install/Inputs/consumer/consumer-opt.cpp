//===- consumer-opt.cpp - An opt tool built on the installed OpenKS -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a compiler that embeds OpenKS writes: register the dialects and the
// passes (with the pipelines) in its own registry and driver.
//
//===----------------------------------------------------------------------===//

#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  openks::registerAllPasses();
  mlir::DialectRegistry registry;
  openks::registerAllDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "OpenKS consumer\n", registry));
}
