//===- TFConfigRoleMaker.cpp - Roles from TF_CONFIG -----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TFConfigRoleMaker.h"

#include "StrictJson.h"

#include <limits>

using namespace openks;
using namespace openks::fleet;
using Json = nlohmann::json;

static constexpr const char *kVariable = "TF_CONFIG";
static constexpr const char *kWorkersVariable = "OPENKS_TF_WORKERS";
static constexpr int64_t kMaxIndex = std::numeric_limits<int>::max();

TFConfigRoleMaker::TFConfigRoleMaker(Environment environment,
                                     std::optional<int> workerNum)
    : environment_(std::move(environment)), workerNum_(workerNum) {}

std::string TFConfigRoleMaker::describe() const {
  return "TF_CONFIG role maker";
}

namespace {
/// A value of TF_CONFIG and its path.
struct Node {
  const Json *value;
  std::string path;
};

/// What a member must be.
enum class Expect { Object, Array, String, Number };
} // namespace

/// Returns how messages name the value at `path`.
static std::string display(const std::string &path) {
  return path.empty() ? kVariable : path;
}

/// Returns the member `key` of the object `object`, if it has one.
static std::optional<Node> findMember(const Node &object,
                                      std::string_view key) {
  auto it = object.value->find(key);
  if (it == object.value->end())
    return std::nullopt;
  return Node{&*it, json::memberPath(object.path, key)};
}

static bool matches(const Json &value, Expect expect) {
  switch (expect) {
  case Expect::Object:
    return value.is_object();
  case Expect::Array:
    return value.is_array();
  case Expect::String:
    return value.is_string();
  case Expect::Number:
    return value.is_number();
  }
  return false;
}

static const char *describeExpect(Expect expect) {
  switch (expect) {
  case Expect::Object:
    return "an object";
  case Expect::Array:
    return "an array";
  case Expect::String:
    return "a string";
  case Expect::Number:
    return "a number";
  }
  return "";
}

/// Returns the member `key` of the object `object` when it is what
/// `expect` says; fails when it is missing or something else.
static StatusOr<Node> requireMember(const Node &object, std::string_view key,
                                    Expect expect) {
  std::optional<Node> member = findMember(object, key);
  if (!member)
    return Status::invalidArgument("{} has no \"{}\"", display(object.path),
                                   key);
  if (!matches(*member->value, expect))
    return Status::invalidArgument(
        "{}.{} is {}, expected {}", display(object.path), key,
        json::describeType(*member->value), describeExpect(expect));
  return *member;
}

/// Returns the endpoint `node`, which must be a string.
static StatusOr<std::string> readEndpoint(const Node &node) {
  if (!node.value->is_string())
    return Status::invalidArgument("{} is {}, expected a host:port string",
                                   node.path, json::describeType(*node.value));
  return node.value->get<std::string>();
}

/// Returns the endpoints of the job `job` of `cluster`: a non-empty array
/// of strings.
static StatusOr<std::vector<std::string>> readEndpoints(const Node &cluster,
                                                        std::string_view job) {
  StatusOr<Node> list = requireMember(cluster, job, Expect::Array);
  if (!list)
    return list.status();
  if (list->value->empty())
    return Status::invalidArgument("{} is empty", list->path);
  std::vector<std::string> endpoints;
  for (size_t i = 0; i < list->value->size(); ++i) {
    StatusOr<std::string> endpoint =
        readEndpoint({&(*list->value)[i], json::elementPath(list->path, i)});
    if (!endpoint)
      return endpoint.status();
    endpoints.push_back(std::move(*endpoint));
  }
  return endpoints;
}

/// Returns the whole number `node` of `document`, in [0, kMaxIndex].
static StatusOr<int64_t> readIndex(const json::Document &document,
                                   const Node &node) {
  std::string text = document.spelling(node.path, *node.value);
  if (!node.value->is_number_integer() &&
      text.find_first_of(".eE") != std::string::npos)
    return Status::invalidArgument("{} is {}, expected a whole number",
                                   node.path, text);
  return parseInteger(text, 0, kMaxIndex, node.path);
}

/// Returns the role of an evaluator, task `task`: only its index, checked
/// against the evaluators of `cluster` when it lists them.
static StatusOr<RoleAssignment>
readEvaluator(const json::Document &document, const Node &task,
              const std::optional<Node> &cluster) {
  StatusOr<Node> index = requireMember(task, "index", Expect::Number);
  if (!index)
    return index.status();
  StatusOr<int64_t> value = readIndex(document, *index);
  if (!value)
    return value.status();
  if (cluster && cluster->value->is_object())
    if (std::optional<Node> evaluators = findMember(*cluster, "evaluator");
        evaluators && evaluators->value->is_array() &&
        *value >= static_cast<int64_t>(evaluators->value->size()))
      return Status::outOfRange("task.index is {}, but {} lists {} tasks",
                                *value, evaluators->path,
                                evaluators->value->size());
  RoleAssignment assignment;
  assignment.role = Role::Evaluator;
  assignment.index = static_cast<int>(*value);
  return assignment;
}

