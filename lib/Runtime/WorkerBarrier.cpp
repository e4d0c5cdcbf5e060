//===- WorkerBarrier.cpp - Where the trainers of a job wait for each other ===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/WorkerBarrier.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <vector>

using namespace openks;
using namespace openks::runtime;

Status WorkerBarrier::arrive(int worker, int workers, Deadline deadline) {
  if (worker < 0 || worker >= workers)
    return Status::invalidArgument("there is no worker {} of {}", worker,
                                   workers);
  std::unique_lock<std::mutex> lock(mutex_);
  if (!failure_.isOk())
    return failure_;
  if (!arrived_.insert(worker).second)
    return Status::error(StatusCode::FailedPrecondition,
                         "worker {} is already waiting at the worker barrier",
                         worker);
  if (static_cast<int>(arrived_.size()) == workers) {
    arrived_.clear();
    ++generation_;
    changed_.notify_all();
    return Status::ok();
  }
  int64_t generation = generation_;
  changed_.wait_until(lock, deadline.when(), [&] {
    return generation_ != generation || !failure_.isOk();
  });
  if (generation_ != generation)
    return Status::ok();
  arrived_.erase(worker);
  if (!failure_.isOk())
    return failure_;
  std::vector<int> absent;
  for (int other = 0; other < workers; ++other)
    if (!arrived_.count(other) && other != worker)
      absent.push_back(other);
  return Status::error(StatusCode::DeadlineExceeded,
                       "worker {} waited {} ms at the worker barrier for "
                       "worker{} {}",
                       worker, deadline.timeout().count(),
                       absent.size() == 1 ? "" : "s", fmt::join(absent, ", "));
}

void WorkerBarrier::abort(const Status &status) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.isOk())
    return;
  failure_ = status;
  changed_.notify_all();
}
