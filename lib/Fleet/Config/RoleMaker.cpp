//===- RoleMaker.cpp - The role of this process in a job ------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/RoleMaker.h"

#include "openks/Support/Endpoint.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

using namespace openks;
using namespace openks::fleet;

const char *fleet::roleName(Role role) {
  return role == Role::Worker ? "worker" : "server";
}

Status RoleAssignment::canonicalize() {
  if (workerNum < 1)
    return Status::invalidArgument("a job needs at least 1 worker, got {}",
                                   workerNum);
  StatusOr<std::vector<std::string>> servers =
      canonicalEndpointList(serverEndpoints, "server endpoints");
  if (!servers)
    return servers.status();

  int count =
      role == Role::Server ? static_cast<int>(servers->size()) : workerNum;
  if (index < 0 || index >= count)
    return Status::outOfRange("{} index {} is out of range: the job has {} "
                              "{}s",
                              roleName(role), index, count, roleName(role));

  std::vector<std::string> workers;
  if (!workerEndpoints.empty()) {
    StatusOr<std::vector<std::string>> canonical =
        canonicalEndpointList(workerEndpoints, "worker endpoints");
    if (!canonical)
      return canonical.status();
    if (static_cast<int>(canonical->size()) != workerNum)
      return Status::invalidArgument(
          "{} worker endpoints are given for {} workers", canonical->size(),
          workerNum);
    for (const std::string &endpoint : *canonical)
      if (std::find(servers->begin(), servers->end(), endpoint) !=
          servers->end())
        return Status::invalidArgument(
            "endpoint '{}' is both a server's and a worker's", endpoint);
    workers = std::move(*canonical);
  }
  serverEndpoints = std::move(*servers);
  workerEndpoints = std::move(workers);
  return Status::ok();
}

bool RoleAssignment::operator==(const RoleAssignment &other) const {
  return role == other.role && index == other.index &&
         workerNum == other.workerNum &&
         serverEndpoints == other.serverEndpoints &&
         workerEndpoints == other.workerEndpoints;
}

RoleMaker::~RoleMaker() = default;

Status RoleMaker::generateRole() {
  if (assignment_)
    return Status::ok();
  StatusOr<RoleAssignment> assignment = readRole();
  if (!assignment)
    return assignment.status().withContext(describe());
  OPENKS_RETURN_IF_ERROR(assignment->canonicalize().withContext(describe()));
  assignment_ = std::move(*assignment);
  return Status::ok();
}

const RoleAssignment &RoleMaker::assignment() const {
  // A query before the role is known is a bug of the caller; answering
  // with a made-up role would send it to the wrong servers.
  if (!assignment_) {
    std::fprintf(stderr,
                 "%s: the role was queried before generateRole() succeeded\n",
                 describe().c_str());
    std::abort();
  }
  return *assignment_;
}

std::string RoleMaker::currentEndpoint() const {
  const RoleAssignment &current = assignment();
  if (current.role == Role::Server)
    return current.serverEndpoints[current.index];
  if (current.workerEndpoints.empty())
    return "";
  return current.workerEndpoints[current.index];
}
