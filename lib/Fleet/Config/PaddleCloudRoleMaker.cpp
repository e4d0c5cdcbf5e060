//===- PaddleCloudRoleMaker.cpp - Roles from PaddleCloud variables --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PaddleCloudRoleMaker.h"

#include "openks/Support/Endpoint.h"

#include <algorithm>
#include <limits>

using namespace openks;
using namespace openks::fleet;

static constexpr const char *kRoleVariable = "TRAINING_ROLE";
/// paddle-operator sets the role under both names.
static constexpr const char *kRoleSynonym = "PADDLE_TRAINING_ROLE";
static constexpr const char *kServersVariable = "PADDLE_PSERVERS_IP_PORT_LIST";
static constexpr const char *kTrainersVariable = "PADDLE_TRAINER_ENDPOINTS";
static constexpr const char *kCurrentVariable = "PADDLE_CURRENT_ENDPOINT";
/// The variables that list heterogeneous trainers: fleetrun's (Paddle 2.0
/// and later) and paddle-operator's.
static constexpr const char *kHeterVariables[] = {
    "PADDLE_ALL_HETER_TRAINER_IP_PORT_LIST",
    "PADDLE_HETER_TRAINER_IP_PORT_LIST", "PADDLE_HETER_ENDPOINTS"};

PaddleCloudRoleMaker::PaddleCloudRoleMaker(Environment environment)
    : environment_(std::move(environment)) {}

/// Returns the variable that holds the role: TRAINING_ROLE, or
/// PADDLE_TRAINING_ROLE when only it is set.
static const char *roleVariable(const Environment &environment) {
  return !environment.has(kRoleVariable) && environment.has(kRoleSynonym)
             ? kRoleSynonym
             : kRoleVariable;
}

std::string PaddleCloudRoleMaker::describe() const {
  const char *variable = roleVariable(environment_);
  std::optional<std::string> role = environment_.get(variable);
  if (!role)
    return "PaddleCloud role maker";
  return fmt::format("PaddleCloud role maker ({}={})", variable, *role);
}

/// Returns the canonical endpoints of the comma-separated `list`, read from
/// `variable`; fails naming the variable and the bad item.
static StatusOr<std::vector<std::string>>
parseEndpointList(const std::string &list, const std::string &variable) {
  std::vector<std::string> endpoints;
  size_t start = 0;
  while (true) {
    size_t comma = std::min(list.find(',', start), list.size());
    std::string item = list.substr(start, comma - start);
    if (item.empty())
      return Status::invalidArgument(
          "environment variable {} ('{}') has an empty entry; expected "
          "host:port entries separated by commas",
          variable, list);
    if (StatusOr<Endpoint> endpoint = parseEndpoint(item); !endpoint)
      return endpoint.status().withContext("environment variable " + variable);
    endpoints.push_back(std::move(item));
    if (comma == list.size())
      break;
    start = comma + 1;
  }
  StatusOr<std::vector<std::string>> canonical =
      canonicalEndpointList(endpoints, "environment variable " + variable);
  if (!canonical)
    return canonical.status();
  return *canonical;
}

/// Returns the role the environment names; refuses the roles of Paddle's
/// modes that OpenKS does not run.
static StatusOr<Role> readTrainingRole(const Environment &environment) {
  std::optional<std::string> role = environment.get(kRoleVariable);
  std::optional<std::string> synonym = environment.get(kRoleSynonym);
  if (role && synonym && *role != *synonym)
    return Status::invalidArgument(
        "environment variables {} ('{}') and {} ('{}') disagree", kRoleVariable,
        *role, kRoleSynonym, *synonym);
  const char *variable = roleVariable(environment);
  StatusOr<std::string> value = environment.require(variable);
  if (!value)
    return value.status();
  if (*value == "TRAINER")
    return Role::Worker;
  if (*value == "PSERVER")
    return Role::Server;
  if (*value == "HETER_TRAINER" || *value == "HETER")
    return Status::invalidArgument(
        "environment variable {} is '{}': Paddle's heterogeneous "
        "parameter-server mode (heter trainers) is not supported",
        variable, *value);
  if (*value == "COORDINATOR")
    return Status::invalidArgument(
        "environment variable {} is '{}': Paddle's coordinator (federated "
        "learning) is not supported",
        variable, *value);
  return Status::invalidArgument(
      "environment variable {} is '{}'; expected TRAINER or PSERVER", variable,
      *value);
}

/// Returns this process's endpoint from POD_IP and PADDLE_PORT, canonical;
/// "" when either is unset and they are not `required`.
static StatusOr<std::string> podEndpoint(const Environment &environment,
                                         bool required) {
  if (!required &&
      (!environment.has("POD_IP") || !environment.has("PADDLE_PORT")))
    return std::string();
  StatusOr<std::string> host = environment.require("POD_IP");
  if (!host)
    return host.status();
  StatusOr<int64_t> port = environment.requireInteger("PADDLE_PORT", 1, 65535);
  if (!port)
    return port.status();
  std::string text = fmt::format("{}:{}", *host, *port);
  if (host->find(':') != std::string::npos)
    text = fmt::format("[{}]:{}", *host, *port);
  StatusOr<Endpoint> endpoint = parseEndpoint(text);
  if (!endpoint)
    return endpoint.status().withContext("POD_IP:PADDLE_PORT");
  return endpoint->str();
}

