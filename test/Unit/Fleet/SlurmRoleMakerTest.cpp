//===- SlurmRoleMakerTest.cpp - Tests of Slurm roles ----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Host lists, task counts and port lists in the forms Slurm writes them,
// the block layout of tasks over nodes, what srun tells each task of its
// place and ports, the batch script of docs/Deploy.md, and broken
// environments.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/SlurmRoleMaker.h"

#include "Fleet/FleetTesting.h"

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::testing;

namespace {

using Strings = std::vector<std::string>;
using Variables = std::map<std::string, std::string>;

/// Returns the expansion of `list`, or "error: ..." as its only element.
Strings hosts(const std::string &list, size_t maxHosts = 65536) {
  StatusOr<Strings> expanded = expandSlurmHostList(list, maxHosts);
  return expanded ? *expanded
                  : Strings{"error: " + expanded.status().message()};
}

// Tests host lists in Slurm's compressed form.
TEST(SlurmRoleMakerTest, ExpandsHostLists) {
  EXPECT_EQ(hosts("gpu5"), Strings({"gpu5"}));
  EXPECT_EQ(hosts("node[01-03,07],gpu5"),
            Strings({"node01", "node02", "node03", "node07", "gpu5"}));
  EXPECT_EQ(hosts("n[8-10]"), Strings({"n8", "n9", "n10"}));
  EXPECT_EQ(hosts("n[08-10]"), Strings({"n08", "n09", "n10"}));
  EXPECT_EQ(hosts("n[098-100]"), Strings({"n098", "n099", "n100"}));
  EXPECT_EQ(hosts("a,b[1-2]-ib,c"), Strings({"a", "b1-ib", "b2-ib", "c"}));
  EXPECT_EQ(hosts("r[1-2]n[1,3]"), Strings({"r1n1", "r1n3", "r2n1", "r2n3"}));
  EXPECT_EQ(hosts("n[5]"), Strings({"n5"}));
}

// Tests that malformed host lists are refused, naming the item.
TEST(SlurmRoleMakerTest, RefusesBrokenHostLists) {
  EXPECT_EQ(hosts(""), Strings({"error: host list '' has an empty item"}));
  EXPECT_EQ(hosts("a,,b"),
            Strings({"error: host list 'a,,b' has an empty item"}));
  EXPECT_EQ(hosts("n[1-3"),
            Strings({"error: host list item 'n[1-3' has an unclosed '['"}));
  EXPECT_EQ(hosts("n1-3]"),
            Strings({"error: host list item 'n1-3]' has an unopened ']'"}));
  EXPECT_EQ(hosts("n[[1]]"),
            Strings({"error: host list item 'n[[1]]' nests brackets"}));
  EXPECT_EQ(hosts("n[3-1]"),
            Strings({"error: host list item 'n[3-1]' has the decreasing "
                     "range '3-1'"}));
  EXPECT_EQ(hosts("n[a-b]"),
            Strings({"error: host list item 'n[a-b]' has 'a-b' in brackets; "
                     "expected numbers or ranges like 01-03"}));
  EXPECT_EQ(hosts("n[1,]"),
            Strings({"error: host list item 'n[1,]' has '' in brackets; "
                     "expected numbers or ranges like 01-03"}));
  EXPECT_EQ(hosts("n[1-2-3]"),
            Strings({"error: host list item 'n[1-2-3]' has '1-2-3' in "
                     "brackets; expected numbers or ranges like 01-03"}));
  EXPECT_EQ(hosts("n[1-999999999]"),
            Strings({"error: host list 'n[1-999999999]' names more than "
                     "65536 hosts"}));
  EXPECT_EQ(hosts("a[1-3],b[1-3]", 5),
            Strings({"error: host list 'a[1-3],b[1-3]' names more than 5 "
                     "hosts"}));
}

// Tests SLURM_TASKS_PER_NODE's compressed counts.
TEST(SlurmRoleMakerTest, ExpandsTasksPerNode) {
  StatusOr<std::vector<int>> counts = expandSlurmTasksPerNode("3(x2),2,1(x1)");
  ASSERT_TRUE(counts.isOk()) << counts.status().message();
  EXPECT_EQ(*counts, (std::vector<int>{3, 3, 2, 1}));
  for (const char *text :
       {"", "2,", "0", "2(x0)", "2(x)", "2x3", "2(3)", "2(x3", "-1"}) {
    SCOPED_TRACE(text);
    counts = expandSlurmTasksPerNode(text);
    ASSERT_FALSE(counts.isOk());
    EXPECT_NE(counts.status().message().find("tasks per node"),
              std::string::npos);
  }
  EXPECT_FALSE(expandSlurmTasksPerNode("1(x999999999)").isOk());
}

/// The variables of task `rank` of an srun of `tasks` tasks on `nodes`.
Variables slurm(int rank, int tasks, const std::string &nodes) {
  return {{"SLURM_PROCID", std::to_string(rank)},
          {"SLURM_NTASKS", std::to_string(tasks)},
          {"SLURM_JOB_NODELIST", nodes}};
}

/// Returns the role of a role maker over `variables`.
RoleAssignment roleOf(Variables variables, std::optional<int> servers,
                      std::optional<int> port = std::nullopt) {
  SlurmRoleMaker maker(Environment::fromMap(std::move(variables)), servers,
                       port);
  return generate(maker);
}

/// Returns the error of a role maker over `variables`, without its name.
std::string errorOf(Variables variables, std::optional<int> servers,
                    std::optional<int> port = std::nullopt) {
  SlurmRoleMaker maker(Environment::fromMap(std::move(variables)), servers,
                       port);
  std::string error = generateError(maker);
  size_t colon = error.find("): ");
  return colon == std::string::npos ? error : error.substr(colon + 3);
}

// Tests the block layout: 7 tasks on 3 nodes run 3, 2 and 2 per node, the
// first 2 tasks serve.
TEST(SlurmRoleMakerTest, SpreadsTasksInBlocks) {
  Strings servers = {"n1:6170", "n1:6171"};
  Strings workers = {"n1:6172", "n2:6170", "n2:6171", "n3:6170", "n3:6171"};
  for (int rank = 0; rank < 7; ++rank) {
    SCOPED_TRACE(rank);
    RoleAssignment expected =
        rank < 2 ? makeAssignment(Role::Server, rank, 5, servers, workers)
                 : makeAssignment(Role::Worker, rank - 2, 5, servers, workers);
    EXPECT_EQ(roleOf(slurm(rank, 7, "n[1-3]"), 2), expected);
  }
  SlurmRoleMaker maker(Environment::fromMap(slurm(3, 7, "n[1-3]")), 2);
  ASSERT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.currentEndpoint(), "n2:6170");
  EXPECT_EQ(maker.describe(), "Slurm role maker (SLURM_PROCID=3)");

