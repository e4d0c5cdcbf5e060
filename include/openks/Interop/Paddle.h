//===- Paddle.h - PaddlePaddle ProgramDesc import and export ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Reading and writing serialized PaddlePaddle programs (ProgramDesc, the
// `__model__` and `*.pdmodel` files of Paddle 1.x and 2.x).
//
// A program imports losslessly into the `paddle` dialect: one
// `paddle.program` that exports back to an equivalent ProgramDesc.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_INTEROP_PADDLE_H
#define OPENKS_INTEROP_PADDLE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

namespace openks {
namespace paddle {
class ProgramOp;
} // namespace paddle

/// Imports the serialized ProgramDesc `bytes` as a module holding one
/// `paddle.program`. Errors (a damaged or truncated file, an empty one, a
/// missing required field, duplicate names, a block index that names no
/// block) are reported at `bufferName` with the byte offset or the path of
/// the field (`blocks[0].ops[3]`), and yield null.
mlir::OwningOpRef<mlir::ModuleOp>
importPaddleProgram(llvm::StringRef bytes, mlir::MLIRContext *context,
                    llvm::StringRef bufferName = "<paddle program>");

/// Writes `program` as a serialized ProgramDesc to `os`.
mlir::LogicalResult exportPaddleProgram(paddle::ProgramOp program,
                                        llvm::raw_ostream &os);

/// Registers `--import-paddle-program` and `--export-paddle-program` with
/// MLIR's translation registry.
void registerPaddleTranslations();

} // namespace openks

#endif // OPENKS_INTEROP_PADDLE_H
