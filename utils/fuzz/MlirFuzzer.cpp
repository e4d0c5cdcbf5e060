//===- MlirFuzzer.cpp - Fuzz the .mlir front of openks-opt ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Takes the input as .mlir text and does what openks-opt does with it: the
// bracket-nesting check, parsing and verification, then, on copies of the
// module, the minimize pipeline, the transpile pipeline and each transpile
// pass alone, verifying after every pass. Errors are expected; crashes,
// hangs and sanitizer reports are what the fuzzer looks for.
//
//===----------------------------------------------------------------------===//

#include "openks/InitAllDialects.h"
#include "openks/Support/InputGuard.h"
#include "openks/InitAllPasses.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

using namespace mlir;

/// The pipelines every parsed module goes through, each on its own copy.
static const char *const kPipelines[] = {
    "builtin.module(openks-minimize{optimizer=adam lr=0.01})",
    "builtin.module(openks-minimize{optimizer=momentum lr-schedule=piecewise "
    "boundaries=2 values=0.1,0.01}, openks-transpile{pservers=127.0.0.1:1,"
    "127.0.0.1:2 trainers=2 min-block-size=1})",
    "builtin.module(openks-transpile{pservers=127.0.0.1:1,127.0.0.1:2,"
    "127.0.0.1:3 trainers=3 mode=geo split-method=hash-name})",
    "builtin.module(openks-configure-job{pservers=127.0.0.1:1 mode=async})",
    "builtin.module(openks-slice-variables)",
    "builtin.module(openks-dispatch)",
    "builtin.module(openks-build-servers)",
    "builtin.module(openks-insert-send-recv)",
    "builtin.module(openks-ps-report{list-blocks})",
};

/// Returns the context shared by all runs, with every dialect and pass.
static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    openks::registerAllPasses();
    DialectRegistry registry;
    openks::registerAllDialects(registry);
    auto *context = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->printOpOnDiagnostic(false);
    return context;
  }();
  return *context;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A copy ends in a NUL, as every file the tools read does; MLIR's lexer
  // relies on it.
  std::string text(reinterpret_cast<const char *>(data), size);
  if (!openks::checkNestingDepth(text, openks::kMaxNestingDepth).isOk())
    return 0;
  MLIRContext &context = getContext();
  // Diagnostics are the expected outcome; drop them.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module =
      parseSourceString<ModuleOp>(text, &context, "fuzz.mlir");
  if (!module)
    return 0;
  for (const char *pipeline : kPipelines) {
    OwningOpRef<ModuleOp> copy(cast<ModuleOp>((*module)->clone()));
    PassManager pm(&context);
    std::string errors;
    llvm::raw_string_ostream errorStream(errors);
    if (failed(parsePassPipeline(pipeline, pm, errorStream)))
      __builtin_trap(); // The pipelines above are valid.
    // openks-ps-report prints to stdout; the output is not the point.
    (void)pm.run(*copy);
  }
  return 0;
}
