//===- TaskPool.h - Helpers for loops of independent tasks ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A fixed set of helper threads that, with the calling thread, run the
// iterations of a loop whose iterations are independent: a sync server
// applies its blocks' updates this way. Which thread runs an iteration
// varies; what each iteration computes must not.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_TASKPOOL_H
#define OPENKS_SUPPORT_TASKPOOL_H

#include "openks/Support/Status.h"
#include "openks/Support/Thread.h"

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace openks {

/// Helper threads that run loops together with the thread that calls run().
/// run() is for one thread at a time.
class TaskPool {
public:
  /// Starts `helpers` threads (at least 1), named after `what` in errors.
  /// Fails with ResourceExhausted when one cannot start.
  static StatusOr<std::unique_ptr<TaskPool>> create(int helpers,
                                                    const std::string &what);
  /// Stops and joins the helpers.
  ~TaskPool();

  TaskPool(const TaskPool &) = delete;
  TaskPool &operator=(const TaskPool &) = delete;

  /// Calls `task(i)` once for each i in [0, count), on the calling thread
  /// and the helpers, and returns when every call has returned.
  void run(int count, const std::function<void(int)> &task);

private:
  TaskPool() = default;
  /// A helper's life: runs the iterations of each loop it is woken for.
  void serve();
  /// Runs iterations of the current loop until none is left.
  void runIterations();

  std::mutex mutex_;
  std::condition_variable wake_, finished_;
  /// The current loop: its body, its size and the next iteration to take.
  const std::function<void(int)> *task_ = nullptr;
  int count_ = 0, next_ = 0;
  /// The loops started so far; a helper runs each one once.
  uint64_t generation_ = 0;
  /// The helpers still in the current loop.
  int busy_ = 0;
  bool stopping_ = false;
  std::vector<Thread> helpers_;
};

} // namespace openks

#endif // OPENKS_SUPPORT_TASKPOOL_H