  // Fewer tasks than nodes: the last nodes run none.
  EXPECT_EQ(roleOf(slurm(1, 2, "n[1-3]"), 1),
            makeAssignment(Role::Worker, 0, 1, {"n1:6170"}, {"n2:6170"}));
}

// Tests that SLURM_TASKS_PER_NODE (and the step's own variables) take
// precedence, and the server count and base port from variables.
TEST(SlurmRoleMakerTest, FollowsSlurmsCounts) {
  Variables variables = slurm(4, 5, "a,b");
  variables["SLURM_TASKS_PER_NODE"] = "1,4";
  variables["OPENKS_SLURM_SERVERS"] = "1";
  variables["OPENKS_SLURM_BASE_PORT"] = "7000";
  Strings workers = {"b:7000", "b:7001", "b:7002", "b:7003"};
  EXPECT_EQ(roleOf(variables, std::nullopt),
            makeAssignment(Role::Worker, 3, 4, {"a:7000"}, workers));
  // The constructor's settings win over the variables.
  EXPECT_EQ(roleOf(variables, 2, 8000),
            makeAssignment(Role::Worker, 2, 3, {"a:8000", "b:8000"},
                           {"b:8001", "b:8002", "b:8003"}));

  variables["SLURM_STEP_NODELIST"] = "c,d";
  variables["SLURM_STEP_TASKS_PER_NODE"] = "2(x2)";
  variables["SLURM_NTASKS"] = "4";
  variables["SLURM_PROCID"] = "1";
  EXPECT_EQ(roleOf(variables, std::nullopt),
            makeAssignment(Role::Worker, 0, 3, {"c:7000"},
                           {"c:7001", "d:7000", "d:7001"}));
}

