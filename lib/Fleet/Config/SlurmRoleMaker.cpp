//===- SlurmRoleMaker.cpp - Roles of the tasks of a Slurm step ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/SlurmRoleMaker.h"

#include <cstdint>
#include <limits>

using namespace openks;
using namespace openks::fleet;

/// The most tasks a step may have (every task's endpoint is computed).
static constexpr int64_t kMaxTasks = int64_t(1) << 20;

//===----------------------------------------------------------------------===//
// Slurm's compressed lists
//===----------------------------------------------------------------------===//

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// Returns whether `text` is 1 to 9 digits (so that it fits an int).
static bool isShortNumber(const std::string &text) {
  if (text.empty() || text.size() > 9)
    return false;
  for (char c : text)
    if (!isDigit(c))
      return false;
  return true;
}

/// Splits `text` at the commas outside brackets.
static std::vector<std::string> splitOutsideBrackets(const std::string &text) {
  std::vector<std::string> items(1);
  int depth = 0;
  for (char c : text) {
    depth += c == '[' ? 1 : c == ']' ? -1 : 0;
    if (c == ',' && depth == 0)
      items.emplace_back();
    else
      items.back().push_back(c);
  }
  return items;
}

/// Expands the inside of one bracket group ("01-03,07") of `item` of
/// `hostList`; fails when it has more than `maxHosts` values.
static StatusOr<std::vector<std::string>>
expandBracket(const std::string &group, const std::string &item,
              const std::string &hostList, size_t maxHosts) {
  std::vector<std::string> values;
  size_t start = 0;
  while (start <= group.size()) {
    size_t comma = std::min(group.find(',', start), group.size());
    std::string part = group.substr(start, comma - start);
    size_t dash = part.find('-');
    std::string low = part.substr(0, dash);
    std::string high = dash == std::string::npos ? low : part.substr(dash + 1);
    if (!isShortNumber(low) || !isShortNumber(high))
      return Status::invalidArgument(
          "host list item '{}' has '{}' in brackets; expected numbers or "
          "ranges like 01-03",
          item, part);
    int first = std::stoi(low), last = std::stoi(high);
    if (first > last)
      return Status::invalidArgument(
          "host list item '{}' has the decreasing range '{}'", item, part);
    if (static_cast<size_t>(last - first) >= maxHosts - values.size())
      return Status::outOfRange("host list '{}' names more than {} hosts",
                                hostList, maxHosts);
    // The width of the lower bound is kept: [08-10] is 08, 09, 10.
    for (int value = first; value <= last; ++value)
      values.push_back(fmt::format("{:0{}d}", value, low.size()));
    start = comma + 1;
  }
  return values;
}

StatusOr<std::vector<std::string>>
fleet::expandSlurmHostList(const std::string &hostList, size_t maxHosts) {
  std::vector<std::string> hosts;
  for (const std::string &item : splitOutsideBrackets(hostList)) {
    if (item.empty())
      return Status::invalidArgument("host list '{}' has an empty item",
                                     hostList);
    // The item as alternating names and bracket groups, each expanded.
    std::vector<std::vector<std::string>> pieces;
    size_t pos = 0;
    while (pos < item.size()) {
      size_t open = std::min(item.find('[', pos), item.size());
      size_t close = item.find(']', pos);
      if (close < open)
        return Status::invalidArgument("host list item '{}' has an unopened "
                                       "']'",
                                       item);
      if (open > pos)
        pieces.push_back({item.substr(pos, open - pos)});
      if (open == item.size())
        break;
      if (close == std::string::npos)
        return Status::invalidArgument("host list item '{}' has an unclosed "
                                       "'['",
                                       item);
      std::string group = item.substr(open + 1, close - open - 1);
      if (group.find('[') != std::string::npos)
        return Status::invalidArgument("host list item '{}' nests brackets",
                                       item);
      StatusOr<std::vector<std::string>> values =
          expandBracket(group, item, hostList, maxHosts);
      if (!values)
        return values.status();
      pieces.push_back(std::move(*values));
      pos = close + 1;
    }
    size_t count = 1;
    for (const std::vector<std::string> &piece : pieces) {
      if (piece.size() > maxHosts / count)
        return Status::outOfRange("host list '{}' names more than {} hosts",
                                  hostList, maxHosts);
      count *= piece.size();
    }
    if (hosts.size() + count > maxHosts)
      return Status::outOfRange("host list '{}' names more than {} hosts",
                                hostList, maxHosts);
    // Every combination, the last piece varying fastest.
    std::vector<std::string> names(1);
    for (const std::vector<std::string> &piece : pieces) {
      std::vector<std::string> longer;
      for (const std::string &prefix : names)
        for (const std::string &value : piece)
          longer.push_back(prefix + value);
      names = std::move(longer);
    }
    hosts.insert(hosts.end(), names.begin(), names.end());
  }
  return hosts;
}

