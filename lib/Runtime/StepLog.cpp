//===- StepLog.cpp - Per-step figures gathered over trainers --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/StepLog.h"

#include "openks/Runtime/Tensor.h"

using namespace openks;
using namespace openks::runtime;

void StepLog::report(int trainer, int64_t step, int64_t rows,
                     int64_t bytesPushed, int64_t bytesPulled,
                     const std::vector<std::optional<double>> &values) {
  std::lock_guard<std::mutex> lock(mutex_);
  Pending &pending = pending_[step];
  if (pending.sums.size() < values.size()) {
    pending.sums.resize(values.size(), 0.0);
    pending.counts.resize(values.size(), 0);
  }
  for (size_t i = 0; i < values.size(); ++i)
    if (values[i]) {
      pending.sums[i] += *values[i];
      ++pending.counts[i];
    }
  pending.rows += rows;
  pending.bytesPushed += bytesPushed;
  pending.bytesPulled += bytesPulled;
  ++pending.reported;
  flush();
}

void StepLog::finish(int trainer, int64_t lastStep) {
  std::lock_guard<std::mutex> lock(mutex_);
  lastStep_[trainer] = lastStep;
  flush();
}

int StepLog::expectedFor(int64_t step) const {
  int expected = 0;
  for (int64_t last : lastStep_)
    expected += last < 0 || last >= step;
  return expected;
}

void StepLog::flush() {
  while (true) {
    auto it = pending_.find(next_);
    if (it == pending_.end() || it->second.reported < expectedFor(next_))
      return;
    const Pending &pending = it->second;
    StepSummary summary;
    summary.step = next_;
    for (size_t i = 0; i < pending.sums.size(); ++i)
      summary.means.push_back(
          pending.counts[i]
              ? std::optional<double>(pending.sums[i] / pending.counts[i])
              : std::nullopt);
    summary.rows = pending.rows;
    summary.bytesPushed = pending.bytesPushed;
    summary.bytesPulled = pending.bytesPulled;
    summary.trainers = pending.reported;
    summary.completed = std::chrono::steady_clock::now();
    consumer_(summary);
    pending_.erase(it);
    ++next_;
  }
}

std::vector<std::optional<double>>
openks::runtime::getScalarValues(const std::vector<const Tensor *> &outputs) {
  std::vector<std::optional<double>> values;
  for (const Tensor *output : outputs) {
    if (output->rank() != 0 || output->dtype() == DType::I64)
      values.emplace_back();
    else if (output->dtype() == DType::F32)
      values.emplace_back(*output->data<float>());
    else
      values.emplace_back(*output->data<double>());
  }
  return values;
}
