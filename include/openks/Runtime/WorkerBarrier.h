//===- WorkerBarrier.h - Where the trainers of a job wait for each other -===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The barrier of all workers (Paddle's barrier_worker): each call waits until
// every worker has called once more. The in-process cluster keeps one; so
// does server 0 of a job whose roles are processes, for its trainers to call.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_WORKERBARRIER_H
#define OPENKS_RUNTIME_WORKERBARRIER_H

#include "openks/Runtime/Transport.h"

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <set>

namespace openks::runtime {

/// A reusable barrier of the workers of a job, which an abort opens with
/// its error.
class WorkerBarrier {
public:
  /// Waits until each of `workers` workers has called once more; at
  /// `deadline`, fails naming those that did not come.
  Status arrive(int worker, int workers, Deadline deadline);

  /// Fails every present and future wait with `status`; the first abort
  /// wins.
  void abort(const Status &status);

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  Status failure_ = Status::ok();
  /// The workers waiting at the current barrier.
  std::set<int> arrived_;
  /// How many barriers have opened.
  int64_t generation_ = 0;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_WORKERBARRIER_H
