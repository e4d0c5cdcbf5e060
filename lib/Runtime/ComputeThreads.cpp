//===- ComputeThreads.cpp - How many threads a role's kernels use ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// oneDNN, the GEMM's library, runs on OpenMP: a thread's budget is its
// OpenMP thread count, which OpenMP keeps per thread. The two OpenMP entry
// points are declared here, by their C ABI, rather than through <omp.h>,
// which only the compiler that provides the runtime ships.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ComputeThreads.h"

#include <algorithm>
#include <cassert>
#include <sched.h>

extern "C" {
void omp_set_num_threads(int threads);
int omp_get_max_threads(void);
}

using namespace openks;
using namespace openks::runtime;

int runtime::getAvailableCpus() {
  cpu_set_t cpus;
  if (sched_getaffinity(0, sizeof(cpus), &cpus) != 0)
    return 1;
  return std::max(1, CPU_COUNT(&cpus));
}

void runtime::setComputeThreads(int threads) {
  assert(threads >= 1 && "a budget is at least one thread");
  omp_set_num_threads(threads);
}

int runtime::getComputeThreads() { return omp_get_max_threads(); }

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
