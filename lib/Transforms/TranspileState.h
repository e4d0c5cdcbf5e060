//===- TranspileState.h - What the transpile passes share -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What every transpile pass starts from: how far the module has come
// through the pipeline, the module's job and the parameters its optimizer
// ops update.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H
#define OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace openks {

/// How far a module has come through minimize and transpile, in pipeline
/// order; each stage implies the ones before it.
enum class TranspileStage {
  /// A training program without optimizer ops.
  Forward,
  /// Its steps hold optimizer ops (openks-minimize).
  Minimized,
  /// The module carries its `#ps.job` (openks-configure-job).
  Configured,
  /// Every optimized parameter has `ps.slices` (openks-slice-variables).
  Sliced,
  /// Every optimized parameter has `ps.placement` (openks-dispatch).
  Dispatched,
  /// The module holds its `ps.server`s (openks-build-servers).
  ServersBuilt,
  /// The training program has become a `ps.worker` (openks-insert-send-recv).
  Transpiled,
};

/// An optimizer op of a training step (not of a server's update region) and
/// the parameter it updates, null when that is not a train.param.
using OptimizerUse = std::pair<train::OptimizerOpInterface, train::ParamOp>;

/// Returns the optimizer ops of `module`'s training steps in program order.
/// It walks the whole module: a pass that needs them more than once finds
/// them once and passes them on.
llvm::SmallVector<OptimizerUse> findOptimizers(mlir::ModuleOp module);

/// Checks that `module` is at a stage in [`first`, `last`], the stages
/// `pass` runs on. Otherwise reports, on the op that shows the module's
/// stage, which pass must run first or that the module is past `last`.
mlir::LogicalResult checkStage(mlir::ModuleOp module, llvm::StringRef pass,
                               TranspileStage first, TranspileStage last);

/// Checks the stage of `module` as above, given its optimizer ops
/// (findOptimizers).
mlir::LogicalResult checkStage(mlir::ModuleOp module,
                               llvm::ArrayRef<OptimizerUse> optimizers,
                               llvm::StringRef pass, TranspileStage first,
                               TranspileStage last);

/// Returns the module's `ps.job`; checkStage has made sure it exists.
ps::JobAttr getJob(mlir::ModuleOp module);

/// Returns the parameters that optimizer ops update, in the order of their
/// first update (parameter-name order after openks-append-optimizer).
/// Reports an optimizer op that updates something else than a train.param.
/// `optimizers` are the module's optimizer ops (findOptimizers).
mlir::FailureOr<llvm::SmallVector<train::ParamOp>>
getOptimizedParameters(llvm::ArrayRef<OptimizerUse> optimizers);

/// Returns `type` with `rows` rows: the type of a row block of a parameter
/// (a rank-0 parameter is its own block).
mlir::RankedTensorType withRows(mlir::RankedTensorType type, int64_t rows);

/// One block of a sliced and dispatched parameter.
struct ParamBlock {
  /// `<param>` for a single block, else `<param>.block<i>`.
  std::string name;
  int64_t rowBegin;
  int64_t rows;
  /// The index of its server among the job's endpoints.
  int64_t server;
};

/// Returns the blocks `ps.slices` and `ps.placement` of a dispatched
/// parameter describe (checkStage has made sure they exist).
llvm::SmallVector<ParamBlock> getParamBlocks(train::ParamOp param);

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
  /// When `grad` comes out of a global-norm clip (a backward-role op of the
  /// trainers): that clip, and the gradient before it.
  train::ClipByGlobalNormOp globalClip;
  mlir::Value unclippedGrad;
};

/// Returns the update of every optimized parameter, in optimizer-op order.
/// Reports a parameter updated twice and an update that depends on anything
/// but one gradient and optimize- or lr_schedule-role ops. `optimizers` are
/// the module's optimizer ops (findOptimizers).
mlir::FailureOr<llvm::SmallVector<ParamUpdate>>
getParamUpdates(llvm::ArrayRef<OptimizerUse> optimizers, llvm::StringRef pass);

} // namespace openks

#endif // OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H
