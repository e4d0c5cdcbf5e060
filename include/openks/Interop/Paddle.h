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
// `paddle.program` that exports back to an equivalent ProgramDesc. A
// training program whose ops all have `train` counterparts also imports
// into a `train.program`, with the initializers of its parameters taken
// from the startup program; `train.program`s export to a main and a
// startup ProgramDesc.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_INTEROP_PADDLE_H
#define OPENKS_INTEROP_PADDLE_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace openks {
namespace paddle {
class ProgramOp;
} // namespace paddle
namespace train {
class ProgramOp;
} // namespace train

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

/// Converts a Paddle training program (`main`, block 0) into a module
/// holding a `train.program @main` with one step. Persistable tensors
/// become `train.param`s with the initializers the ops of `startup` give
/// them (`fill_constant`, `uniform_random`, `gaussian_random`); `startup`
/// may be null when there are none. Fails, on the op at fault, when an op
/// has no `train` counterpart or uses a feature the counterpart lacks.
mlir::OwningOpRef<mlir::ModuleOp>
convertPaddleToTrain(paddle::ProgramOp main, paddle::ProgramOp startup);

/// Which program of a `train.program` to write as Paddle.
enum class TrainProgramPart {
  /// The step: feed ops, forward, backward and optimizer ops, fetch ops.
  Main,
  /// One initializer op per parameter.
  Startup,
};

/// Converts `program` (one step) into a module holding the `paddle.program`
/// of `part`. Fails, on the op at fault, when an op has no Paddle
/// counterpart.
mlir::OwningOpRef<mlir::ModuleOp> convertTrainToPaddle(train::ProgramOp program,
                                                       TrainProgramPart part);

/// Registers `--import-paddle-program` and `--export-paddle-program` with
/// MLIR's translation registry, and their options.
void registerPaddleTranslations();

} // namespace openks

#endif // OPENKS_INTEROP_PADDLE_H