/// Returns the chief of `cluster`, "chief" or "master": at most one task.
static StatusOr<std::optional<std::string>> readChief(const Node &cluster) {
  std::optional<Node> chief = findMember(cluster, "chief");
  std::optional<Node> master = findMember(cluster, "master");
  if (chief && master)
    return Status::invalidArgument(
        "{} has both \"chief\" and \"master\"; TensorFlow takes one task as "
        "the chief",
        cluster.path);
  if (!chief && !master)
    return std::optional<std::string>();
  const char *job = chief ? "chief" : "master";
  StatusOr<std::vector<std::string>> endpoints = readEndpoints(cluster, job);
  if (!endpoints)
    return endpoints.status();
  if (endpoints->size() > 1)
    return Status::invalidArgument(
        "{}.{} lists {} tasks; TensorFlow allows at most one chief",
        cluster.path, job, endpoints->size());
  return std::optional<std::string>(endpoints->front());
}

namespace {
/// What a cluster lists.
struct Cluster {
  std::vector<std::string> servers;
  std::optional<std::string> chief;
  /// The worker tasks of a full cluster.
  std::vector<std::string> workers;
  /// The "worker" object of a sparse cluster.
  std::optional<Node> sparseWorkers;
};
} // namespace

/// Reads `cluster`: servers, a chief and workers, perhaps evaluators.
static StatusOr<Cluster> readCluster(const Node &cluster) {
  if (!cluster.value->is_object())
    return Status::invalidArgument("{}.{} is {}, expected an object", kVariable,
                                   cluster.path,
                                   json::describeType(*cluster.value));
  for (const auto &member : cluster.value->items())
    if (const std::string &job = member.key();
        job != "ps" && job != "worker" && job != "chief" && job != "master" &&
        job != "evaluator")
      return Status::invalidArgument(
          "{}.{} is not supported: a parameter-server job has \"ps\", "
          "\"chief\" (or \"master\"), \"worker\" and \"evaluator\" tasks",
          cluster.path, job);
  Cluster result;
  StatusOr<std::vector<std::string>> servers = readEndpoints(cluster, "ps");
  if (!servers)
    return servers.status();
  result.servers = std::move(*servers);
  StatusOr<std::optional<std::string>> chief = readChief(cluster);
  if (!chief)
    return chief.status();
  result.chief = std::move(*chief);
  std::optional<Node> workers = findMember(cluster, "worker");
  if (!workers && !result.chief)
    return Status::invalidArgument("{} has no \"worker\"", cluster.path);
  if (workers && workers->value->is_object()) {
    result.sparseWorkers = workers;
  } else if (workers) {
    StatusOr<std::vector<std::string>> list = readEndpoints(cluster, "worker");
    if (!list)
      return list.status();
    result.workers = std::move(*list);
  }
  return result;
}

namespace {
/// The number of workers stated apart from TF_CONFIG, and who states it.
struct GivenWorkers {
  int64_t count;
  std::string source;
};
} // namespace

/// Returns the number of workers the constructor (`workerNum`) or
/// OPENKS_TF_WORKERS gives, if any.
static StatusOr<std::optional<GivenWorkers>>
givenWorkers(const Environment &environment, std::optional<int> workerNum) {
  if (workerNum) {
    if (*workerNum < 1)
      return Status::outOfRange("the number of workers given to the role "
                                "maker is {}, not a positive number",
                                *workerNum);
    return std::optional<GivenWorkers>(GivenWorkers{
        *workerNum, fmt::format("the role maker is given {}", *workerNum)});
  }
  if (!environment.has(kWorkersVariable))
    return std::optional<GivenWorkers>();
  StatusOr<int64_t> count =
      environment.requireInteger(kWorkersVariable, 1, kMaxIndex);
  if (!count)
    return count.status();
  return std::optional<GivenWorkers>(
      GivenWorkers{*count, fmt::format("{} is {}", kWorkersVariable, *count)});
}

/// Returns the role of task `type` `index` of a sparse cluster, whose
/// "worker" member `workers` maps task indices to endpoints; `chiefs` is
/// the number of chiefs the cluster lists.
static StatusOr<RoleAssignment>
readSparseWorker(const Node &workers, const std::string &type, int64_t index,
                 std::vector<std::string> servers, int chiefs,
                 const std::optional<GivenWorkers> &given) {
  if (type != "worker")
    return Status::invalidArgument(
        "{} is an object, a sparse cluster, which tells a {} task too little "
        "of the job (Kubeflow's enableDynamicWorker gives a ps task only its "
        "own endpoint); run the TFJob without enableDynamicWorker",
        workers.path, type);
  if (!given)
    return Status::invalidArgument(
        "the number of workers is unknown: {} is an object, a sparse "
        "cluster, which names only some workers; pass the number to the "
        "TF_CONFIG role maker or set {}",
        workers.path, kWorkersVariable);
  std::optional<std::string> own;
  for (const auto &member : workers.value->items()) {
    StatusOr<int64_t> task =
        parseInteger(member.key(), 0, kMaxIndex, "a key of " + workers.path);
    if (!task)
      return task.status();
    std::string path = json::memberPath(workers.path, member.key());
    if (*task + chiefs >= given->count)
      return Status::outOfRange("{} is worker {} of the job, but {}", path,
                                *task + chiefs, given->source);
    StatusOr<std::string> endpoint = readEndpoint({&member.value(), path});
    if (!endpoint)
      return endpoint.status();
    if (*task == index)
      own = std::move(*endpoint);
  }
  if (!own)
    return Status::invalidArgument("{} has no entry \"{}\" for this task",
                                   workers.path, index);
  RoleAssignment assignment;
  assignment.role = Role::Worker;
  assignment.index = static_cast<int>(index + chiefs);
  assignment.workerNum = static_cast<int>(given->count);
  assignment.serverEndpoints = std::move(servers);
  assignment.endpoint = std::move(*own);
  return assignment;
}

