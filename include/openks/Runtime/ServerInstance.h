//===- ServerInstance.h - One server of a loaded job ------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A server as a process runs it: its program (ServerRole, over the blocks
// of the job it loaded) and the protocol that serves it (ParameterServer),
// sharing ownership of that job, whatever cluster publishes it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_SERVERINSTANCE_H
#define OPENKS_RUNTIME_SERVERINSTANCE_H

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/ServerRole.h"

#include <chrono>
#include <memory>
#include <string>

namespace openks::runtime {

/// One server of a loaded job: its program and the protocol that serves it.
class ServerInstance {
public:
  /// Makes server `index` of `job`, whose program `job` must hold, waiting
  /// for its trainers at most `timeout`. Fails when a buffer cannot be
  /// allocated.
  static StatusOr<std::shared_ptr<ServerInstance>>
  create(std::shared_ptr<JobSpec> job, int index,
         std::chrono::milliseconds timeout);

  ServerRole &role() { return *role_; }
  const ServerRole &role() const { return *role_; }
  ParameterServer &server() { return *server_; }
  const ParameterServer &server() const { return *server_; }
  /// Returns the job the server belongs to (its part of it).
  const JobSpec &job() const { return *job_; }
  /// Returns the server's index in its job.
  int index() const { return index_; }
  /// Returns the endpoint it serves at.
  const std::string &endpoint() const { return job_->servers[index_].endpoint; }

private:
  ServerInstance() = default;

  std::shared_ptr<JobSpec> job_;
  int index_ = 0;
  std::unique_ptr<ServerRole> role_;
  std::unique_ptr<ParameterServer> server_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_SERVERINSTANCE_H
