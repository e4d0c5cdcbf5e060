//===- PSJobVerifier.h - Whole-job checks of a worker -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The checks that tie a worker program to the servers of its module: what
// one side sends, the other must expect. Run by ps.worker's symbol-use
// verifier, when every op of the module has been verified on its own.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_PS_IR_PSJOBVERIFIER_H
#define OPENKS_DIALECT_PS_IR_PSJOBVERIFIER_H

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"

namespace openks::ps {

/// The steps a worker names; `geoPush` is null outside geo mode.
struct WorkerSteps {
  train::StepOp main, startup, geoPush;
};

/// Verifies the job of `worker`'s module against `worker`, whose `steps`
/// have been resolved and whose communication ops have checked their own
/// symbols: the job attribute and one server per endpoint, the traffic and
/// barriers of each step, that every update region is fed, and that no
/// block is owned twice.
mlir::LogicalResult verifyJob(WorkerOp worker, WorkerSteps steps);

} // namespace openks::ps

#endif // OPENKS_DIALECT_PS_IR_PSJOBVERIFIER_H
