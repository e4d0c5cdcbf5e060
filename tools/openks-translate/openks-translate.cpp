//===- openks-translate.cpp - The OpenKS translation driver ---------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// An mlir-translate style driver for the translations between OpenKS IR
// and other formats: `--import-paddle-program` and
// `--export-paddle-program` (PaddlePaddle ProgramDesc files). Like
// openks-opt, it reads its input with a size limit, so an endless input
// gets an error instead of exhausting memory, and a failed write of its
// output is an error naming the file.
//
//===----------------------------------------------------------------------===//

#include "openks/Interop/Paddle.h"
#include "openks/Support/InputGuard.h"

#include "ToolOutput.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
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

/// Reads the input, runs `translation` on it and writes the output.
static LogicalResult run(const Translation &translation,
                         const std::string &inputFilename,
                         const std::string &outputFilename,
                         uint64_t maxInputBytes) {
  openks::StatusOr<std::string> input =
      openks::readBoundedInput(inputFilename, maxInputBytes);
  if (!input)
    return fail(input.status().message());
  return openks::tools::writeOutputFile(
      outputFilename, kToolName, [&](llvm::raw_ostream &os) {
        // The buffer refers to `input`, which outlives it: an input of a
        // gigabyte is in memory once.
        auto sourceMgr = std::make_shared<llvm::SourceMgr>();
        sourceMgr->AddNewSourceBuffer(
            llvm::MemoryBuffer::getMemBuffer(*input, inputFilename),
            llvm::SMLoc());
        MLIRContext context;
        SourceMgrDiagnosticHandler diagnostics(*sourceMgr, &context);
        return translation(sourceMgr, os, &context);
      });
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  openks::tools::failWritesPastTheSizeLimit();
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
  // Built after the registrations: it lists the registered translations.
  static llvm::cl::opt<const Translation *, false, TranslationParser>
      translation("", llvm::cl::desc("Translation to perform"),
                  llvm::cl::Required);
  llvm::cl::ParseCommandLineOptions(argc, argv, "OpenKS translation driver\n");
  return failed(run(*translation, inputFilename, outputFilename, maxInputBytes))
             ? EXIT_FAILURE
             : EXIT_SUCCESS;
}
