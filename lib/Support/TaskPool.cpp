//===- TaskPool.cpp - Helper threads for a loop of independent tasks ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/TaskPool.h"

#include <cassert>
#include <fmt/format.h>

using namespace openks;

StatusOr<std::unique_ptr<TaskPool>> TaskPool::create(int helpers,
                                                     const std::string &what) {
  assert(helpers >= 1 && "a pool has at least one helper");
  std::unique_ptr<TaskPool> pool(new TaskPool());
  for (int i = 0; i < helpers; ++i) {
    StatusOr<Thread> helper =
        Thread::start(fmt::format("helper {} of {}", i, what),
                      [raw = pool.get()] { raw->serve(); });
    if (!helper)
      return helper.status();
    pool->helpers_.push_back(std::move(*helper));
  }
  return pool;
}

TaskPool::~TaskPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (Thread &helper : helpers_)
    helper.join();
}

void TaskPool::runIterations() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (next_ < count_) {
    int iteration = next_++;
    const std::function<void(int)> &task = *task_;
    lock.unlock();
    task(iteration);
    lock.lock();
  }
}

void TaskPool::serve() {
  uint64_t seen = 0;
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    // Waits for work, not for another role: the pool's owner starts loops
    // and stops the pool, so there is no peer to time out on.
    wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
    if (stopping_)
      return;
    seen = generation_;
    lock.unlock();
    runIterations();
    lock.lock();
    if (--busy_ == 0)
      finished_.notify_one();
  }
}

void TaskPool::run(int count, const std::function<void(int)> &task) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    task_ = &task;
    count_ = count;
    next_ = 0;
    busy_ = static_cast<int>(helpers_.size());
    ++generation_;
  }
  wake_.notify_all();
  runIterations();
  // The helpers only finish iterations they have taken, each bounded work.
  std::unique_lock<std::mutex> lock(mutex_);
  finished_.wait(lock, [&] { return busy_ == 0; });
  task_ = nullptr;
}
