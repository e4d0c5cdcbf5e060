//===- Executor.h - Runs a plan over a parameter store ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// An executor binds one plan to one parameter store: it owns the plan's
// buffer slots (allocated once, at their capacity), binds every kernel call
// to them and to the store's parameters, and runs the calls in order. Several
// executors may run plans over one store at the same time, on different
// threads; one executor runs on one thread at a time.
//
// While run() runs, the executor holds the lock of every parameter its plan
// touches (Plan::accesses): exclusive for the parameters the plan writes,
// shared for those it only reads, taken in ascending index order as the
// store's locking contract requires (see ParameterStore.h). That is what lets
// a parameter slot be the parameter's own buffer within a run. Between runs
// it holds none, and its outputs are its own buffers, never a parameter's.
//
// Everything a kernel call reaches at run time comes through the Frame it
// was bound with: slots, parameters and, in a worker, the communication
// context (the transport, the trainer, the timeout).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_EXECUTOR_H
#define OPENKS_RUNTIME_EXECUTOR_H

#include "openks/Runtime/ParameterStore.h"
#include "openks/Runtime/Plan.h"
#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <vector>

namespace openks::runtime {

/// Runs one plan over one parameter store.
class Executor {
public:
  /// Allocates the buffers of `plan` and binds its kernel calls to them, to
  /// `store`, which must have the parameters the plan was built against, and
  /// to `communication` (needed by plans that communicate). All three must
  /// outlive the executor and stay where they are. Fails with
  /// ResourceExhausted when the buffers cannot be allocated.
  static StatusOr<Executor>
  create(const Plan &plan, ParameterStore &store,
         const CommunicationContext *communication = nullptr);

  Executor(Executor &&) = default;
  Executor &operator=(Executor &&) = default;

  /// Returns the input tensors, in the plan's order, to be filled (and
  /// resized within their capacity) before each run.
  const std::vector<Tensor *> &inputs() const { return inputs_; }
  /// Returns the output tensors, in the plan's order, as the last run left
  /// them.
  const std::vector<const Tensor *> &outputs() const { return outputs_; }

  /// Runs every kernel call once, holding the plan's parameter locks. An
  /// error names the failing op ("file:line:col: 'op.name': message").
  Status run();
  /// Runs the kernel calls of stage `stage` of the plan (see Plan.h), the
  /// same way; the stages of one run go in order.
  Status runStage(size_t stage);

private:
  Executor(const Plan &plan, ParameterStore &store)
      : plan_(&plan), store_(&store) {}

  /// Runs kernel calls [begin, end) holding the plan's parameter locks.
  Status runRange(size_t begin, size_t end);

  const Plan *plan_;
  ParameterStore *store_;
  /// The buffers of the plan's buffer and constant slots.
  std::vector<Tensor> buffers_;
  /// The views of the parameter slots over some rows of a parameter.
  std::vector<Tensor> views_;
  /// The tensor of each slot: its buffer, or a parameter's value.
  std::vector<Tensor *> slots_;
  std::vector<BoundKernel> kernels_;
  std::vector<Tensor *> inputs_;
  std::vector<const Tensor *> outputs_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_EXECUTOR_H
