//===- PlanBuilder.h - Build stores and plans from IR -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one place where the runtime meets MLIR. A role's parameters become a
// ParameterStore, built from the symbol table that declares them; each of its
// straight-line regions becomes a Plan against that store. Every value gets
// its slot here, sized for the largest batch, and every op one kernel call;
// after this nothing walks the IR.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_LOADER_PLANBUILDER_H
#define OPENKS_RUNTIME_LOADER_PLANBUILDER_H

#include "openks/Runtime/ParameterStore.h"
#include "openks/Runtime/Plan.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Region.h"
#include "mlir/Support/LLVM.h"

namespace openks::runtime {

/// How to build stores and plans.
struct PlanOptions {
  /// Dynamic dimensions (the batch) are given room for this many rows.
  int64_t maxBatch = 1;
  /// Mixed into every initializer seed (see mixSeed); 0 keeps the IR's.
  uint64_t runSeed = 0;
  /// Whether values that are not live at once share buffers (see Plan.h);
  /// turning it off only helps to tell whether a kernel reads a buffer it
  /// did not write.
  bool shareBuffers = true;
};

/// Builds the store of the parameters declared in the body of `symbolTable`
/// (a `train.program`, a `ps.worker` or a `ps.server`): one parameter, not
/// yet initialised, per op implementing `train::ParameterOpInterface`, in
/// body order, named by its symbol. A `ps.block` that is a row slice keeps
/// its rows' offset and its origin's whole shape, so initialising it yields
/// exactly those rows of the whole parameter. A parameter of an element
/// type the runtime has no tensors of is reported as an error on its op.
mlir::FailureOr<ParameterStore>
buildParameterStore(mlir::Operation *symbolTable, const PlanOptions &options);

/// Builds the plan of `body`, a single-block region such as the body of a
/// `train.step` or of a `ps.update`, against `store` (built from the symbol
/// table the region's parameter references resolve in). The block's
/// arguments are the plan's inputs, in order; the values of a terminating
/// `train.yield` are its outputs, named by the step's `train.name` result
/// attributes (else "loss" for the first, "result<i>" for the others). An op
/// the runtime cannot run, or a parameter reference the store does not
/// match, is reported as an error on that op.
mlir::FailureOr<Plan> buildPlan(mlir::Region &body, const ParameterStore &store,
                                const PlanOptions &options);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_LOADER_PLANBUILDER_H
