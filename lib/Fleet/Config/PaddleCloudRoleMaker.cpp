//===- PaddleCloudRoleMaker.cpp - Roles from PaddleCloud variables --------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PaddleCloudRoleMaker.h"

#include "openks/Support/Endpoint.h"

#include <algorithm>
#include <limits>

using namespace openks;
using namespace openks::fleet;

static constexpr const char *kRoleVariable = "TRAINING_ROLE";
static constexpr const char *kServersVariable = "PADDLE_PSERVERS_IP_PORT_LIST";

PaddleCloudRoleMaker::PaddleCloudRoleMaker(Environment environment)
    : environment_(std::move(environment)) {}

std::string PaddleCloudRoleMaker::describe() const {
  std::optional<std::string> role = environment_.get(kRoleVariable);
  if (!role)
    return "PaddleCloud role maker";
  return fmt::format("PaddleCloud role maker ({}={})", kRoleVariable, *role);
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

StatusOr<RoleAssignment> PaddleCloudRoleMaker::readRole() const {
  constexpr int64_t maxCount = std::numeric_limits<int>::max();
  StatusOr<std::string> role = environment_.require(kRoleVariable);
  if (!role)
    return role.status();
  if (*role != "TRAINER" && *role != "PSERVER")
    return Status::invalidArgument(
        "environment variable {} is '{}'; expected TRAINER or PSERVER",
        kRoleVariable, *role);
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

  RoleAssignment assignment;
  assignment.workerNum = static_cast<int>(*trainers);
  assignment.serverEndpoints = *servers;
  if (*role == "TRAINER") {
    StatusOr<int64_t> id =
        environment_.requireInteger("PADDLE_TRAINER_ID", 0, maxCount);
    if (!id)
      return id.status();
    if (*id >= *trainers)
      return Status::outOfRange("environment variable PADDLE_TRAINER_ID is "
                                "{}, but PADDLE_TRAINERS_NUM is {}",
                                *id, *trainers);
    assignment.role = Role::Worker;
    assignment.index = static_cast<int>(*id);
    return assignment;
  }

  // A server finds its index by its own endpoint.
  StatusOr<std::string> host = environment_.require("POD_IP");
  if (!host)
    return host.status();
  StatusOr<int64_t> port = environment_.requireInteger("PADDLE_PORT", 1, 65535);
  if (!port)
    return port.status();
  std::string text = fmt::format("{}:{}", *host, *port);
  if (host->find(':') != std::string::npos)
    text = fmt::format("[{}]:{}", *host, *port);
  StatusOr<Endpoint> self = parseEndpoint(text);
  if (!self)
    return self.status().withContext("POD_IP:PADDLE_PORT");
  auto it = std::find(servers->begin(), servers->end(), self->str());
  if (it == servers->end())
    return Status::invalidArgument(
        "this server's POD_IP:PADDLE_PORT '{}' is not in {} ('{}')",
        self->str(), kServersVariable, *serverList);
  assignment.role = Role::Server;
  assignment.index = static_cast<int>(it - servers->begin());
  return assignment;
}