// Tests that broken environments are refused, naming the variable.
TEST(SlurmRoleMakerTest, RefusesBrokenEnvironments) {
  EXPECT_EQ(errorOf({}, 1),
            "Slurm role maker: environment variable SLURM_NTASKS is not set");
  EXPECT_EQ(errorOf(slurm(0, 1, "n"), 1),
            "environment variable SLURM_NTASKS is 1, but a job needs at least "
            "2 tasks (a server and a worker)");
  EXPECT_EQ(errorOf(slurm(0, 2000000, "n"), 1),
            "environment variable SLURM_NTASKS is 2000000, outside [1, "
            "1048576]");
  Variables variables = slurm(0, 4, "n[1-2]");
  variables.erase("SLURM_PROCID");
  EXPECT_EQ(errorOf(variables, 1),
            "Slurm role maker: environment variable SLURM_PROCID is not set");
  EXPECT_EQ(errorOf(slurm(4, 4, "n[1-2]"), 1),
            "environment variable SLURM_PROCID is 4, but SLURM_NTASKS is 4");
  EXPECT_EQ(errorOf(slurm(0, 4, "n[1-2]"), std::nullopt),
            "with SLURM_NTASKS=4: the number of servers is not given: pass it "
            "to the Slurm role maker or set OPENKS_SLURM_SERVERS");
  EXPECT_EQ(errorOf(slurm(0, 4, "n[1-2]"), 4),
            "with SLURM_NTASKS=4: the number of servers is 4, outside [1, 3]");
  variables = slurm(0, 4, "n[1-2]");
  variables["OPENKS_SLURM_SERVERS"] = "0";
  EXPECT_EQ(errorOf(variables, std::nullopt),
            "with SLURM_NTASKS=4: environment variable OPENKS_SLURM_SERVERS "
            "is 0, outside [1, 3]");
  variables = slurm(0, 4, "n[1-2]");
  variables["OPENKS_SLURM_BASE_PORT"] = "65536";
  EXPECT_EQ(errorOf(variables, 1),
            "environment variable OPENKS_SLURM_BASE_PORT is 65536, outside "
            "[1, 65535]");
  EXPECT_EQ(errorOf(slurm(0, 4, "n[1-2]"), 1, 0),
            "the base port is 0, outside [1, 65535]");
  variables = slurm(0, 4, "n[1-2]");
  variables.erase("SLURM_JOB_NODELIST");
  EXPECT_EQ(errorOf(variables, 1),
            "environment variable SLURM_JOB_NODELIST is not set");
  EXPECT_EQ(errorOf(slurm(0, 4, "n[1-2"), 1),
            "environment variable SLURM_JOB_NODELIST: host list item 'n[1-2' "
            "has an unclosed '['");
  variables = slurm(0, 4, "n[1-2]");
  variables["SLURM_TASKS_PER_NODE"] = "3(x2)";
  EXPECT_EQ(errorOf(variables, 1),
            "environment variable SLURM_TASKS_PER_NODE gives 6 tasks on 2 "
            "nodes, but SLURM_NTASKS is 4 and SLURM_JOB_NODELIST lists 2 "
            "nodes");
  variables["SLURM_TASKS_PER_NODE"] = "4x";
  EXPECT_NE(
      errorOf(variables, 1)
          .find("environment variable SLURM_TASKS_PER_NODE: tasks per node "),
      std::string::npos);
  // Ports past 65535 and nodes that are not host names.
  EXPECT_EQ(errorOf(slurm(0, 4, "n"), 1, 65534),
            "task 2 is task 2 on node n: base port 65534 + 2 is above 65535");
  EXPECT_EQ(errorOf(slurm(0, 2, "n_1,[1-2]"), 1),
            "endpoint '1:6170' has an invalid host '1'");
}

