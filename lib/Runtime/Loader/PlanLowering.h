//===- PlanLowering.h - The lowering of one region to a plan ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime/Loader: the state of building one plan, shared by
// the files that lower its ops. PlanBuilder.cpp lowers the train dialect and
// the data movement of the ps dialect (split, concat); OptimizerLowering.cpp
// lowers the optimizer ops; ModelOpLowering.cpp the train ops of the model
// .td files; UpstreamOpLowering.cpp the arith, math, tensor and linalg ops;
// CommunicationLowering.cpp lowers the ops that talk to servers.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_LOADER_PLANLOWERING_H
#define OPENKS_LIB_RUNTIME_LOADER_PLANLOWERING_H

#include "KernelCall.h"
#include "ServerDirectory.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Runtime/Loader/PlanBuilder.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <optional>
#include <string>

namespace openks::runtime::loader {

/// Returns a short "file:line:col: 'op.name'" for runtime error messages.
std::string describe(mlir::Operation *op);

/// Builds one plan; see buildPlan.
class PlanLowering {
public:
  PlanLowering(const ParameterStore &store, const PlanOptions &options)
      : store(store), options(options), builder(store) {}

  mlir::FailureOr<Plan> build(mlir::Region &body);

private:
  mlir::LogicalResult addInputs(mlir::Block &block);
  /// Finds the received blocks that land straight in their parameter
  /// (CommunicationLowering.cpp).
  mlir::LogicalResult planInPlaceReceives(mlir::Block &block);
  /// Checks that every value of `block` fits a tensor at the largest batch.
  mlir::LogicalResult checkCapacities(mlir::Block &block);
  /// Returns the elements a value of `type` needs at the largest batch, or
  /// nothing when that is more than a tensor may hold.
  std::optional<int64_t> getCapacity(mlir::RankedTensorType type) const;
  mlir::LogicalResult lower(mlir::Operation *op);
  mlir::LogicalResult lowerRead(train::ReadOp op);
  mlir::LogicalResult lowerYield(train::YieldOp op);
  mlir::LogicalResult lowerFill(train::FillOp op);
  /// Lowers an optimizer op (OptimizerLowering.cpp).
  mlir::LogicalResult lowerOptimizer(train::OptimizerOpInterface op);
  /// Lowers ps.send, ps.recv, the barriers and ps.reduce_norm
  /// (CommunicationLowering.cpp).
  mlir::LogicalResult lowerCommunication(mlir::Operation *op);
  /// Lowers a server's clip by a shared norm, which ends its plan's first
  /// stage (CommunicationLowering.cpp).
  mlir::LogicalResult lowerSharedNormClip(ps::ClipByGlobalNormOp clip);
  /// Lowers the ops of knowledge-graph, click and word2vec models: math,
  /// norms, cosines, losses, pooling and sampling (ModelOpLowering.cpp).
  /// Returns nothing for any other op.
  std::optional<mlir::LogicalResult> lowerModelOp(mlir::Operation *op);
  /// Lowers the upstream arith, math, tensor and linalg ops the runtime
  /// runs, and refuses the others of those dialects
  /// (UpstreamOpLowering.cpp). Returns nothing for ops of other dialects.
  std::optional<mlir::LogicalResult> lowerUpstreamOp(mlir::Operation *op);

  /// Returns the parameter `name` after checking that the store has it, with
  /// the element type and shape of `type` if given; reports on `op` if not.
  mlir::FailureOr<ParameterId> lookupParameter(mlir::Operation *op,
                                               mlir::FlatSymbolRefAttr name,
                                               mlir::Type type = {});
  /// Returns the position of the last op that uses `value`, directly or
  /// through the ops that pass its buffer on.
  unsigned getLastUse(mlir::Value value);
  /// Returns the position of the last op that uses the ids of the
  /// row-sparse `rows`, through any value that shares them.
  unsigned getLastUseOfIds(mlir::Value rows);
  /// Lets `sharer` read the ids slot of the row-sparse `rows`.
  void shareIds(mlir::Value rows, mlir::Value sharer);
  /// Returns the numbers of the servers and blocks of the module `op` is
  /// in, building them on first use.
  mlir::FailureOr<const ServerDirectory *> getDirectory(mlir::Operation *op);

