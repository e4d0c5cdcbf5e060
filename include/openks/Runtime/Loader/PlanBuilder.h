//===- PlanBuilder.h - Build execution plans from train IR ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// The one place where the runtime meets MLIR: turns a verified `train.step`
// and the parameters of its enclosing program into a Plan. Every value gets
// its buffer here, sized for the largest batch, and every op one kernel
// call; after this nothing walks the IR.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_LOADER_PLANBUILDER_H
#define OPENKS_RUNTIME_LOADER_PLANBUILDER_H

#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Runtime/Plan.h"

#include "mlir/Support/LLVM.h"

namespace openks::runtime {

/// How to build a plan.
struct PlanOptions {
  /// Dynamic dimensions (the batch) are given room for this many rows.
  int64_t maxBatch = 1;
  /// Mixed into every initializer seed (see mixSeed); 0 keeps the IR's.
  uint64_t runSeed = 0;
};

/// Builds the plan of `step`, whose parameters are the parameter ops of the
/// symbol table around it. An op the runtime cannot run is reported as an
/// error on that op.
mlir::FailureOr<Plan> buildPlan(train::StepOp step, const PlanOptions &options);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_LOADER_PLANBUILDER_H
