//===- Job.h - Running a launched job to its end ----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-launch starts every process of a job, shows trainer 0's output and
// one line per process that exits, and waits, every wait bounded: for the
// trainers; then, up to --timeout-s, for the servers to exit by themselves.
// The first failure (a process that exits non-zero or by a signal, a server
// still running at that deadline, a command that cannot be executed) stops
// the others, SIGTERM and after --grace-s SIGKILL, and so does SIGINT,
// SIGTERM or SIGHUP to the launcher, which it forwards.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_LAUNCH_JOB_H
#define OPENKS_TOOLS_OPENKS_LAUNCH_JOB_H

#include "LaunchPlan.h"

namespace openks::launch {

/// Runs the job of `plan` to its end: progress on standard output, the
/// first failure with the end of its log on standard error. Returns
/// openks-launch's exit code: 0 when every process exited with code 0,
/// 128 + N when signal N stopped the job, else 1. Every process has exited
/// when it returns, except one that SIGKILL did not end within --grace-s,
/// which it reports.
int runJob(const LaunchPlan &plan);

} // namespace openks::launch

#endif // OPENKS_TOOLS_OPENKS_LAUNCH_JOB_H
