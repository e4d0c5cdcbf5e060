//===- RoleProcess.h - Starting one process of a job ------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A role runs as a child of openks-launch that cannot outlive it: the child
// asks the kernel for SIGTERM when the launcher dies (PR_SET_PDEATHSIG) and
// then checks that the launcher has not died already, before it executes
// the command. Each child leads a process group of its own, so that a
// signal the launcher forwards reaches whatever the role starts.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_LAUNCH_ROLEPROCESS_H
#define OPENKS_TOOLS_OPENKS_LAUNCH_ROLEPROCESS_H

#include "LaunchPlan.h"

#include <sys/types.h>

namespace openks::launch {

/// Starts `role` as a process of `command` (found on PATH, run without a
/// shell): its environment is the role's, standard input /dev/null,
/// standard output and error its log file (created or truncated), every
/// signal at its default action and none blocked. Returns its pid once the
/// command runs, or an error naming the role when the log cannot be opened
/// or the command cannot be executed; then no process is left.
StatusOr<pid_t> startRole(const RolePlan &role,
                          const std::vector<std::string> &command);

} // namespace openks::launch

#endif // OPENKS_TOOLS_OPENKS_LAUNCH_ROLEPROCESS_H