// Tests the port lists of SLURM_STEP_RESV_PORTS.
TEST(SlurmRoleMakerTest, ExpandsPortLists) {
  StatusOr<std::vector<int>> ports = expandSlurmPortList("12000-12002,12005");
  ASSERT_TRUE(ports.isOk()) << ports.status().message();
  EXPECT_EQ(*ports, (std::vector<int>{12000, 12001, 12002, 12005}));
  EXPECT_EQ(*expandSlurmPortList("7"), std::vector<int>{7});
  EXPECT_EQ(expandSlurmPortList("12000-").status().message(),
            "port list '12000-' has the item '12000-'; expected a port or a "
            "range like 12000-12003");
  EXPECT_EQ(expandSlurmPortList("[12000-12001]").status().message(),
            "port list '[12000-12001]' has the item '[12000-12001]'; expected "
            "a port or a range like 12000-12003");
  for (const char *text :
       {"0", "65536", "12001-12000", "12000,12000", "12005,12001-12002"}) {
    SCOPED_TRACE(text);
    EXPECT_EQ(expandSlurmPortList(text).status().message(),
              fmt::format(
                  "port list '{}' has the item '{}'; expected ports "
                  "from 1 to 65535 in increasing order",
                  text,
                  std::string(text).substr(std::string(text).rfind(',') + 1)));
  }
  EXPECT_FALSE(expandSlurmPortList("").isOk());
}

/// What srun gives task `rank` of the step `srun -n TASKS` with the block
/// layout `perNode` (tasks per node) over the nodes n1, n2, ...: its place
/// and the step's shape.
Variables srunTask(int rank, std::vector<int> perNode) {
  int node = 0, first = 0;
  while (rank >= first + perNode[node])
    first += perNode[node++];
  std::string ranks, counts;
  for (int i = first; i < first + perNode[node]; ++i)
    ranks += (i == first ? "" : ",") + std::to_string(i);
  int tasks = 0;
  for (size_t i = 0; i < perNode.size(); ++i) {
    tasks += perNode[i];
    counts += (i ? "," : "") + std::to_string(perNode[i]);
  }
  return {{"SLURM_JOB_ID", "4242"},
          {"SLURM_STEP_ID", "0"},
          {"SLURM_PROCID", std::to_string(rank)},
          {"SLURM_LOCALID", std::to_string(rank - first)},
          {"SLURM_NODEID", std::to_string(node)},
          {"SLURMD_NODENAME", "n" + std::to_string(node + 1)},
          {"SLURM_GTIDS", ranks},
          {"SLURM_NTASKS", std::to_string(tasks)},
          {"SLURM_STEP_NUM_TASKS", std::to_string(tasks)},
          {"SLURM_STEP_NODELIST", fmt::format("n[1-{}]", perNode.size())},
          {"SLURM_STEP_TASKS_PER_NODE", counts},
          {"SLURM_DISTRIBUTION", "block"},
          {"OPENKS_SLURM_SERVERS", "1"}};
}

// Tests that a task srun placed elsewhere than the block layout says is
// refused, by whichever of srun's variables shows it.
TEST(SlurmRoleMakerTest, RefusesAnotherDistribution) {
  for (int rank = 0; rank < 4; ++rank)
    EXPECT_EQ(errorOf(srunTask(rank, {2, 2}), std::nullopt), "");

  // srun --distribution=cyclic puts tasks 0 and 2 on n1, 1 and 3 on n2.
  Variables cyclic = srunTask(1, {2, 2});
  cyclic["SLURM_NODEID"] = "1";
  cyclic["SLURMD_NODENAME"] = "n2";
  cyclic["SLURM_LOCALID"] = "0";
  cyclic["SLURM_GTIDS"] = "1,3";
  cyclic["SLURM_DISTRIBUTION"] = "cyclic";
  std::string layout = "but the block layout the role maker assumes puts "
                       "task 1 on node n1 (node 0) as its task 1 of tasks "
                       "0-1: srun laid the tasks out otherwise "
                       "(SLURM_DISTRIBUTION is cyclic); run srun with "
                       "--distribution=block";
  EXPECT_EQ(errorOf(cyclic, std::nullopt),
            "environment variable SLURM_NODEID is 1, " + layout);
  cyclic.erase("SLURM_NODEID");
  EXPECT_EQ(errorOf(cyclic, std::nullopt),
            "environment variable SLURMD_NODENAME is n2, " + layout);
  cyclic.erase("SLURMD_NODENAME");
  EXPECT_EQ(errorOf(cyclic, std::nullopt),
            "environment variable SLURM_LOCALID is 0, " + layout);
  cyclic.erase("SLURM_LOCALID");
  EXPECT_EQ(errorOf(cyclic, std::nullopt),
            "environment variable SLURM_GTIDS is 1,3, " + layout);
  // Task 0 is where the block layout says, but not its neighbours.
  Variables first = srunTask(0, {2, 2});
  first["SLURM_GTIDS"] = "0,2";
  first.erase("SLURM_DISTRIBUTION");
  EXPECT_EQ(errorOf(first, std::nullopt),
            "environment variable SLURM_GTIDS is 0,2, but the block layout "
            "the role maker assumes puts task 0 on node n1 (node 0) as its "
            "task 0 of tasks 0-1: srun laid the tasks out otherwise; run srun "
            "with --distribution=block");

  Variables broken = srunTask(0, {2, 2});
  broken["SLURM_NODEID"] = "one";
  EXPECT_EQ(errorOf(broken, std::nullopt),
            "environment variable SLURM_NODEID is 'one', not a decimal "
            "integer");
  broken = srunTask(0, {2, 2});
  broken["SLURM_GTIDS"] = "0,,1";
  EXPECT_EQ(errorOf(broken, std::nullopt),
            "environment variable SLURM_GTIDS is '0,,1', not a comma-separated "
            "list of task ranks");
}