  /// Returns the slot of an already lowered value.
  In in(mlir::Value value) { return {slots.lookup(value)}; }
  /// Returns the slots of already lowered values.
  Ins in(mlir::ValueRange values);
  /// Creates the slot of `value`, sized for the largest batch; a scalar is
  /// a rank-0 tensor.
  Out out(mlir::Value value);
  /// Creates the slots of `values`.
  Outs out(mlir::ValueRange values);
  /// Returns the slot of the ids of an already lowered row-sparse value
  /// (that of its rows is in(value)).
  In rowIds(mlir::Value value) { return {rowIdSlots.lookup(value)}; }
  /// Returns the slots of the ids of already lowered row-sparse values.
  Ins rowIds(mlir::ValueRange values);
  /// Returns the slots of an already lowered gradient, dense or row-sparse.
  GradIn gradient(mlir::Value value);
  /// Creates the slots of the row-sparse `value`, its ids and its rows,
  /// with room for `maxRows` rows (fewer if the table has fewer).
  std::pair<Out, Out> outRows(mlir::Value value, int64_t maxRows);
  /// Returns the slots a lookup of `ids` in `table` reads, and its padding
  /// id: those of its operands, or when the table is a row-sparse value
  /// (prefetched rows), its rows and the positions of the ids among them,
  /// which `op` finds first (padding ids at -1).
  mlir::FailureOr<std::tuple<In, In, std::optional<int64_t>>>
  lookupOperands(mlir::Operation *op, mlir::Value table, mlir::Value ids,
                 std::optional<int64_t> paddingIdx);
  /// Returns the number of rows the slots of an already lowered row-sparse
  /// value hold without reallocation.
  int64_t getRowCapacity(mlir::Value value) const;
  /// Returns the parameter an op updates through the symbol `name`.
  mlir::FailureOr<ParamOut> update(mlir::Operation *op,
                                   mlir::FlatSymbolRefAttr name);

  /// Appends a call of `kernel` on `args` (see KernelCall.h).
  template <typename Kernel, typename... Args>
  mlir::LogicalResult call(mlir::Operation *op, Kernel kernel, Args... args) {
    CallUses uses = collectUses(builder, args...);
    builder.addInstruction(bindKernel(kernel, args...), describe(op),
                           std::move(uses.slots), std::move(uses.reads),
                           std::move(uses.writes));
    return mlir::success();
  }

  const ParameterStore &store;
  const PlanOptions &options;
  Plan::Builder builder;
  llvm::DenseMap<mlir::Value, SlotId> slots;
  /// The slots of the ids of row-sparse values (`slots` has their rows).
  llvm::DenseMap<mlir::Value, SlotId> rowIdSlots;
  /// The values that read an ids slot of more than one value (a scaled
  /// row-sparse value keeps its input's ids; train.row_ids reads them).
  llvm::DenseMap<SlotId, llvm::SmallVector<mlir::Value>> idSlotSharers;
  /// The position of each op of the body, for the read sharing rule.
  llvm::DenseMap<mlir::Operation *, unsigned> positions;
  /// The positions of the ops that write each parameter.
  llvm::DenseMap<ParameterId, llvm::SmallVector<unsigned>> writers;
  /// The ops lowered as part of a batch begun by an op before them.
  llvm::DenseSet<mlir::Operation *> batched;
  /// Where a received value lands in place: its parameter, and which rows
  /// of it unless the whole; and whether it is a Plan::BlockReceive.
  struct Landing {
    ParameterId parameter;
    std::optional<Plan::RowRange> rows;
    bool blockReceive;
  };
  /// The received values that land in place.
  llvm::DenseMap<mlir::Value, Landing> landings;
  /// The ps.concat and train.write ops that blocks received in place make
  /// redundant.
  llvm::DenseSet<mlir::Operation *> landed;
  std::optional<ServerDirectory> directory;
};

} // namespace openks::runtime::loader

#endif // OPENKS_LIB_RUNTIME_LOADER_PLANLOWERING_H
