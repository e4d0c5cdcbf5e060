//===- ComputeThreads.cpp - How many threads a role's kernels use ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A thread's budget is a thread-local count. The GEMM spends it on a pool
// of its own (see Kernels/Gemm.cpp), not on OpenMP's threads, whose
// spin-waiting makes a loaded machine many times slower.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ComputeThreads.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <sched.h>

using namespace openks;
using namespace openks::runtime;

int runtime::getAvailableCpus() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof(cpus), &cpus) != 0)
    return 1;
  return std::max(1, CPU_COUNT(&cpus));
}

/// The calling thread's budget; 0 until it sets one.
static thread_local int budget = 0;

/// Returns the budget of threads that set none: OMP_NUM_THREADS (its first
/// count, as OpenMP reads it) when that is a positive count, else every
/// available CPU.
static int getDefaultBudget() {
  static const int threads = [] {
    const char *value = std::getenv("OMP_NUM_THREADS");
    int count = 0;
    if (value &&
        std::from_chars(value, value + std::strlen(value), count).ec ==
            std::errc() &&
        count >= 1)
      return count;
    return getAvailableCpus();
  }();
  return threads;
}

void runtime::setComputeThreads(int threads) {
  assert(threads >= 1 && "a budget is at least one thread");
  budget = threads;
}

int runtime::getComputeThreads() {
  return budget ? budget : getDefaultBudget();
}

std::vector<int> runtime::splitComputeThreads(int total, int servers,
                                              int trainers) {
  int roles = servers + trainers;
  if (total <= 0)
    total = getAvailableCpus();
  int share = total / std::max(1, roles);
  if (share == 0)
    return std::vector<int>(roles, 1);
  std::vector<int> budgets(roles, share);
  for (int left = total - share * roles, trainer = 0; left > 0 && trainers > 0;
       --left, ++trainer)
    ++budgets[servers + trainer % trainers];
  return budgets;
}