/// Returns this process's endpoint, canonical: PADDLE_CURRENT_ENDPOINT,
/// which must be `pod` (POD_IP:PADDLE_PORT) when that is known, else `pod`.
static StatusOr<std::string> ownEndpoint(const Environment &environment,
                                         const std::string &pod) {
  std::optional<std::string> current = environment.get(kCurrentVariable);
  if (!current)
    return pod;
  StatusOr<Endpoint> endpoint = parseEndpoint(*current);
  if (!endpoint)
    return endpoint.status().withContext(
        fmt::format("environment variable {}", kCurrentVariable));
  if (!pod.empty() && endpoint->str() != pod)
    return Status::invalidArgument(
        "environment variable {} is '{}', but POD_IP:PADDLE_PORT is '{}'",
        kCurrentVariable, *current, pod);
  return endpoint->str();
}

/// Fails when the environment lists heterogeneous trainers.
static Status refuseHeterTrainers(const Environment &environment) {
  for (const char *variable : kHeterVariables)
    if (std::optional<std::string> list = environment.get(variable);
        list && !list->empty())
      return Status::invalidArgument(
          "environment variable {} is '{}': the job has heterogeneous "
          "trainers, and Paddle's heterogeneous parameter-server mode is not "
          "supported",
          variable, *list);
  return Status::ok();
}

StatusOr<RoleAssignment> PaddleCloudRoleMaker::readRole() const {
  constexpr int64_t maxCount = std::numeric_limits<int>::max();
  StatusOr<Role> role = readTrainingRole(environment_);
  if (!role)
    return role.status();
  OPENKS_RETURN_IF_ERROR(refuseHeterTrainers(environment_));
  StatusOr<std::string> serverList = environment_.require(kServersVariable);
  if (!serverList)
    return serverList.status();
  StatusOr<std::vector<std::string>> servers =
      parseEndpointList(*serverList, kServersVariable);
  if (!servers)
    return servers.status();
  StatusOr<int64_t> trainers =
      environment_.requireInteger("PADDLE_TRAINERS_NUM", 1, maxCount);
  if (!trainers)
    return trainers.status();
  std::vector<std::string> trainerEndpoints;
  if (environment_.has(kTrainersVariable)) {
    StatusOr<std::string> list = environment_.require(kTrainersVariable);
    if (!list)
      return list.status();
    StatusOr<std::vector<std::string>> endpoints =
        parseEndpointList(*list, kTrainersVariable);
    if (!endpoints)
      return endpoints.status();
    if (static_cast<int64_t>(endpoints->size()) != *trainers)
      return Status::invalidArgument(
          "environment variable {} lists {} trainers, but PADDLE_TRAINERS_NUM "
          "is {}",
          kTrainersVariable, endpoints->size(), *trainers);
    trainerEndpoints = std::move(*endpoints);
  }

  RoleAssignment assignment;
  assignment.role = *role;
  assignment.workerNum = static_cast<int>(*trainers);
  assignment.serverEndpoints = *servers;
  assignment.workerEndpoints = trainerEndpoints;
  // A server always knows its own endpoint, by which it finds its index;
  // a trainer may.
  bool isServer = *role == Role::Server;
  StatusOr<std::string> pod = podEndpoint(environment_, isServer);
  if (!pod)
    return pod.status();
  StatusOr<std::string> self = ownEndpoint(environment_, *pod);
  if (!self)
    return self.status();
  assignment.endpoint = *self;
  if (isServer) {
    auto it = std::find(servers->begin(), servers->end(), *self);
    if (it == servers->end())
      return Status::invalidArgument(
          "this server's POD_IP:PADDLE_PORT '{}' is not in {} ('{}')", *self,
          kServersVariable, *serverList);
    assignment.index = static_cast<int>(it - servers->begin());
    return assignment;
  }

  StatusOr<int64_t> id =
      environment_.requireInteger("PADDLE_TRAINER_ID", 0, maxCount);
  if (!id)
    return id.status();
  if (*id >= *trainers)
    return Status::outOfRange("environment variable PADDLE_TRAINER_ID is "
                              "{}, but PADDLE_TRAINERS_NUM is {}",
                              *id, *trainers);
  if (!self->empty() && !trainerEndpoints.empty() &&
      trainerEndpoints[*id] != *self)
    return Status::invalidArgument(
        "this trainer's endpoint '{}' (from {}) is not entry {} of {}, '{}', "
        "which PADDLE_TRAINER_ID names",
        *self, pod->empty() ? kCurrentVariable : "POD_IP:PADDLE_PORT", *id,
        kTrainersVariable, trainerEndpoints[*id]);
  assignment.index = static_cast<int>(*id);
  return assignment;
}