StatusOr<std::vector<int>>
fleet::expandSlurmTasksPerNode(const std::string &text, size_t maxNodes) {
  std::vector<int> counts;
  for (const std::string &item : splitOutsideBrackets(text)) {
    // "N" or "N(xM)".
    size_t paren = item.find('(');
    std::string tasks = item.substr(0, paren);
    std::string repeat = "1";
    if (paren != std::string::npos) {
      if (item.size() < paren + 4 || item.compare(paren, 2, "(x") != 0 ||
          item.back() != ')')
        return Status::invalidArgument(
            "tasks per node '{}' has the item '{}'; expected N or N(xM)", text,
            item);
      repeat = item.substr(paren + 2, item.size() - paren - 3);
    }
    if (!isShortNumber(tasks) || !isShortNumber(repeat) ||
        std::stoi(tasks) < 1 || std::stoi(repeat) < 1)
      return Status::invalidArgument(
          "tasks per node '{}' has the item '{}'; expected N or N(xM) with "
          "positive numbers",
          text, item);
    size_t times = static_cast<size_t>(std::stoi(repeat));
    if (times > maxNodes - counts.size())
      return Status::outOfRange("tasks per node '{}' lists more than {} nodes",
                                text, maxNodes);
    counts.insert(counts.end(), times, std::stoi(tasks));
  }
  return counts;
}

StatusOr<std::vector<int>> fleet::expandSlurmPortList(const std::string &text) {
  std::vector<int> ports;
  for (const std::string &item : splitOutsideBrackets(text)) {
    // "N" or "N-M".
    size_t dash = item.find('-');
    std::string low = item.substr(0, dash);
    std::string high = dash == std::string::npos ? low : item.substr(dash + 1);
    if (!isShortNumber(low) || !isShortNumber(high))
      return Status::invalidArgument(
          "port list '{}' has the item '{}'; expected a port or a range like "
          "12000-12003",
          text, item);
    int first = std::stoi(low), last = std::stoi(high);
    if (first < 1 || last > 65535 || first > last ||
        (!ports.empty() && first <= ports.back()))
      return Status::invalidArgument(
          "port list '{}' has the item '{}'; expected ports from 1 to 65535 "
          "in increasing order",
          text, item);
    for (int port = first; port <= last; ++port)
      ports.push_back(port);
  }
  return ports;
}

//===----------------------------------------------------------------------===//
// SlurmRoleMaker
//===----------------------------------------------------------------------===//

SlurmRoleMaker::SlurmRoleMaker(Environment environment,
                               std::optional<int> serverNum,
                               std::optional<int> basePort)
    : environment_(std::move(environment)), serverNum_(serverNum),
      basePort_(basePort) {}

std::string SlurmRoleMaker::describe() const {
  std::optional<std::string> rank = environment_.get("SLURM_PROCID");
  if (!rank)
    return "Slurm role maker";
  return fmt::format("Slurm role maker (SLURM_PROCID={})", *rank);
}

/// Returns the name of the first of `names` that is set in `environment`,
/// or the last name when none is.
static std::string firstSet(const Environment &environment,
                            std::initializer_list<const char *> names) {
  for (const char *name : names)
    if (environment.has(name))
      return name;
  return *(names.end() - 1);
}

