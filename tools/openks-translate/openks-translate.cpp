//===- openks-translate.cpp - The OpenKS translation driver ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An mlir-translate style driver for the translations between OpenKS IR
// and other formats: `--import-paddle-program` and
// `--export-paddle-program` (PaddlePaddle ProgramDesc files). It keeps
// mlir-translate's conventions: `-split-input-file[=marker]` translates each
// chunk of the input on its own (joined by `-output-split-marker`), and
// `-verify-diagnostics` checks the diagnostics against the input's
// `expected-*` lines instead of printing them. It is not built on
// mlirTranslateMain because, like openks-opt, it reads its input with a size
// limit, so an endless input gets an error instead of exhausting memory; a
// failed write of its output is an error naming the file.
//
//===----------------------------------------------------------------------===//

#include "openks/Interop/Paddle.h"
#include "openks/Support/InputGuard.h"

#include "ToolOutput.h"
#include "ToolVersion.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Support/ToolUtilities.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;

static constexpr llvm::StringLiteral kToolName = "openks-translate";

/// Prints `message` as the tool's error and returns failure.
static LogicalResult fail(const llvm::Twine &message) {
  llvm::errs() << kToolName << ": error: " << message << "\n";
  return failure();
}

namespace {
/// How the driver runs a translation over its input.
struct DriverOptions {
  std::string inputFilename;
  std::string outputFilename;
  uint64_t maxInputBytes;
  /// The marker that splits the input into chunks; empty: one chunk.
  std::string inputSplitMarker;
  /// The marker written between the chunks' outputs.
  std::string outputSplitMarker;
  bool verifyDiagnostics;
};
} // namespace

/// Runs `translation` on one chunk of the input, writing to `os`. With
/// `verifyDiagnostics`, the result is whether the diagnostics matched the
/// chunk's `expected-*` lines, whatever the translation returned.
static LogicalResult translateChunk(const Translation &translation,
                                    std::unique_ptr<llvm::MemoryBuffer> chunk,
                                    bool verifyDiagnostics, raw_ostream &os) {
  auto sourceMgr = std::make_shared<llvm::SourceMgr>();
  sourceMgr->AddNewSourceBuffer(std::move(chunk), llvm::SMLoc());
  MLIRContext context;
  context.printOpOnDiagnostic(!verifyDiagnostics);
  if (!verifyDiagnostics) {
    SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
    return translation(sourceMgr, os, &context);
  }
  SourceMgrDiagnosticVerifierHandler diagnostics(*sourceMgr, &context);
  (void)translation(sourceMgr, os, &context);
  return diagnostics.verify();
}

/// Reads the input, runs `translation` on it, chunk by chunk when asked to
/// split it, and writes the output.
static LogicalResult run(const Translation &translation,
                         const DriverOptions &options) {
  openks::StatusOr<std::string> input =
      openks::readBoundedInput(options.inputFilename, options.maxInputBytes);
  if (!input)
    return fail(input.status().message());
  return openks::tools::writeOutputFile(
      options.outputFilename, kToolName, [&](llvm::raw_ostream &os) {
        // The buffer refers to `input`, which outlives it: an input of a
        // gigabyte is in memory once (chunks of a split input are copies).
        return splitAndProcessBuffer(
            llvm::MemoryBuffer::getMemBuffer(*input, options.inputFilename),
            [&](std::unique_ptr<llvm::MemoryBuffer> chunk, raw_ostream &os) {
              return translateChunk(translation, std::move(chunk),
                                    options.verifyDiagnostics, os);
            },
            os, options.inputSplitMarker, options.outputSplitMarker);
      });
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  openks::tools::failWritesPastTheSizeLimit();
  openks::tools::printOpenKSVersionFirst(kToolName);
  openks::registerPaddleTranslations();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerTranslationCLOptions();

  static llvm::cl::opt<std::string> inputFilename(
      llvm::cl::Positional, llvm::cl::desc("<input file>"),
      llvm::cl::init("-"));
  static llvm::cl::opt<std::string> outputFilename(
      "o", llvm::cl::desc("Output filename"), llvm::cl::value_desc("filename"),
      llvm::cl::init("-"));
  static llvm::cl::opt<uint64_t> maxInputBytes(
      "max-input-bytes",
      llvm::cl::desc("Refuse inputs larger than this many bytes"),
      llvm::cl::init(openks::kDefaultMaxInputBytes));
  static llvm::cl::opt<std::string> inputSplitMarker(
      "split-input-file", llvm::cl::ValueOptional,
      llvm::cl::callback([](const std::string &marker) {
        // Given without a value: split on mlir-translate's marker.
        if (marker.empty())
          inputSplitMarker.setValue(kDefaultSplitMarker);
      }),
      llvm::cl::desc("Split the input into chunks at the given or the "
                     "default marker (// -----) and translate each on its "
                     "own"),
      llvm::cl::init(""));
  static llvm::cl::opt<std::string> outputSplitMarker(
      "output-split-marker",
      llvm::cl::desc("With -split-input-file: the line written between the "
                     "chunks' outputs"),
      llvm::cl::init(""));
  static llvm::cl::opt<bool> verifyDiagnostics(
      "verify-diagnostics",
      llvm::cl::desc("Check that the diagnostics match the input's "
                     "expected-* lines"),
      llvm::cl::init(false));
  // Built after the registrations: it lists the registered translations.
  static llvm::cl::opt<const Translation *, false, TranslationParser>
      translation("", llvm::cl::desc("Translation to perform"));
  llvm::cl::ParseCommandLineOptions(argc, argv, "OpenKS translation driver\n");

  if (!translation) {
    (void)fail("no translation chosen: give one of --import-paddle-program "
               "and --export-paddle-program (see --help)");
    return EXIT_FAILURE;
  }
  DriverOptions options{inputFilename,    outputFilename,    maxInputBytes,
                        inputSplitMarker, outputSplitMarker, verifyDiagnostics};
  return failed(run(*translation, options)) ? EXIT_FAILURE : EXIT_SUCCESS;
}
