//===- Thread.h - Threads that report a failure to start --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A joinable thread whose start can fail with an error: this project builds
// without exceptions, where std::thread reports a thread it cannot create
// (no memory for a stack, the process's thread limit) by throwing, which
// ends the process. POSIX only.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_THREAD_H
#define OPENKS_SUPPORT_THREAD_H

#include "openks/Support/Status.h"

#include <functional>
#include <pthread.h>

namespace openks {

/// A running thread; joined when it is destroyed, if it has not been.
class Thread {
public:
  /// Runs `body` on a new thread; fails with ResourceExhausted, naming
  /// `what`, when the thread cannot be created.
  static StatusOr<Thread> start(const std::string &what,
                                std::function<void()> body);

  Thread(Thread &&other) noexcept;
  Thread &operator=(Thread &&other) noexcept;
  Thread(const Thread &) = delete;
  Thread &operator=(const Thread &) = delete;
  ~Thread();

  /// Waits until the thread has ended.
  void join();

private:
  explicit Thread(pthread_t handle) : handle_(handle), joinable_(true) {}

  pthread_t handle_{};
  bool joinable_ = false;
};

} // namespace openks

#endif // OPENKS_SUPPORT_THREAD_H
