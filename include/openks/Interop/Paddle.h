//===- Paddle.h - PaddlePaddle ProgramDesc import and export ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

#include <cstdint>
#include <optional>

namespace openks {
namespace paddle {
class ProgramOp;
} // namespace paddle
namespace train {
class ProgramOp;
} // namespace train

/// What a ProgramDesc may hold to be imported. Protobuf objects and MLIR
/// ops and attributes take up to about 1 KiB per message, 100 bytes per
/// value and twice the string bytes, so the defaults bound an import to
/// about 1.5 GiB besides its input, whatever the shape of the file
/// (docs/Interop.md has the figures). Real programs hold a few ten
/// thousand messages and values, and a few MB of strings.
struct PaddleImportLimits {
  /// Nested messages: blocks, variables, ops, attributes, slots and the
  /// messages in them.
  uint64_t maxMessages = uint64_t(1) << 20;
  /// Values of repeated fields (list attributes, slot arguments, dims) and
  /// fields outside the schema.
  uint64_t maxValues = uint64_t(1) << 22;
  /// Bytes of strings and of fields outside the schema: 256 MiB.
  uint64_t maxStringBytes = uint64_t(1) << 28;
};

/// Imports the serialized ProgramDesc `bytes` as a module holding one
/// `paddle.program`. Errors (a damaged or truncated file, an empty one, a
/// file that holds more than `limits` allow, a missing required field,
/// duplicate names, a block index that names no block, a cycle of blocks)
/// are reported at `bufferName` with the byte offset or the path of the
/// field (`blocks[0].ops[3]`), and yield null. A file beyond the limits is
/// refused before anything is allocated for it.
mlir::OwningOpRef<mlir::ModuleOp>
importPaddleProgram(llvm::StringRef bytes, mlir::MLIRContext *context,
                    llvm::StringRef bufferName = "<paddle program>",
                    const PaddleImportLimits &limits = {});

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
