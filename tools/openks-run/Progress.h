//===- Progress.h - openks-run's progress lines -----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One progress line per reported step on a terminal, refreshed in place;
// otherwise (a log, a pipe) a plain line every `every` steps and after the
// last one. Each line has the step, the loss, the samples per second since
// the previous line and, before the last step, the time the remaining steps
// will take at the run's average pace so far ("ETA 1m05s").
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_PROGRESS_H
#define OPENKS_TOOLS_OPENKS_RUN_PROGRESS_H

#include <chrono>
#include <cstdint>

namespace openks::run {

/// Prints the progress of a run of `totalSteps` steps to stdout.
class Progress {
public:
  using Clock = std::chrono::steady_clock;

  /// `logEvery` is the line period off a terminal; 0 picks a tenth of the
  /// steps.
  Progress(int64_t totalSteps, int64_t logEvery);

  /// Reports that `step` ended at `when`, on `rows` rows, with `loss`.
  void step(int64_t step, double loss, int64_t rows, Clock::time_point when);

private:
  int64_t totalSteps_;
  int64_t every_;
  bool terminal_;
  Clock::time_point start_ = Clock::now();
  /// The step before the first one reported (a resumed run starts late).
  int64_t startStep_ = -1;
  Clock::time_point windowStart_ = start_;
  int64_t windowRows_ = 0;
};

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_PROGRESS_H
