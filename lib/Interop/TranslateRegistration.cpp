//===- TranslateRegistration.cpp - Register the Paddle translations -------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// `--import-paddle-program` reads a ProgramDesc into the `paddle` dialect;
// `--export-paddle-program` writes the one `paddle.program` of a module as
// a ProgramDesc.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/InitAllDialects.h"
#include "openks/Interop/Paddle.h"
#include "openks/Support/InputGuard.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Tools/mlir-translate/Translation.h"
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

/// Imports the program of `sourceMgr`.
static OwningOpRef<Operation *> importProgram(llvm::SourceMgr &sourceMgr,
                                              MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  return importPaddleProgram(buffer->getBuffer(), context,
                             buffer->getBufferIdentifier());
}

/// Parses the module of `sourceMgr` and writes its program as a
/// ProgramDesc.
static LogicalResult exportProgram(llvm::SourceMgr &sourceMgr,
                                   raw_ostream &output, MLIRContext *context) {
  const llvm::MemoryBuffer *buffer =
      sourceMgr.getMemoryBuffer(sourceMgr.getMainFileID());
  if (Status nesting = checkNestingDepth(buffer->getBuffer(), kMaxNestingDepth);
      !nesting.isOk())
    return emitError(UnknownLoc::get(context))
           << buffer->getBufferIdentifier() << ": " << nesting.message();
  OwningOpRef<ModuleOp> module = parseSourceFile<ModuleOp>(sourceMgr, context);
  if (!module)
    return failure();
  auto program = getOnlyProgram<paddle::ProgramOp>(*module);
  if (!program)
    return module->emitError("expected the module to hold one paddle.program");
  return exportPaddleProgram(program, output);
}

void openks::registerPaddleTranslations() {
  TranslateToMLIRRegistration importRegistration(
      "import-paddle-program", "Import a serialized Paddle ProgramDesc",
      [](llvm::SourceMgr &sourceMgr, MLIRContext *context) {
        return importProgram(sourceMgr, context);
      },
      [](DialectRegistry &registry) {
        registry.insert<paddle::PaddleDialect>();
      });

  TranslateRegistration exportRegistration(
      "export-paddle-program", "Export a Paddle ProgramDesc",
      [](const std::shared_ptr<llvm::SourceMgr> &sourceMgr, raw_ostream &output,
         MLIRContext *context) {
        DialectRegistry registry;
        registerAllDialects(registry);
        registry.insert<paddle::PaddleDialect>();
        context->appendDialectRegistry(registry);
        return exportProgram(*sourceMgr, output, context);
      });
}