// Tests that only a task of an srun step has a role: not the batch script
// (Slurm's batch step), salloc's shell or its interactive step.
TEST(SlurmRoleMakerTest, RefusesProcessesSrunDidNotStart) {
  std::string hint = "start every role with srun, e.g. 'srun --multi-prog "
                     "roles.conf' in the batch script";
  // What a batch script of `sbatch -N2 -n4` sees.
  Variables batch = {{"SLURM_JOB_ID", "4242"},
                     {"SLURM_PROCID", "0"},
                     {"SLURM_LOCALID", "0"},
                     {"SLURM_NODEID", "0"},
                     {"SLURM_NTASKS", "4"},
                     {"SLURM_JOB_NODELIST", "n[1-2]"},
                     {"SLURM_TASKS_PER_NODE", "2(x2)"},
                     {"OPENKS_SLURM_SERVERS", "2"}};
  EXPECT_EQ(errorOf(batch, std::nullopt),
            "this process is in Slurm job 4242 (SLURM_JOB_ID) but in no job "
            "step (SLURM_STEP_ID is not set): " +
                hint);
  for (const char *id : {"-5", "4294967291"}) {
    batch["SLURM_STEP_ID"] = id;
    EXPECT_EQ(errorOf(batch, std::nullopt),
              fmt::format("environment variable SLURM_STEP_ID is {}, the "
                          "batch step: this process is the batch script, not "
                          "a task of srun; {}",
                          id, hint));
  }
  batch.erase("SLURM_STEP_ID");
  batch["SLURM_STEPID"] = "4294967290";
  EXPECT_EQ(errorOf(batch, std::nullopt),
            "environment variable SLURM_STEPID is 4294967290, salloc's "
            "interactive step, not a step of srun; " +
                hint);
  batch["SLURM_STEPID"] = "-4";
  EXPECT_EQ(errorOf(batch, std::nullopt),
            "environment variable SLURM_STEPID is -4, a step of Slurm's own, "
            "not a step of srun; " +
                hint);
  batch["SLURM_STEPID"] = "x";
  EXPECT_EQ(errorOf(batch, std::nullopt),
            "environment variable SLURM_STEPID is 'x', not a decimal integer");

  // The role maker the environment calls for says so too.
  StatusOr<std::unique_ptr<RoleMaker>> maker = createRoleMakerFromEnvironment(
      Environment::fromMap({{"SLURM_JOB_ID", "4242"}}));
  ASSERT_TRUE(maker.isOk()) << maker.status().message();
  EXPECT_EQ(generateError(**maker),
            "Slurm role maker: this process is in Slurm job 4242 "
            "(SLURM_JOB_ID) but in no job step (SLURM_STEP_ID is not set): " +
                hint);
}

