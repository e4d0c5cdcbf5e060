//===- LocalTrainer.h - Training in one process -----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Single-process training: one store, one step plan, one data source. It is
// what `openks-run` does without servers, and the reference a distributed
// run is checked against (--verify): fed the same global batches, sync
// training must leave the parameters this leaves.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_LOCALTRAINER_H
#define OPENKS_RUNTIME_LOCALTRAINER_H

#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Executor.h"

#include <memory>
#include <optional>
#include <string>

namespace openks::runtime {

/// Trains one step plan on one data source.
class LocalTrainer {
public:
  /// Takes `store` and `plan` (built against it) and opens `data` for the
  /// plan's inputs. Fails on a bad spec or when memory cannot be had.
  static StatusOr<std::unique_ptr<LocalTrainer>>
  create(ParameterStore store, Plan plan, const std::string &data);

  /// Initialises the parameters.
  Status start() { return store_.initialize(); }
  /// Runs one step on the next `globalBatch` rows.
  Status step(int64_t globalBatch);
  /// Loads the checkpoint `dir` (Checkpoint.h) into the started trainer's
  /// parameters and moves the data past the global batches of
  /// `globalBatch` rows trained on; returns the checkpoint's step.
  StatusOr<int64_t> resume(const std::string &dir, int64_t globalBatch);
  /// Sets every trainable parameter to the value of the parameter of the
  /// same name in `from` (the optimizer's state stays), so that the next
  /// step starts where `from` is. Fails like compareParameters when `from`
  /// lacks one or holds it in another type or shape. `from` must not be
  /// written meanwhile.
  Status adoptParameters(const ParameterStore &from);

  const std::vector<Tensor *> &inputs() const { return executor_->inputs(); }
  const std::vector<const Tensor *> &outputs() const {
    return executor_->outputs();
  }
  const Plan &plan() const { return plan_; }
  const ParameterStore &store() const { return store_; }
  /// Returns the passes over the data so far.
  int64_t epoch() const { return source_->epoch(); }

private:
  LocalTrainer(ParameterStore store, Plan plan)
      : store_(std::move(store)), plan_(std::move(plan)) {}

  ParameterStore store_;
  Plan plan_;
  std::optional<Executor> executor_;
  std::unique_ptr<DataSource> source_;
};

/// How far one parameter is from its reference.
struct ParameterDifference {
  std::string name;
  /// max |actual - expected| / max |expected| over the elements (0 when
  /// both are all zero; NaN when an element of either is NaN).
  double relative = 0;
};

/// Compares every trainable parameter of `expected` (not the optimizer's
/// state) with the parameter of the same name in `actual`; fails when
/// `actual` lacks one or holds it in another type or shape. Neither store
/// may be written meanwhile.
StatusOr<std::vector<ParameterDifference>>
compareParameters(const ParameterStore &actual, const ParameterStore &expected);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_LOCALTRAINER_H