/// Returns the integer from the constructor (`given`), else from
/// `variable`, else `fallback`; fails when none gives one or it is not in
/// [min, max].
static StatusOr<int64_t> setting(const Environment &environment,
                                 std::optional<int> given, const char *what,
                                 const char *variable,
                                 std::optional<int> fallback, int64_t min,
                                 int64_t max) {
  if (given) {
    if (*given < min || *given > max)
      return Status::outOfRange("{} is {}, outside [{}, {}]", what, *given, min,
                                max);
    return *given;
  }
  if (environment.has(variable))
    return environment.requireInteger(variable, min, max);
  if (fallback)
    return *fallback;
  return Status::invalidArgument(
      "{} is not given: pass it to the Slurm role maker or set {}", what,
      variable);
}

/// Slurm's ids of the steps that are not an srun's (slurm.h), which it
/// prints as signed numbers ("%d") or unsigned ones.
static constexpr int64_t kMaxNormalStep = 0xfffffff0;
static constexpr int64_t kBatchStep = 0xfffffffb;
static constexpr int64_t kInteractiveStep = 0xfffffffa;

/// Fails unless this process is a task of a job step that srun started:
/// Slurm sets SLURM_PROCID in a batch script too (its batch step) and
/// SLURM_JOB_ID in salloc's shell, where SLURM_PROCID would be 0 for every
/// process started by hand.
static Status requireSrunStep(const Environment &environment) {
  std::string variable =
      firstSet(environment, {"SLURM_STEP_ID", "SLURM_STEPID"});
  if (!environment.has(variable)) {
    if (std::optional<std::string> job = environment.get("SLURM_JOB_ID"))
      return Status::invalidArgument(
          "this process is in Slurm job {} (SLURM_JOB_ID) but in no job "
          "step (SLURM_STEP_ID is not set): start every role with srun, e.g. "
          "'srun --multi-prog roles.conf' in the batch script",
          *job);
    return Status::ok();
  }
  StatusOr<int64_t> id =
      environment.requireInteger(variable, std::numeric_limits<int32_t>::min(),
                                 std::numeric_limits<uint32_t>::max());
  if (!id)
    return id.status();
  int64_t step = *id < 0 ? *id + (int64_t(1) << 32) : *id;
  if (step <= kMaxNormalStep)
    return Status::ok();
  const char *which = "a step of Slurm's own, not a step of srun";
  if (step == kBatchStep)
    which = "the batch step: this process is the batch script, not a task "
            "of srun";
  else if (step == kInteractiveStep)
    which = "salloc's interactive step, not a step of srun";
  return Status::invalidArgument(
      "environment variable {} is {}, {}; start every role with srun, e.g. "
      "'srun --multi-prog roles.conf' in the batch script",
      variable, *environment.get(variable), which);
}

namespace {
/// Where the block layout puts a task.
struct Placement {
  /// The node's index in the step's node list, and its name.
  int64_t node;
  std::string nodeName;
  /// The task's rank among the tasks of its node.
  int64_t local;
  /// The ranks of the node's tasks: firstRank to firstRank + count - 1.
  int64_t firstRank;
  int64_t count;
};
} // namespace

/// Returns the ranks in SLURM_GTIDS ("0,1,2"), or nothing when malformed.
static std::optional<std::vector<int64_t>> parseRanks(const std::string &text) {
  std::vector<int64_t> ranks;
  for (const std::string &item : splitOutsideBrackets(text)) {
    if (!isShortNumber(item))
      return std::nullopt;
    ranks.push_back(std::stoi(item));
  }
  return ranks;
}

