//===- InProcessCluster.cpp - Roles of one job meeting in a process -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/InProcessCluster.h"

#include "openks/Runtime/InProcessTransport.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

namespace {
/// An in-process transport that keeps the servers it talks to alive.
class ClusterTransport : public InProcessTransport {
public:
  ClusterTransport(std::vector<ParameterServer *> servers,
                   std::vector<std::shared_ptr<ServerInstance>> owners)
      : InProcessTransport(std::move(servers)), owners_(std::move(owners)) {}

private:
  std::vector<std::shared_ptr<ServerInstance>> owners_;
};
} // namespace

Status InProcessCluster::publish(std::shared_ptr<ServerInstance> server) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.isOk())
    return failure_;
  const std::string &endpoint = server->endpoint();
  if (servers_.count(endpoint))
    return Status::error(StatusCode::FailedPrecondition,
                         "another server is already published at {}", endpoint);
  servers_.emplace(endpoint, std::move(server));
  changed_.notify_all();
  return Status::ok();
}

StatusOr<std::unique_ptr<Transport>>
InProcessCluster::connect(const JobSpec &job, int, Deadline deadline) {
  std::vector<std::string> endpoints;
  for (const ServerSpec &server : job.servers)
    endpoints.push_back(server.endpoint);
  std::unique_lock<std::mutex> lock(mutex_);
  auto missing = [&] {
    std::vector<std::string> absent;
    for (const std::string &endpoint : endpoints)
      if (!servers_.count(endpoint))
        absent.push_back(endpoint);
    return absent;
  };
  changed_.wait_until(lock, deadline.when(),
                      [&] { return !failure_.isOk() || missing().empty(); });
  if (!failure_.isOk())
    return failure_;
  if (std::vector<std::string> absent = missing(); !absent.empty())
    return Status::error(StatusCode::DeadlineExceeded,
                         "no server came at {} within {} ms",
                         fmt::join(absent, ", "), deadline.timeout().count());
  std::vector<ParameterServer *> servers;
  std::vector<std::shared_ptr<ServerInstance>> owners;
  for (const std::string &endpoint : endpoints) {
    owners.push_back(servers_.at(endpoint));
    OPENKS_RETURN_IF_ERROR(checkSameJob(
        endpoint, owners.back()->job().fingerprint, job.fingerprint));
    servers.push_back(&owners.back()->server());
  }
  return std::unique_ptr<Transport>(
      new ClusterTransport(std::move(servers), std::move(owners)));
}

Status InProcessCluster::workerBarrier(int worker, int workers,
                                       Deadline deadline) {
  return barrier_.arrive(worker, workers, deadline);
}

void InProcessCluster::abort(const Status &status) {
  std::vector<std::shared_ptr<ServerInstance>> servers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.isOk())
      return;
    failure_ = status;
    changed_.notify_all();
    for (auto &[endpoint, server] : servers_)
      servers.push_back(server);
  }
  barrier_.abort(status);
  for (const std::shared_ptr<ServerInstance> &server : servers)
    server->server().cancel(status);
}
