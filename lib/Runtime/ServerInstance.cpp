//===- ServerInstance.cpp - One server of a loaded job --------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ServerInstance.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

StatusOr<std::shared_ptr<ServerInstance>>
ServerInstance::create(std::shared_ptr<JobSpec> job, int index,
                       std::chrono::milliseconds timeout) {
  if (index < 0 || index >= static_cast<int>(job->servers.size()))
    return Status::invalidArgument("there is no server {} (the job has {})",
                                   index, job->servers.size());
  ServerSpec &spec = job->servers[index];
  if (!spec.program)
    return Status::error(StatusCode::FailedPrecondition,
                         "the program of server {} ({}) is not loaded",
                         spec.name, spec.endpoint);
  std::shared_ptr<ServerInstance> instance(new ServerInstance());
  StatusOr<std::unique_ptr<ServerRole>> role =
      ServerRole::create(*spec.program, spec.name);
  if (!role)
    return role.status();
  ServerConfig config{fmt::format("{} ({})", spec.name, spec.endpoint),
                      spec.mode, spec.trainers, timeout};
  instance->server_ =
      std::make_unique<ParameterServer>(std::move(config), **role);
  instance->role_ = std::move(*role);
  instance->job_ = std::move(job);
  instance->index_ = index;
  return instance;
}
