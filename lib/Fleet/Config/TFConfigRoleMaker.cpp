//===- TFConfigRoleMaker.cpp - Roles from TF_CONFIG -----------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TFConfigRoleMaker.h"

#include "Json.h"

#include <limits>

using namespace openks;
using namespace openks::fleet;

static constexpr const char *kVariable = "TF_CONFIG";

TFConfigRoleMaker::TFConfigRoleMaker(Environment environment)
    : environment_(std::move(environment)) {}

std::string TFConfigRoleMaker::describe() const {
  return "TF_CONFIG role maker";
}

/// Returns the member `key` of `object` (named `path` in messages) when it
/// is of `kind`; fails when it is missing or of another kind.
static StatusOr<const json::Value *> requireMember(const json::Value &object,
                                                   const std::string &path,
                                                   const char *key,
                                                   json::Value::Kind kind) {
  const json::Value *member = object.find(key);
  if (!member)
    return Status::invalidArgument("{} has no \"{}\"", path, key);
  if (member->kind != kind)
    return Status::invalidArgument("{}.{} is {}, expected {}", path, key,
                                   json::describeKind(member->kind),
                                   json::describeKind(kind));
  return member;
}

/// Returns the endpoints listed in cluster.`job`: a non-empty array of
/// strings.
static StatusOr<std::vector<std::string>>
readEndpoints(const json::Value &cluster, const char *job) {
  StatusOr<const json::Value *> list =
      requireMember(cluster, "cluster", job, json::Value::Kind::Array);
  if (!list)
    return list.status();
  if ((*list)->elements.empty())
    return Status::invalidArgument("cluster.{} is empty", job);
  std::vector<std::string> endpoints;
  for (const json::Value &element : (*list)->elements) {
    if (element.kind != json::Value::Kind::String)
      return Status::invalidArgument("cluster.{}[{}] is {}, expected a "
                                     "host:port string",
                                     job, endpoints.size(),
                                     json::describeKind(element.kind));
    endpoints.push_back(element.text);
  }
  return endpoints;
}

StatusOr<RoleAssignment> TFConfigRoleMaker::readRole() const {
  StatusOr<std::string> text = environment_.require(kVariable);
  if (!text)
    return text.status();
  StatusOr<json::Value> config = json::parse(*text);
  if (!config)
    return config.status().withContext(kVariable);
  if (config->kind != json::Value::Kind::Object)
    return Status::invalidArgument("{} is {}, expected an object", kVariable,
                                   json::describeKind(config->kind));

  // The cluster: servers and workers, nothing else.
  StatusOr<const json::Value *> cluster =
      requireMember(*config, kVariable, "cluster", json::Value::Kind::Object);
  if (!cluster)
    return cluster.status();
  for (const json::Member &member : (*cluster)->members)
    if (member.key != "ps" && member.key != "worker")
      return Status::invalidArgument(
          "cluster.{} is not supported: a parameter-server job has only "
          "\"ps\" and \"worker\" tasks",
          member.key);
  StatusOr<std::vector<std::string>> servers = readEndpoints(**cluster, "ps");
  if (!servers)
    return servers.status();
  StatusOr<std::vector<std::string>> workers =
      readEndpoints(**cluster, "worker");
  if (!workers)
    return workers.status();

  // This task.
  StatusOr<const json::Value *> task =
      requireMember(*config, kVariable, "task", json::Value::Kind::Object);
  if (!task)
    return task.status();
  StatusOr<const json::Value *> type =
      requireMember(**task, "task", "type", json::Value::Kind::String);
  if (!type)
    return type.status();
  if ((*type)->text != "ps" && (*type)->text != "worker")
    return Status::invalidArgument(
        "task.type is \"{}\", expected \"ps\" or \"worker\"", (*type)->text);
  StatusOr<const json::Value *> index =
      requireMember(**task, "task", "index", json::Value::Kind::Number);
  if (!index)
    return index.status();
  bool isServer = (*type)->text == "ps";
  size_t count = isServer ? servers->size() : workers->size();
  StatusOr<int64_t> value =
      (*index)->isInteger()
          ? parseInteger((*index)->text, 0, std::numeric_limits<int>::max(),
                         "task.index")
          : StatusOr<int64_t>(Status::invalidArgument(
                "task.index is {}, expected a whole number", (*index)->text));
  if (!value)
    return value.status();
  if (*value >= static_cast<int64_t>(count))
    return Status::outOfRange("task.index is {}, but cluster.{} lists {} "
                              "tasks",
                              *value, (*type)->text, count);

  RoleAssignment assignment;
  assignment.role = isServer ? Role::Server : Role::Worker;
  assignment.index = static_cast<int>(*value);
  assignment.workerNum = static_cast<int>(workers->size());
  assignment.serverEndpoints = std::move(*servers);
  assignment.workerEndpoints = std::move(*workers);
  return assignment;
}
