//===- TranslateRegistration.cpp - Register the Paddle translations -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `--import-paddle-program` reads a ProgramDesc into the `paddle` dialect,
// or with `--paddle-to-train` (and `--paddle-startup-program=<file>`) into
// a `train.program`. `--export-paddle-program` writes the one
// `paddle.program` or `train.program` of a module as a ProgramDesc, a
// `train.program`'s startup program with `--paddle-export-startup`.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/Interop/Paddle.h"
#include "openks/Support/InputGuard.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace openks;

/// Returns the only op of type `OpTy` in the body of `module`, or null.
template <typename OpTy> static OpTy getOnlyProgram(ModuleOp module) {
  auto programs = module.getBody()->getOps<OpTy>();
  if (programs.empty() || std::next(programs.begin()) != programs.end())
    return {};
  return *programs.begin();
}

/// Imports the main program of `sourceMgr` within `limits`, and maps it onto
/// `train` ops with `toTrain`, the startup program read from `startupFile`.
/// The two programs of `toTrain` get half of every limit each, so that
/// together they take no more memory than one program may.
static OwningOpRef<Operation *>
importProgram(llvm::SourceMgr &sourceMgr, MLIRContext *context, bool toTrain,
              StringRef startupFile, PaddleImportLimits limits) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (toTrain) {
    limits.maxMessages /= 2;
    limits.maxValues /= 2;
    limits.maxStringBytes /= 2;
  }
  OwningOpRef<ModuleOp> main = importPaddleProgram(
      buffer->getBuffer(), context, buffer->getBufferIdentifier(), limits);
  if (!main)
    return {};
  if (!toTrain) {
    if (!startupFile.empty()) {
      emitError(UnknownLoc::get(context))
          << "--paddle-startup-program needs --paddle-to-train";
      return {};
    }
    return main;
  }
  OwningOpRef<ModuleOp> startup;
  if (!startupFile.empty()) {
    StatusOr<std::string> bytes =
        readBoundedInput(startupFile.str(), kDefaultMaxInputBytes);
    if (!bytes) {
      emitError(UnknownLoc::get(context)) << bytes.status().message();
      return {};
    }
    startup = importPaddleProgram(*bytes, context, startupFile, limits);
    if (!startup)
      return {};
  }
  return convertPaddleToTrain(getOnlyProgram<paddle::ProgramOp>(*main),
                              startup
                                  ? getOnlyProgram<paddle::ProgramOp>(*startup)
                                  : paddle::ProgramOp());
}

/// Parses the module of `sourceMgr` and writes its program as a
/// ProgramDesc.
static LogicalResult exportProgram(llvm::SourceMgr &sourceMgr,
                                   raw_ostream &output, MLIRContext *context,
                                   bool startup) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (Status nesting = checkNestingDepth(buffer->getBuffer(), kMaxNestingDepth);
      !nesting.isOk())
    return emitError(UnknownLoc::get(context))
           << buffer->getBufferIdentifier() << ": " << nesting.message();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    return failure();
  if (auto program = getOnlyProgram<paddle::ProgramOp>(*module)) {
    if (startup)
      return emitError(program.getLoc())
             << "a paddle.program has no startup program: "
                "--paddle-export-startup applies to a train.program";
    return exportPaddleProgram(program, output);
  }
  auto program = getOnlyProgram<train::ProgramOp>(*module);
  if (!program)
    return emitError(module->getLoc())
           << "expected the module to hold one paddle.program or one "
              "train.program";
  OwningOpRef<ModuleOp> converted = convertTrainToPaddle(
      program, startup ? TrainProgramPart::Startup : TrainProgramPart::Main);
  if (!converted)
    return failure();
  return exportPaddleProgram(getOnlyProgram<paddle::ProgramOp>(*converted),
                             output);
}

void openks::registerPaddleTranslations() {
  static llvm::cl::opt<bool> toTrain(
      "paddle-to-train",
      llvm::cl::desc("With --import-paddle-program: map the program onto "
                     "train ops in a train.program"));
  static llvm::cl::opt<std::string> startupFile(
      "paddle-startup-program",
      llvm::cl::desc("With --paddle-to-train: the startup program that "
                     "initializes the parameters"),
      llvm::cl::value_desc("filename"));
  static llvm::cl::opt<bool> exportStartup(
      "paddle-export-startup",
      llvm::cl::desc("With --export-paddle-program of a train.program: "
                     "write its startup program"));
  PaddleImportLimits defaults;
  static llvm::cl::opt<uint64_t> maxMessages(
      "paddle-max-messages",
      llvm::cl::desc("With --import-paddle-program: refuse programs of more "
                     "messages (blocks, variables, ops, attributes, ...)"),
      llvm::cl::init(defaults.maxMessages));
  static llvm::cl::opt<uint64_t> maxValues(
      "paddle-max-values",
      llvm::cl::desc("With --import-paddle-program: refuse programs of more "
                     "values of lists and unknown fields"),
      llvm::cl::init(defaults.maxValues));
  static llvm::cl::opt<uint64_t> maxStringBytes(
      "paddle-max-string-bytes",
      llvm::cl::desc("With --import-paddle-program: refuse programs of more "
                     "bytes of strings"),
      llvm::cl::init(defaults.maxStringBytes));

  TranslateToMLIRRegistration importRegistration(
      "import-paddle-program", "Import a serialized Paddle ProgramDesc",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return importProgram(
            sourceMgr, context, toTrain, startupFile,
            PaddleImportLimits{maxMessages, maxValues, maxStringBytes});
      },
      [](DialectRegistry &registry) {
        registry.insert<paddle::PaddleDialect, train::TrainDialect>();
      });

  TranslateRegistration exportRegistration(
      "export-paddle-program", "Export a Paddle ProgramDesc",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &output,
         MLIRContext *context) {
        DialectRegistry registry;
        registerAllDialects(registry);
        context->appendDialectRegistry(registry);
        return exportProgram(*sourceMgr, output, context, exportStartup);
      });
}
