//===- CheckpointHistory.h - The checkpoints a run keeps --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Where --save-dir puts a run's checkpoints. Without --keep-checkpoints each
// save replaces the checkpoint in the directory. With --keep-checkpoints K
// the directory holds one checkpoint per save, step-<N>, of which the K of
// the highest steps stay, and best/, the checkpoint of the step whose
// held-out metric (--best-metric) was the best so far.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_CHECKPOINTHISTORY_H
#define OPENKS_TOOLS_OPENKS_RUN_CHECKPOINTHISTORY_H

#include "openks/Runtime/Metrics.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace openks::run {

/// The checkpoints of one run's --save-dir.
class CheckpointHistory {
public:
  /// Keeps the checkpoints of `dir` (none when it is empty), saved after
  /// every `every` steps (0: none) and after step `last`: the last one only
  /// when `keep` is 0, else the `keep` of the highest steps, and the best by
  /// `bestMetric`.
  CheckpointHistory(std::string dir, int64_t every, int64_t last, int64_t keep,
                    std::string bestMetric)
      : dir_(std::move(dir)), every_(every), last_(last), keep_(keep),
        bestMetric_(std::move(bestMetric)) {}

  /// Checks, before training, that the checkpoints can be saved there.
  Status checkTarget() const;

  /// Returns whether a checkpoint is saved after `step`.
  bool isDue(int64_t step) const {
    return !dir_.empty() &&
           (step == last_ || (every_ > 0 && step % every_ == 0));
  }

  /// Returns whether saves keep a history (--keep-checkpoints).
  bool keepsHistory() const { return keep_ > 0; }

  /// Returns the metric the best checkpoint is chosen by.
  const std::string &bestMetric() const { return bestMetric_; }

  /// After `step`: saves it by calling `write` with the directory to save
  /// into when a save is due (then removes the checkpoints beyond the kept
  /// ones), and as the best when `heldOut`, the held-out metrics of the step
  /// if it was evaluated, beat every earlier step's by bestMetric().
  Status save(int64_t step,
              const std::optional<std::vector<runtime::Metric>> &heldOut,
              const std::function<Status(const std::string &dir)> &write);

  /// Returns the directory the checkpoint of `step` is saved as.
  std::string dirOf(int64_t step) const;

private:
  /// Removes the checkpoints beyond the `keep` of the highest steps; nothing
  /// without --keep-checkpoints.
  Status prune() const;
  /// Returns whether `value` of the best metric beats every value seen so
  /// far, and takes it as the best if so. NaN never does.
  bool improvesBest(double value);

  std::string dir_;
  int64_t every_;
  int64_t last_;
  int64_t keep_;
  std::string bestMetric_;
  std::optional<double> best_;
};

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_CHECKPOINTHISTORY_H