// Tests that the ports srun reserved are the tasks' ports unless a base
// port is given, and that the step's task count comes first.
TEST(SlurmRoleMakerTest, TakesReservedPortsAndTheStepsCount) {
  Variables variables = srunTask(3, {2, 2});
  variables["SLURM_STEP_RESV_PORTS"] = "12000-12002";
  EXPECT_EQ(roleOf(variables, std::nullopt),
            makeAssignment(Role::Worker, 2, 3, {"n1:12000"},
                           {"n1:12001", "n2:12000", "n2:12001"}));
  variables["SLURM_STEP_RESV_PORTS"] = "12000,12007";
  EXPECT_EQ(roleOf(variables, std::nullopt).endpoint, "n2:12007");
  EXPECT_EQ(roleOf(variables, std::nullopt, 7000).endpoint, "n2:7001");
  variables["OPENKS_SLURM_BASE_PORT"] = "8000";
  EXPECT_EQ(roleOf(variables, std::nullopt).endpoint, "n2:8001");
  variables.erase("OPENKS_SLURM_BASE_PORT");
  variables["SLURM_STEP_RESV_PORTS"] = "12000";
  EXPECT_EQ(errorOf(variables, std::nullopt),
            "environment variable SLURM_STEP_RESV_PORTS ('12000') reserves 1 "
            "ports, but node n1 runs 2 tasks");
  variables["SLURM_STEP_RESV_PORTS"] = "12000-11000";
  EXPECT_EQ(errorOf(variables, std::nullopt),
            "environment variable SLURM_STEP_RESV_PORTS: port list "
            "'12000-11000' has the item '12000-11000'; expected ports from 1 "
            "to 65535 in increasing order");

  // srun --preserve-env leaves the job's SLURM_NTASKS.
  variables = srunTask(1, {1, 1});
  variables["SLURM_NTASKS"] = "8";
  EXPECT_EQ(roleOf(variables, std::nullopt),
            makeAssignment(Role::Worker, 0, 1, {"n1:6170"}, {"n2:6170"}));
  variables["SLURM_STEP_NUM_TASKS"] = "3";
  EXPECT_EQ(errorOf(variables, std::nullopt),
            "environment variable SLURM_STEP_TASKS_PER_NODE gives 2 tasks on 2 "
            "nodes, but SLURM_STEP_NUM_TASKS is 3 and SLURM_STEP_NODELIST "
            "lists 2 nodes");
}

// Tests every task of the batch script in docs/Deploy.md: `sbatch` of 2
// nodes and 4 tasks, 2 per node, whose `srun --resv-ports=2 --multi-prog`
// reserved ports 12000 and 12001 on both nodes, with
// OPENKS_SLURM_SERVERS=2 exported by the script.
TEST(SlurmRoleMakerTest, ReadsTheBatchScriptOfDeployMd) {
  const std::vector<std::string> servers = {"node01:12000", "node01:12001"};
  const std::vector<std::string> workers = {"node02:12000", "node02:12001"};
  for (int rank = 0; rank < 4; ++rank) {
    SCOPED_TRACE(rank);
    Variables task = {{"SLURM_JOB_ID", "4242"},
                      {"SLURM_JOB_NODELIST", "node[01-02]"},
                      {"SLURM_TASKS_PER_NODE", "2(x2)"},
                      {"SLURM_NTASKS", "4"},
                      {"SLURM_STEP_ID", "0"},
                      {"SLURM_STEP_NODELIST", "node[01-02]"},
                      {"SLURM_STEP_NUM_NODES", "2"},
                      {"SLURM_STEP_NUM_TASKS", "4"},
                      {"SLURM_STEP_TASKS_PER_NODE", "2(x2)"},
                      {"SLURM_STEP_RESV_PORTS", "12000-12001"},
                      {"SLURM_DISTRIBUTION", "block"},
                      {"SLURM_PROCID", std::to_string(rank)},
                      {"SLURM_LOCALID", std::to_string(rank % 2)},
                      {"SLURM_NODEID", std::to_string(rank / 2)},
                      {"SLURMD_NODENAME", rank < 2 ? "node01" : "node02"},
                      {"SLURM_GTIDS", rank < 2 ? "0,1" : "2,3"},
                      {"OPENKS_SLURM_SERVERS", "2"}};
    StatusOr<std::unique_ptr<RoleMaker>> maker =
        createRoleMakerFromEnvironment(Environment::fromMap(task));
    ASSERT_TRUE(maker.isOk()) << maker.status().message();
    EXPECT_EQ(
        generate(**maker),
        rank < 2 ? makeAssignment(Role::Server, rank, 2, servers, workers)
                 : makeAssignment(Role::Worker, rank - 2, 2, servers, workers));
  }
}

} // namespace
