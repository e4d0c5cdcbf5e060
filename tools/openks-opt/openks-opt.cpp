//===- openks-opt.cpp - The OpenKS optimizer driver -----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt style driver that knows the `train`, `ps` and `paddle` dialects,
// the upstream dialects a training compiler mixes in (func, arith, math,
// tensor, linalg, scf), the OpenKS passes and pipelines, and the generic
// MLIR transformations (canonicalize, cse, ...). Unlike stock mlir-opt it
// reads its input with a size limit and checks the nesting of brackets
// first, so an endless input or a pathologically deep one gets an error
// instead of exhausting memory or the parser's stack, and a failed write of
// its output is an error naming the file instead of an abort.
//
//===----------------------------------------------------------------------===//

#include "openks/InitAllPasses.h"
#include "openks/Support/InputGuard.h"

#include "ToolDialects.h"
#include "ToolOutput.h"
#include "ToolVersion.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;

static llvm::cl::opt<uint64_t>
    maxInputBytes("max-input-bytes",
                  llvm::cl::desc("Refuse inputs larger than this many bytes"),
                  llvm::cl::init(openks::kDefaultMaxInputBytes));

static constexpr llvm::StringLiteral kToolName = "openks-opt";

/// Prints `message` as the tool's error and returns failure.
static LogicalResult fail(const llvm::Twine &message) {
  llvm::errs() << kToolName << ": error: " << message << "\n";
  return failure();
}

/// Reads, checks and processes the input as MlirOptMain does.
static LogicalResult run(const std::string &inputFilename,
                         const std::string &outputFilename,
                         DialectRegistry &registry) {
  MlirOptMainConfig config = MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects()) {
    llvm::outs() << "Available Dialects: ";
    llvm::interleaveComma(registry.getDialectNames(), llvm::outs());
    llvm::outs() << "\n";
    return openks::tools::checkWritten(llvm::outs(), "-", kToolName);
  }
  if (config.shouldListPasses()) {
    printRegisteredPasses();
    return openks::tools::checkWritten(llvm::outs(), "-", kToolName);
  }

  openks::StatusOr<std::string> text =
      openks::readBoundedInput(inputFilename, maxInputBytes);
  if (!text)
    return fail(text.status().message());
  if (openks::Status nesting =
          openks::checkNestingDepth(*text, openks::kMaxNestingDepth);
      !nesting.isOk())
    return fail(inputFilename + ": " + nesting.message());

  return openks::tools::writeOutputFile(
      outputFilename, kToolName, [&](llvm::raw_ostream &os) {
        return MlirOptMain(
            os, llvm::MemoryBuffer::getMemBufferCopy(*text, inputFilename),
            registry, config);
      });
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  openks::tools::failWritesPastTheSizeLimit();
  openks::tools::printOpenKSVersionFirst(kToolName);
  registerTransformsPasses();
  openks::registerAllPasses();
  DialectRegistry registry;
  openks::tools::registerToolDialects(registry);
  auto [inputFilename, outputFilename] = registerAndParseCLIOptions(
      argc, argv, "OpenKS optimizer driver\n", registry);
  return asMainReturnCode(run(inputFilename, outputFilename, registry));
}
