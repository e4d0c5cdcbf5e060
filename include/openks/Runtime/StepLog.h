//===- StepLog.h - Per-step figures gathered over trainers ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Trainers report each step's fetched scalars (the loss first) and rows as
// they finish it; the log hands out one summary per step, in step order, as
// soon as every trainer that runs that step has reported it: the mean of
// each scalar over those trainers and the rows they took together. A
// trainer that stops early says so, and later steps stop waiting for it.
// Thread-safe; the consumer is called under the log's lock, one summary at a
// time.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_STEPLOG_H
#define OPENKS_RUNTIME_STEPLOG_H

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <vector>

namespace openks::runtime {

/// One step, over the trainers that ran it.
struct StepSummary {
  int64_t step = 0;
  /// The mean over trainers of each fetched value, in fetch order (the loss
  /// first); empty where a trainer fetched no scalar.
  std::vector<std::optional<double>> means;
  /// The rows the trainers took together.
  int64_t rows = 0;
  /// The bytes the trainers pushed to and pulled from the servers in the
  /// step, together.
  int64_t bytesPushed = 0;
  int64_t bytesPulled = 0;
  /// How many trainers ran the step.
  int trainers = 0;
  /// When the last of them reported it.
  std::chrono::steady_clock::time_point completed;
};

class Tensor;

/// Returns the value of each of `outputs` that is a float scalar (a fetched
/// loss or metric), and nothing for the others.
std::vector<std::optional<double>>
getScalarValues(const std::vector<const Tensor *> &outputs);

/// Gathers the per-step reports of a job's trainers.
class StepLog {
public:
  using Consumer = std::function<void(const StepSummary &)>;

  /// A log of `trainers` trainers that hands each complete step to
  /// `consumer`, from step `firstStep` on (after a resumed checkpoint's).
  StepLog(int trainers, Consumer consumer, int64_t firstStep = 1)
      : consumer_(std::move(consumer)), lastStep_(trainers, -1),
        next_(firstStep) {}

  /// Records that `trainer` ran `step` (steps count from the first step,
  /// each trainer's in order) on `rows` rows, pushing `bytesPushed` and
  /// pulling `bytesPulled` bytes, and fetched `values`.
  void report(int trainer, int64_t step, int64_t rows, int64_t bytesPushed,
              int64_t bytesPulled,
              const std::vector<std::optional<double>> &values);
  /// Records that `trainer` runs no step after `lastStep`.
  void finish(int trainer, int64_t lastStep);

private:
  /// The sums of one step so far.
  struct Pending {
    std::vector<double> sums;
    std::vector<int> counts;
    int64_t rows = 0;
    int64_t bytesPushed = 0;
    int64_t bytesPulled = 0;
    int reported = 0;
  };

  /// Hands out every complete step from the next one on; requires the lock.
  void flush();
  /// Returns how many trainers run `step`, as far as is known; requires the
  /// lock.
  int expectedFor(int64_t step) const;

  std::mutex mutex_;
  Consumer consumer_;
  /// For each trainer that has finished, its last step; -1 while it runs.
  std::vector<int64_t> lastStep_;
  std::map<int64_t, Pending> pending_;
  int64_t next_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_STEPLOG_H
