//===- Verification.h - A sync job checked against one process --*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// --verify: trainer 0 also trains the minimized program in one process on
// the same global batches and compares every parameter after every step,
// each step from the parameters the job had after the step before. The
// in-process job and a trainer process of a job both use it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_VERIFICATION_H
#define OPENKS_TOOLS_OPENKS_RUN_VERIFICATION_H

#include "Runs.h"

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/LocalTrainer.h"
#include "openks/Runtime/WorkerRole.h"

#include <cmath>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace openks::run {

/// Returns whether a relative difference is worse than `worst`: NaN is
/// worse than any number.
inline bool isWorse(double difference, double worst) {
  return !std::isnan(worst) && (std::isnan(difference) || difference > worst);
}

/// What explains a difference between a job and single-process training
/// beyond the tolerance.
struct RoundingModel {
  /// Whether any trained parameter is f32.
  bool f32 = false;
  /// Whether an optimizer divides by a running magnitude of the gradient
  /// (adam, adagrad, rmsprop, ...), which magnifies rounding.
  bool adaptive = false;
};

/// The single-process reference of a sync job and its comparisons.
class Verification {
public:
  /// Returns the reference of a sync job trained on `settings`' data and
  /// global batches from the minimized step `reference`, resumed from
  /// --load-dir when it is given, checking the steps after `startStep`.
  static StatusOr<std::unique_ptr<Verification>>
  create(train::StepOp reference, const RunSettings &settings,
         int64_t startStep);

  /// Checks the steps after `startStep` (a resumed checkpoint's).
  Verification(std::unique_ptr<runtime::LocalTrainer> reference, int64_t batch,
               double tolerance, int64_t startStep, RoundingModel rounding)
      : reference_(std::move(reference)), batch_(batch), tolerance_(tolerance),
        startStep_(startStep), rounding_(rounding) {
    const runtime::ParameterStore &store = reference_->store();
    for (runtime::ParameterId id = 0; id < store.size(); ++id)
      if (store[id].trainable)
        names_.push_back(store[id].name);
  }

  /// Returns the compared parameters, in store order.
  const std::vector<std::string> &names() const { return names_; }
  double tolerance() const { return tolerance_; }

  /// Runs the reference's step and compares `worker`'s parameters with its
  /// own, then moves the reference to `worker`'s parameters, so that each
  /// step is checked from the parameters the job had: float rounding, which
  /// differs between one sum and a sum of shards, is amplified by training
  /// and would otherwise be mistaken for an error after a few hundred steps
  /// (trainer 0's thread).
  /// The tables the worker prefetches rows of, which it does not hold, are
  /// read whole from the servers of `job`.
  Status check(const runtime::WorkerRole &worker, const runtime::JobSpec &job) {
    OPENKS_RETURN_IF_ERROR(
        reference_->step(batch_).withContext("the --verify reference"));
    StatusOr<std::optional<runtime::ParameterStore>> remote =
        readRemoteParameters(worker, job);
    if (!remote)
      return remote.status();
    const runtime::ParameterStore &trained =
        *remote ? **remote : worker.store();
    StatusOr<std::vector<runtime::ParameterDifference>> differences =
        runtime::compareParameters(trained, reference_->store());
    if (!differences)
      return differences.status();
    OPENKS_RETURN_IF_ERROR(reference_->adoptParameters(trained));
    int64_t step = startStep_ + worker.steps();
    std::lock_guard<std::mutex> lock(mutex_);
    for (const runtime::ParameterDifference &difference : *differences)
      if (isWorse(difference.relative, worst_.relative) || worstStep_ == 0) {
        worst_ = difference;
        worstStep_ = step;
      }
    byStep_[step] = std::move(*differences);
    return Status::ok();
  }

  /// Returns and forgets the differences of `step` (the log's thread).
  std::vector<runtime::ParameterDifference> take(int64_t step) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = byStep_.find(step);
    if (it == byStep_.end())
      return {};
    std::vector<runtime::ParameterDifference> differences =
        std::move(it->second);
    byStep_.erase(it);
    return differences;
  }

  /// Returns whether every difference was within the tolerance (a NaN
  /// never is).
  bool passed() const { return worst_.relative <= tolerance_; }
  /// Returns the verdict over `steps` steps; a failed one says what
  /// explains the difference.
  std::string describe(int64_t steps) const {
    std::string verdict = fmt::format(
        "{} single-process training in each of {} steps: largest relative "
        "difference {:.3g} ({} after step {}), tolerance {:.3g}",
        passed() ? "matches" : "differs from", steps, worst_.relative,
        worst_.name, worstStep_, tolerance_);
    if (!passed())
      verdict += " (" + explainFailure() + ")";
    return verdict;
  }

private:
  /// Returns nothing when `worker` holds every trained parameter; else a
  /// store of the trained parameters it holds and, read whole from the
  /// servers, those it does not.
  StatusOr<std::optional<runtime::ParameterStore>>
  readRemoteParameters(const runtime::WorkerRole &worker,
                       const runtime::JobSpec &job) const;

  /// Returns what explains the worst difference: NaN, float rounding (of
  /// its magnitude, magnified by an adaptive optimizer), or none of these.
  std::string explainFailure() const {
    if (std::isnan(worst_.relative))
      return "a NaN: the job or single-process training produced a NaN "
             "parameter; lower the learning rate or check the data";
    // What rounding gives when each step starts from the job's parameters:
    // a few units in the last place of the sums that differ between one
    // batch and its shards.
    double rounding = rounding_.f32 ? 1e-4 : 1e-9;
    if (worst_.relative <= rounding)
      return fmt::format("within what {} rounding of sums over shards gives "
                         "(up to about {:.0e}): a --verify-tolerance that "
                         "accepts it",
                         rounding_.f32 ? "f32" : "f64", rounding);
    if (rounding_.f32 && rounding_.adaptive)
      return "adaptive optimizers such as adam and adagrad magnify the f32 "
             "rounding of gradients that nearly cancel, by up to lr / "
             "epsilon: a difference of that kind needs f64 parameters or a "
             "--verify-tolerance that accepts it; see docs/Runtime.md";
    return fmt::format(
        "more than {} rounding explains{}: the job's step is not "
        "single-process training's, a defect; please report it with the "
        "program and this command",
        rounding_.f32 ? "f32" : "f64",
        rounding_.adaptive ? "" : ", and no optimizer here magnifies it");
  }

  std::unique_ptr<runtime::LocalTrainer> reference_;
  int64_t batch_;
  double tolerance_;
  int64_t startStep_;
  RoundingModel rounding_;
  std::vector<std::string> names_;
  std::mutex mutex_;
  std::map<int64_t, std::vector<runtime::ParameterDifference>> byStep_;
  runtime::ParameterDifference worst_;
  int64_t worstStep_ = 0;
};

/// Returns the metric columns a job's trainer writes after the loss and the
/// throughput: the step's other outputs, its bytes pushed and pulled, and
/// with `verification` the relative difference of each compared parameter.
std::vector<std::string> listJobColumns(const runtime::JobSpec &job,
                                        const Verification *verification);

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_VERIFICATION_H
