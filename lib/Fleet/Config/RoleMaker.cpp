//===- RoleMaker.cpp - The role of this process in a job ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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
  switch (role) {
  case Role::Worker:
    return "worker";
  case Role::Server:
    return "server";
  case Role::Evaluator:
    return "evaluator";
  }
  return "unknown";
}

/// Checks an evaluator's assignment, which holds only its index.
static Status checkEvaluator(const RoleAssignment &assignment) {
  if (assignment.index < 0)
    return Status::outOfRange("evaluator index {} is negative",
                              assignment.index);
  if (assignment.workerNum != 0 || !assignment.serverEndpoints.empty() ||
      !assignment.workerEndpoints.empty() || !assignment.endpoint.empty())
    return Status::invalidArgument(
        "an evaluator takes no part in the job, so its role names no "
        "workers, servers or endpoint");
  return Status::ok();
}

Status RoleAssignment::canonicalize() {
  if (role == Role::Evaluator)
    return checkEvaluator(*this);
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

  // This process's own endpoint: the lists' entry, and the stated one when
  // the source gives it too.
  std::string listed = role == Role::Server ? (*servers)[index]
                       : workers.empty()    ? ""
                                            : workers[index];
  if (!endpoint.empty()) {
    StatusOr<Endpoint> own = parseEndpoint(endpoint);
    if (!own)
      return own.status().withContext(
          fmt::format("this {}'s own endpoint", roleName(role)));
    std::string stated = own->str();
    if (!listed.empty() && stated != listed)
      return Status::invalidArgument(
          "this {}'s own endpoint '{}' is not {} {}'s in the list, '{}'",
          roleName(role), endpoint, roleName(role), index, listed);
    if (role == Role::Worker &&
        std::find(servers->begin(), servers->end(), stated) != servers->end())
      return Status::invalidArgument(
          "endpoint '{}' is both a server's and a worker's", stated);
    listed = std::move(stated);
  }
  serverEndpoints = std::move(*servers);
  workerEndpoints = std::move(workers);
  endpoint = std::move(listed);
  return Status::ok();
}

bool RoleAssignment::operator==(const RoleAssignment &other) const {
  return role == other.role && index == other.index &&
         workerNum == other.workerNum &&
         serverEndpoints == other.serverEndpoints &&
         workerEndpoints == other.workerEndpoints && endpoint == other.endpoint;
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
