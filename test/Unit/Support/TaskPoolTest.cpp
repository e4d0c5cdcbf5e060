//===- TaskPoolTest.cpp - Tests of the helper threads of loops ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/TaskPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <thread>

using namespace openks;

namespace {

TEST(TaskPoolTest, RunsEveryIterationOnceInEveryLoop) {
  StatusOr<std::unique_ptr<TaskPool>> pool = TaskPool::create(3, "a test");
  ASSERT_TRUE(pool.isOk()) << pool.status().message();
  // Loops of no, fewer and more iterations than threads, one after another.
  for (int count : {0, 1, 2, 4, 37, 1000, 3}) {
    std::vector<std::atomic<int>> runs(count);
    (*pool)->run(count, [&](int i) { ++runs[i]; });
    for (int i = 0; i < count; ++i)
      EXPECT_EQ(runs[i].load(), 1) << "iteration " << i << " of " << count;
  }
}

TEST(TaskPoolTest, HelpersTakePartInSlowLoops) {
  StatusOr<std::unique_ptr<TaskPool>> pool = TaskPool::create(2, "a test");
  ASSERT_TRUE(pool.isOk()) << pool.status().message();
  std::mutex mutex;
  std::set<std::thread::id> threads;
  // Each iteration waits until another thread has taken one too, so the
  // loop only ends if the helpers run iterations (within a bounded wait).
  std::atomic<int> started{0};
  (*pool)->run(3, [&](int) {
    ++started;
    for (int spin = 0; started.load() < 3 && spin < 20000; ++spin)
      std::this_thread::sleep_for(std::chrono::microseconds(50));
    std::lock_guard<std::mutex> lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(started.load(), 3);
  EXPECT_EQ(threads.size(), 3u);
}

} // namespace