StatusOr<RoleAssignment> TFConfigRoleMaker::readRole() const {
  StatusOr<std::string> text = environment_.require(kVariable);
  if (!text)
    return text.status();
  StatusOr<json::Document> document = json::parse(*text, kVariable);
  if (!document)
    return document.status().withContext(kVariable);
  Node root{&document->root, ""};
  if (!root.value->is_object())
    return Status::invalidArgument("{} is {}, expected an object", kVariable,
                                   json::describeType(*root.value));

  // Kubeflow wrote a sparse cluster under "sparseCluster" before
  // training-operator 1.7, and under "cluster" since.
  std::optional<Node> cluster = findMember(root, "cluster");
  if (std::optional<Node> sparse = findMember(root, "sparseCluster")) {
    if (cluster)
      return Status::invalidArgument(
          "{} has both \"cluster\" and \"sparseCluster\"", kVariable);
    cluster = sparse;
  }

  // An evaluator takes no part in the job, and a sparse cluster tells it
  // nothing: only its task is read.
  if (std::optional<Node> task = findMember(root, "task");
      task && task->value->is_object()) {
    std::optional<Node> type = findMember(*task, "type");
    if (type && *type->value == "evaluator")
      return readEvaluator(*document, *task, cluster);
  }

  if (!cluster)
    return Status::invalidArgument("{} has no \"cluster\"", kVariable);
  StatusOr<Cluster> jobs = readCluster(*cluster);
  if (!jobs)
    return jobs.status();

  // This task.
  StatusOr<Node> task = requireMember(root, "task", Expect::Object);
  if (!task)
    return task.status();
  StatusOr<Node> typeNode = requireMember(*task, "type", Expect::String);
  if (!typeNode)
    return typeNode.status();
  const std::string &type = typeNode->value->get_ref<const std::string &>();
  if (type != "ps" && type != "worker" && type != "chief" && type != "master")
    return Status::invalidArgument("task.type is \"{}\", expected \"ps\", "
                                   "\"worker\", \"chief\", \"master\" or "
                                   "\"evaluator\"",
                                   type);
  if ((type == "chief" || type == "master") && !findMember(*cluster, type))
    return Status::invalidArgument("task.type is \"{}\", but {} has no \"{}\"",
                                   type, cluster->path, type);
  StatusOr<Node> index = requireMember(*task, "index", Expect::Number);
  if (!index)
    return index.status();
  StatusOr<int64_t> value = readIndex(*document, *index);
  if (!value)
    return value.status();

  StatusOr<std::optional<GivenWorkers>> given =
      givenWorkers(environment_, workerNum_);
  if (!given)
    return given.status();
  int chiefs = jobs->chief ? 1 : 0;
  if (jobs->sparseWorkers)
    return readSparseWorker(*jobs->sparseWorkers, type, *value,
                            std::move(jobs->servers), chiefs, *given);

  size_t count = type == "ps"       ? jobs->servers.size()
                 : type == "worker" ? jobs->workers.size()
                                    : 1;
  if (*value >= static_cast<int64_t>(count))
    return Status::outOfRange("task.index is {}, but {}.{} lists {} tasks",
                              *value, cluster->path, type, count);
  std::vector<std::string> trainers;
  if (jobs->chief)
    trainers.push_back(*jobs->chief);
  trainers.insert(trainers.end(), jobs->workers.begin(), jobs->workers.end());
  if (*given && (*given)->count != static_cast<int64_t>(trainers.size()))
    return Status::invalidArgument(
        "{} has {} workers{}, but {}", cluster->path, trainers.size(),
        jobs->chief ? ", counting its chief" : "", (*given)->source);

  RoleAssignment assignment;
  assignment.role = type == "ps" ? Role::Server : Role::Worker;
  assignment.index =
      static_cast<int>(type == "worker" ? *value + chiefs : *value);
  assignment.workerNum = static_cast<int>(trainers.size());
  assignment.serverEndpoints = std::move(jobs->servers);
  assignment.workerEndpoints = std::move(trainers);
  return assignment;
}
