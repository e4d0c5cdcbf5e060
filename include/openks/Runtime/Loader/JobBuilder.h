//===- JobBuilder.h - Load a transpiled module as a job ---------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns a module transpiled by openks-transpile (a `#ps.job`, one
// `ps.worker`, one `ps.server` per endpoint) into a JobSpec: the worker's
// store and its main, startup and GEO push plans, whose communication ops
// call the transport; and for each server its blocks, initialised
// slice-consistently, and one plan per `ps.update` region. Ops the runtime
// cannot run are reported on the op, with its location.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_LOADER_JOBBUILDER_H
#define OPENKS_RUNTIME_LOADER_JOBBUILDER_H

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/Loader/PlanBuilder.h"

#include "mlir/IR/BuiltinOps.h"

namespace openks::runtime {

/// Builds the roles `roles` of the job of the transpiled `module`, and the
/// layout of every server; the module must verify.
mlir::FailureOr<JobSpec>
buildJob(mlir::ModuleOp module, const PlanOptions &options,
         RoleSelection roles = RoleSelection::everything());

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_LOADER_JOBBUILDER_H
