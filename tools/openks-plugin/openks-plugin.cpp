//===- openks-plugin.cpp - OpenKS dialects and passes for mlir-opt --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A plugin that stock mlir-opt loads to parse the `train` and `ps` dialects
// and run every OpenKS pass and pipeline:
//
//   mlir-opt --load-dialect-plugin=libOpenKSPlugin.so \
//            --load-pass-plugin=libOpenKSPlugin.so ...
//
// It is linked against the shared MLIR library mlir-opt itself uses, so the
// dialects and passes live in the one copy of MLIR of the process.
//
//===----------------------------------------------------------------------===//

#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"

#include "mlir/Tools/Plugins/DialectPlugin.h"
#include "mlir/Tools/Plugins/PassPlugin.h"
#include "llvm/Config/llvm-config.h"

using namespace mlir;

extern "C" LLVM_ATTRIBUTE_WEAK DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OpenKS", LLVM_VERSION_STRING,
          [](DialectRegistry *registry) {
            openks::registerAllDialects(*registry);
          }};
}

extern "C" LLVM_ATTRIBUTE_WEAK PassPluginLibraryInfo mlirGetPassPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "OpenKS", LLVM_VERSION_STRING,
          [] { openks::registerAllPasses(); }};
}
