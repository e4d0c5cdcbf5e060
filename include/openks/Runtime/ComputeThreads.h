//===- ComputeThreads.h - How many threads a role's kernels use -*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The compute budget of a thread: how many threads the kernels it calls may
// run on at once (the GEMM's intra-op parallelism, see Kernels/Gemm.h). The
// budget belongs to the calling thread, so the roles of a job that run as
// threads of one process each get their own share of the machine and do not
// oversubscribe it; threads that never set one use every CPU the process
// may run on.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_COMPUTETHREADS_H
#define OPENKS_RUNTIME_COMPUTETHREADS_H

#include <vector>

namespace openks::runtime {

/// Returns the number of CPUs the process may run on (its affinity mask),
/// at least 1.
int getAvailableCpus();

/// Sets the calling thread's compute budget to `threads` (at least 1).
void setComputeThreads(int threads);

/// Returns the calling thread's compute budget.
int getComputeThreads();

/// Splits a budget of `total` threads (0: every available CPU) among
/// `servers` server roles and `trainers` trainer roles running in one
/// process: every role gets at least one thread, and what a fair split
/// leaves over goes to the trainers, which run the large products. Returns
/// the servers' budgets followed by the trainers'.
std::vector<int> splitComputeThreads(int total, int servers, int trainers);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_COMPUTETHREADS_H