/// Fails when the variables srun gives each task place task `rank`
/// elsewhere than `expected`, the block layout: srun's cyclic, plane and
/// arbitrary distributions, and a topology-ordered one, lay tasks out
/// otherwise.
static Status checkPlacement(const Environment &environment, int64_t rank,
                             const Placement &expected) {
  std::string found;
  if (std::optional<std::string> node = environment.get("SLURM_NODEID")) {
    StatusOr<int64_t> id =
        environment.requireInteger("SLURM_NODEID", 0, kMaxTasks);
    if (!id)
      return id.status();
    if (*id != expected.node)
      found = fmt::format("SLURM_NODEID is {}", *node);
  }
  if (std::optional<std::string> name = environment.get("SLURMD_NODENAME");
      found.empty() && name && *name != expected.nodeName)
    found = fmt::format("SLURMD_NODENAME is {}", *name);
  if (std::optional<std::string> local = environment.get("SLURM_LOCALID");
      found.empty() && local) {
    StatusOr<int64_t> id =
        environment.requireInteger("SLURM_LOCALID", 0, kMaxTasks);
    if (!id)
      return id.status();
    if (*id != expected.local)
      found = fmt::format("SLURM_LOCALID is {}", *local);
  }
  if (std::optional<std::string> ranks = environment.get("SLURM_GTIDS");
      found.empty() && ranks) {
    std::optional<std::vector<int64_t>> list = parseRanks(*ranks);
    if (!list)
      return Status::invalidArgument(
          "environment variable SLURM_GTIDS is '{}', not a comma-separated "
          "list of task ranks",
          *ranks);
    std::vector<int64_t> block;
    for (int64_t i = 0; i < expected.count; ++i)
      block.push_back(expected.firstRank + i);
    if (*list != block)
      found = fmt::format("SLURM_GTIDS is {}", *ranks);
  }
  if (found.empty())
    return Status::ok();
  std::string ranks =
      expected.count == 1
          ? std::to_string(expected.firstRank)
          : fmt::format("{}-{}", expected.firstRank,
                        expected.firstRank + expected.count - 1);
  std::string distribution;
  if (std::optional<std::string> value = environment.get("SLURM_DISTRIBUTION"))
    distribution = fmt::format(" (SLURM_DISTRIBUTION is {})", *value);
  return Status::invalidArgument(
      "environment variable {}, but the block layout the role maker assumes "
      "puts task {} on node {} (node {}) as its task {} of tasks {}: srun "
      "laid the tasks out otherwise{}; run srun with --distribution=block",
      found, rank, expected.nodeName, expected.node, expected.local, ranks,
      distribution);
}

