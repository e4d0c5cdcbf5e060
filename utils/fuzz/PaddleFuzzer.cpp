//===- PaddleFuzzer.cpp - Fuzz the Paddle ProgramDesc importer ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Takes the input as a serialized ProgramDesc and does what openks-translate
// does with it: imports it into the paddle dialect, exports the program and
// imports the export again, and maps it onto train ops (with the program as
// its own startup program) and writes that back as a main and a startup
// program. Errors are expected; crashes, hangs, sanitizer reports and
// broken round trips (an export that does not import, or imports to
// another module) are what the fuzzer looks for.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/Interop/Paddle.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

using namespace mlir;

/// Returns the context shared by all runs, with the dialects loaded.
static MLIRContext &getContext() {
  static MLIRContext *context = [] {
    DialectRegistry registry;
    openks::registerAllDialects(registry);
    registry.insert<openks::paddle::PaddleDialect>();
    auto *context = new MLIRContext(registry, MLIRContext::Threading::DISABLED);
    context->loadAllAvailableDialects();
    context->printOpOnDiagnostic(false);
    return context;
  }();
  return *context;
}

/// Returns the one paddle.program of `module`.
static openks::paddle::ProgramOp getProgram(ModuleOp module) {
  return *module.getBody()->getOps<openks::paddle::ProgramOp>().begin();
}

/// Returns `op` printed in the generic form.
static std::string print(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  op->print(os, OpPrintingFlags().printGenericOpForm());
  return text;
}

/// Serializes the paddle.program of `module`; a verified program always
/// serializes.
static std::string serialize(ModuleOp module) {
  std::string bytes;
  llvm::raw_string_ostream os(bytes);
  if (failed(openks::exportPaddleProgram(getProgram(module), os)))
    __builtin_trap();
  return bytes;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  MLIRContext &context = getContext();
  // Diagnostics are the expected outcome; drop them.
  ScopedDiagnosticHandler quiet(&context,
                                [](Diagnostic &) { return success(); });
  llvm::StringRef bytes(reinterpret_cast<const char *>(data), size);
  OwningOpRef<ModuleOp> module =
      openks::importPaddleProgram(bytes, &context, "fuzz.pb");
  if (!module)
    return 0;

  // An imported program exports to bytes that import to the same module.
  std::string exported = serialize(*module);
  OwningOpRef<ModuleOp> again =
      openks::importPaddleProgram(exported, &context, "export.pb");
  if (!again || print(*module) != print(*again))
    __builtin_trap();

  openks::paddle::ProgramOp program = getProgram(*module);
  OwningOpRef<ModuleOp> trained =
      openks::convertPaddleToTrain(program, program);
  if (!trained)
    return 0;
  auto trainProgram =
      *trained->getBody()->getOps<openks::train::ProgramOp>().begin();
  for (auto part :
       {openks::TrainProgramPart::Main, openks::TrainProgramPart::Startup}) {
    OwningOpRef<ModuleOp> paddle =
        openks::convertTrainToPaddle(trainProgram, part);
    if (paddle &&
        !openks::importPaddleProgram(serialize(*paddle), &context, "train.pb"))
      __builtin_trap();
  }
  return 0;
}
