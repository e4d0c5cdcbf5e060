//===- Thread.cpp - Threads that report a failure to start ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Thread.h"

#include <cstring>
#include <memory>
#include <utility>

using namespace openks;

/// The entry point of every thread: runs and frees the body it is given.
static void *runBody(void *body) {
  std::unique_ptr<std::function<void()>> owned(
      static_cast<std::function<void()> *>(body));
  (*owned)();
  return nullptr;
}

StatusOr<Thread> Thread::start(const std::string &what,
                               std::function<void()> body) {
  auto owned = std::make_unique<std::function<void()>>(std::move(body));
  pthread_t handle;
  if (int error = pthread_create(&handle, nullptr, runBody, owned.get()))
    return Status::error(StatusCode::ResourceExhausted,
                         "cannot start the thread of {}: {}", what,
                         std::strerror(error));
  // The thread owns the body now.
  owned.release();
  return Thread(handle);
}

Thread::Thread(Thread &&other) noexcept
    : handle_(other.handle_), joinable_(std::exchange(other.joinable_, false)) {
}

Thread &Thread::operator=(Thread &&other) noexcept {
  if (this != &other) {
    join();
    handle_ = other.handle_;
    joinable_ = std::exchange(other.joinable_, false);
  }
  return *this;
}

Thread::~Thread() { join(); }

void Thread::join() {
  if (!joinable_)
    return;
  pthread_join(handle_, nullptr);
  joinable_ = false;
}
