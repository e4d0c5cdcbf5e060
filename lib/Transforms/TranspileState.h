//===- TranspileState.h - What the transpile passes share -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Lookups every transpile pass starts from: the module's job and the
// parameters its optimizer ops update.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H
#define OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace openks {

/// Returns the module's `ps.job`, or reports on the module that `pass` needs
/// openks-configure-job to run first.
mlir::FailureOr<ps::JobAttr> getJob(mlir::ModuleOp module,
                                    llvm::StringRef pass);

/// Returns the parameters that optimizer ops update, in the order of their
/// first update (parameter-name order after openks-append-optimizer).
/// Reports on the module when no step has an optimizer op.
mlir::FailureOr<llvm::SmallVector<train::ParamOp>>
getOptimizedParameters(mlir::ModuleOp module, llvm::StringRef pass);

/// Returns `type` with `rows` rows: the type of a row block of a parameter
/// (a rank-0 parameter is its own block).
mlir::RankedTensorType withRows(mlir::RankedTensorType type, int64_t rows);

/// One block of a sliced and dispatched parameter.
struct ParamBlock {
  /// `<param>` for a single block, else `<param>.block<i>`.
  std::string name;
  int64_t rowBegin;
  int64_t rows;
  llvm::StringRef endpoint;
};

/// Returns the blocks `ps.slices` and `ps.placement` describe, or reports
/// on `param` that `pass` needs openks-dispatch first.
mlir::FailureOr<llvm::SmallVector<ParamBlock>>
getParamBlocks(train::ParamOp param, llvm::StringRef pass);

/// How one parameter is updated in a step: its optimizer op, the gradient
/// that arrives from the backward pass, and the optimize- and
/// lr_schedule-role ops that turn it into the update (the learning rate and
/// its schedule, weight decay, the optimizer op itself), in program order.
struct ParamUpdate {
  train::ParamOp param;
  train::OptimizerOpInterface optimizer;
  mlir::Value grad;
  llvm::SmallVector<mlir::Operation *> ops;
  /// Every other parameter the update touches: the optimizer's state, the
  /// learning rate, a schedule's step counter.
  llvm::SmallVector<mlir::StringAttr> state;
};

/// Returns the update of every optimized parameter, in optimizer-op order.
/// Reports a parameter updated twice and an update that depends on anything
/// but one gradient and optimize- or lr_schedule-role ops.
mlir::FailureOr<llvm::SmallVector<ParamUpdate>>
getParamUpdates(mlir::ModuleOp module, llvm::StringRef pass);

} // namespace openks

#endif // OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H
