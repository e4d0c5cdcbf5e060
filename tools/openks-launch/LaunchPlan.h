//===- LaunchPlan.h - The processes of a launched job -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-launch starts every role of a parameter-server job as a process of
// one command. The plan says, before anything starts, what each process is:
// its role and index, its endpoint, its log file and the environment from
// which it finds its role, as Paddle's PaddleCloudRoleMaker reads it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_LAUNCH_LAUNCHPLAN_H
#define OPENKS_TOOLS_OPENKS_LAUNCH_LAUNCHPLAN_H

#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace openks::launch {

/// The options of openks-launch, as given on its command line.
struct LaunchOptions {
  int64_t servers = 0;
  int64_t trainers = 0;
  /// The port of server 0; server i listens on startPort + i, trainer j on
  /// startPort + servers + j.
  int64_t startPort = 6170;
  /// The host of every endpoint: a name, an IPv4 address or an IPv6
  /// address (with or without brackets).
  std::string host = "127.0.0.1";
  std::string logDir = "logs";
  /// How long the servers may run on once every trainer has exited.
  double timeoutSeconds = 60;
  /// How long a process may take to exit after SIGTERM before SIGKILL.
  double graceSeconds = 5;
  /// The program and its arguments.
  std::vector<std::string> command;
};

/// What a process of the job is.
enum class RoleKind { Server, Trainer };

/// Returns "server" or "trainer".
const char *roleKindName(RoleKind kind);

/// One process of the job.
struct RolePlan {
  RoleKind kind = RoleKind::Server;
  int64_t index = 0;
  /// Its "host:port" endpoint in canonical form.
  std::string endpoint;
  /// Where its standard output and error go: LOGDIR/serverlog.I or
  /// LOGDIR/workerlog.J.
  std::string logPath;
  /// Its whole environment, "NAME=value" each.
  std::vector<std::string> environment;

  /// Returns "server I" or "trainer J".
  std::string name() const;
};

/// Every process of a job, servers in order, then trainers in order.
struct LaunchPlan {
  LaunchOptions options;
  std::vector<RolePlan> roles;
};

/// The job's shared secret: OPENKS_JOB_TOKEN from `environment` if it is
/// there, else 128 bits from /dev/urandom as 32 lower-case hex digits. An
/// empty OPENKS_JOB_TOKEN is an error.
StatusOr<std::string> jobToken(const std::vector<std::string> &environment);

/// Checks `options` and plans every process. `environment` is the
/// launcher's own ("NAME=value" each); each process gets it without the
/// proxy variables and with its role's variables (docs/Launch.md), and
/// `token` as OPENKS_JOB_TOKEN. Fails naming the option that is wrong.
StatusOr<LaunchPlan> planLaunch(const LaunchOptions &options,
                                const std::vector<std::string> &environment,
                                const std::string &token);

/// Creates `path` and its missing parents, or fails naming it.
Status createLogDirectory(const std::string &path);

} // namespace openks::launch

#endif // OPENKS_TOOLS_OPENKS_LAUNCH_LAUNCHPLAN_H