StatusOr<RoleAssignment> SlurmRoleMaker::readRole() const {
  OPENKS_RETURN_IF_ERROR(requireSrunStep(environment_));
  // srun sets both; SLURM_NTASKS keeps the job's count under --preserve-env.
  std::string taskVariable =
      firstSet(environment_, {"SLURM_STEP_NUM_TASKS", "SLURM_NTASKS"});
  StatusOr<int64_t> tasks =
      environment_.requireInteger(taskVariable, 1, kMaxTasks);
  if (!tasks)
    return tasks.status();
  if (*tasks < 2)
    return Status::invalidArgument(
        "environment variable {} is {}, but a job needs at least 2 tasks (a "
        "server and a worker)",
        taskVariable, *tasks);
  StatusOr<int64_t> rank =
      environment_.requireInteger("SLURM_PROCID", 0, kMaxTasks);
  if (!rank)
    return rank.status();
  if (*rank >= *tasks)
    return Status::outOfRange(
        "environment variable SLURM_PROCID is {}, but {} is {}", *rank,
        taskVariable, *tasks);
  StatusOr<int64_t> servers =
      setting(environment_, serverNum_, "the number of servers",
              "OPENKS_SLURM_SERVERS", std::nullopt, 1, *tasks - 1);
  if (!servers)
    return servers.status().withContext(
        fmt::format("with {}={}", taskVariable, *tasks));

  // The ports of each node's tasks: from the base port when one is given,
  // else those srun reserved (--resv-ports, or MpiParams=ports), else from
  // the default base port.
  std::vector<int> reserved;
  std::optional<std::string> reservedList =
      environment_.get("SLURM_STEP_RESV_PORTS");
  bool baseGiven = basePort_ || environment_.has("OPENKS_SLURM_BASE_PORT");
  if (reservedList && !baseGiven) {
    StatusOr<std::vector<int>> ports = expandSlurmPortList(*reservedList);
    if (!ports)
      return ports.status().withContext(
          "environment variable SLURM_STEP_RESV_PORTS");
    reserved = std::move(*ports);
  }
  StatusOr<int64_t> basePort =
      setting(environment_, basePort_, "the base port",
              "OPENKS_SLURM_BASE_PORT", kDefaultBasePort, 1, 65535);
  if (!basePort)
    return basePort.status();

  // The nodes of the step (the job's, unless srun gave the step fewer).
  std::string nodeVariable =
      firstSet(environment_, {"SLURM_STEP_NODELIST", "SLURM_JOB_NODELIST"});
  StatusOr<std::string> nodeList = environment_.require(nodeVariable);
  if (!nodeList)
    return nodeList.status();
  StatusOr<std::vector<std::string>> nodes = expandSlurmHostList(*nodeList);
  if (!nodes)
    return nodes.status().withContext("environment variable " + nodeVariable);

  // How many tasks each node runs.
  std::vector<int64_t> perNode;
  std::string countVariable = firstSet(
      environment_, {"SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE"});
  if (environment_.has(countVariable)) {
    StatusOr<std::vector<int>> counts =
        expandSlurmTasksPerNode(*environment_.get(countVariable));
    if (!counts)
      return counts.status().withContext("environment variable " +
                                         countVariable);
    int64_t sum = 0;
    for (int count : *counts)
      sum += count;
    if (counts->size() != nodes->size() || sum != *tasks)
      return Status::invalidArgument(
          "environment variable {} gives {} tasks on {} nodes, but {} is {} "
          "and {} lists {} nodes",
          countVariable, sum, counts->size(), taskVariable, *tasks,
          nodeVariable, nodes->size());
    perNode.assign(counts->begin(), counts->end());
  } else {
    // Slurm's block distribution: balanced, the first nodes one task more.
    int64_t nodeCount = static_cast<int64_t>(nodes->size());
    for (int64_t node = 0; node < nodeCount; ++node)
      perNode.push_back(*tasks / nodeCount + (node < *tasks % nodeCount));
  }

  // Task t runs on the node whose block holds t; its port is the one of its
  // rank on that node.
  std::vector<std::string> endpoints;
  std::optional<Placement> self;
  for (size_t node = 0; node < nodes->size(); ++node) {
    int64_t firstRank = static_cast<int64_t>(endpoints.size());
    if (!reserved.empty() &&
        perNode[node] > static_cast<int64_t>(reserved.size()))
      return Status::invalidArgument(
          "environment variable SLURM_STEP_RESV_PORTS ('{}') reserves {} "
          "ports, but node {} runs {} tasks",
          *reservedList, reserved.size(), (*nodes)[node], perNode[node]);
    for (int64_t local = 0; local < perNode[node]; ++local) {
      if (reserved.empty() && *basePort + local > 65535)
        return Status::outOfRange(
            "task {} is task {} on node {}: base port {} + {} is above 65535",
            endpoints.size(), local, (*nodes)[node], *basePort, local);
      if (firstRank + local == *rank)
        self = Placement{static_cast<int64_t>(node), (*nodes)[node], local,
                         firstRank, perNode[node]};
      int64_t port = reserved.empty() ? *basePort + local : reserved[local];
      endpoints.push_back(fmt::format("{}:{}", (*nodes)[node], port));
    }
  }
  OPENKS_RETURN_IF_ERROR(checkPlacement(environment_, *rank, *self));

  RoleAssignment assignment;
  bool isServer = *rank < *servers;
  assignment.role = isServer ? Role::Server : Role::Worker;
  assignment.index = static_cast<int>(isServer ? *rank : *rank - *servers);
  assignment.workerNum = static_cast<int>(*tasks - *servers);
  assignment.serverEndpoints.assign(endpoints.begin(),
                                    endpoints.begin() + *servers);
  assignment.workerEndpoints.assign(endpoints.begin() + *servers,
                                    endpoints.end());
  return assignment;
}
