//===- PaddleCloudRoleMakerTest.cpp - Tests of PaddleCloud roles ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The environments are those Paddle's launch_ps and fleetrun give their
// servers and trainers, those paddle-operator gives the pods of the
// PaddleJob in docs/Deploy.md, and broken variants of them.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PaddleCloudRoleMaker.h"

#include "Fleet/FleetTesting.h"

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::testing;

namespace {

using Variables = std::map<std::string, std::string>;

const char *const kList = "127.0.0.1:6170,127.0.0.1:6171";
const std::vector<std::string> kServers = {"127.0.0.1:6170", "127.0.0.1:6171"};

/// What launch_ps sets for trainer `id` of 2.
Variables trainer(const std::string &id) {
  return {{"PADDLE_PSERVERS_IP_PORT_LIST", kList},
          {"PADDLE_TRAINERS_NUM", "2"},
          {"TRAINING_ROLE", "TRAINER"},
          {"PADDLE_TRAINER_ID", id}};
}

/// What launch_ps sets for the server at 127.0.0.1:`port`.
Variables server(const std::string &port) {
  return {{"PADDLE_PSERVERS_IP_PORT_LIST", kList},
          {"PADDLE_PORT", port},
          {"TRAINING_ROLE", "PSERVER"},
          {"PADDLE_TRAINERS_NUM", "2"},
          {"POD_IP", "127.0.0.1"}};
}

/// Returns the error of a role maker over `variables` ("" on success).
std::string errorOf(Variables variables) {
  PaddleCloudRoleMaker maker(Environment::fromMap(std::move(variables)));
  return generateError(maker);
}

/// Returns the role a role maker over `variables` finds.
RoleAssignment roleOf(Variables variables) {
  PaddleCloudRoleMaker maker(Environment::fromMap(std::move(variables)));
  return generate(maker);
}

// Tests the roles of launch_ps' trainers and servers.
TEST(PaddleCloudRoleMakerTest, ReadsLaunchPsRoles) {
  EXPECT_EQ(roleOf(trainer("0")), makeAssignment(Role::Worker, 0, 2, kServers));
  EXPECT_EQ(roleOf(trainer("1")), makeAssignment(Role::Worker, 1, 2, kServers));
  EXPECT_EQ(roleOf(server("6170")),
            makeAssignment(Role::Server, 0, 2, kServers));
  EXPECT_EQ(roleOf(server("6171")),
            makeAssignment(Role::Server, 1, 2, kServers));

  PaddleCloudRoleMaker maker(Environment::fromMap(server("6171")));
  ASSERT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.currentEndpoint(), "127.0.0.1:6171");
  EXPECT_EQ(maker.describe(), "PaddleCloud role maker (TRAINING_ROLE=PSERVER)");
}

// Tests that a server finds itself in the list however either is written.
TEST(PaddleCloudRoleMakerTest, MatchesServersCanonically) {
  Variables variables = server("06171");
  variables["POD_IP"] = "127.0.0.1";
  EXPECT_EQ(roleOf(variables).index, 1);

  variables = server("6170");
  variables["PADDLE_PSERVERS_IP_PORT_LIST"] = "PS-A:6170,ps-b:6170";
  variables["POD_IP"] = "ps-b";
  RoleAssignment role = roleOf(variables);
  EXPECT_EQ(role.index, 1);
  EXPECT_EQ(role.serverEndpoints,
            (std::vector<std::string>{"ps-a:6170", "ps-b:6170"}));

  variables["PADDLE_PSERVERS_IP_PORT_LIST"] = "[::1]:6170,[::2]:6170";
  variables["POD_IP"] = "::2";
  EXPECT_EQ(roleOf(variables).index, 1);
}

// Tests that every missing variable is named.
TEST(PaddleCloudRoleMakerTest, NamesMissingVariables) {
  for (const char *name : {"PADDLE_PSERVERS_IP_PORT_LIST",
                           "PADDLE_TRAINERS_NUM", "PADDLE_TRAINER_ID"}) {
    Variables variables = trainer("0");
    variables.erase(name);
    EXPECT_EQ(errorOf(variables),
              fmt::format("PaddleCloud role maker (TRAINING_ROLE=TRAINER): "
                          "environment variable {} is not set",
                          name));
  }
  for (const char *name : {"POD_IP", "PADDLE_PORT"}) {
    Variables variables = server("6170");
    variables.erase(name);
    EXPECT_NE(errorOf(variables).find(
                  fmt::format("environment variable {} is not set", name)),
              std::string::npos);
  }
  Variables variables = trainer("0");
  variables.erase("TRAINING_ROLE");
  EXPECT_EQ(errorOf(variables), "PaddleCloud role maker: environment "
                                "variable TRAINING_ROLE is not set");
  variables = trainer("0");
  variables["PADDLE_TRAINER_ID"] = "";
  EXPECT_NE(errorOf(variables).find(
                "environment variable PADDLE_TRAINER_ID is empty"),
            std::string::npos);
}

// Tests that malformed values are refused, naming the variable.
TEST(PaddleCloudRoleMakerTest, NamesMalformedVariables) {
  struct Case {
    Variables variables;
    const char *variable;
    const char *value;
    const char *message;
  };
  const Case cases[] = {
      {trainer("0"), "TRAINING_ROLE", "WORKER",
       "environment variable TRAINING_ROLE is 'WORKER'; expected TRAINER or "
       "PSERVER"},
      {trainer("0"), "PADDLE_TRAINERS_NUM", "two",
       "environment variable PADDLE_TRAINERS_NUM is 'two', not a decimal "
       "integer"},
      {trainer("0"), "PADDLE_TRAINERS_NUM", "0",
       "environment variable PADDLE_TRAINERS_NUM is 0, outside [1, "
       "2147483647]"},
      {trainer("0"), "PADDLE_TRAINERS_NUM", "99999999999999999999",
       "environment variable PADDLE_TRAINERS_NUM is 99999999999999999999, "
       "outside [1, 2147483647]"},
      {trainer("0"), "PADDLE_TRAINER_ID", "2",
       "environment variable PADDLE_TRAINER_ID is 2, but PADDLE_TRAINERS_NUM "
       "is 2"},
      {trainer("0"), "PADDLE_TRAINER_ID", "-1",
       "environment variable PADDLE_TRAINER_ID is -1, outside [0, "
       "2147483647]"},
      {trainer("0"), "PADDLE_TRAINER_ID", " 1",
       "environment variable PADDLE_TRAINER_ID is ' 1', not a decimal "
       "integer"},
      {trainer("0"), "PADDLE_PSERVERS_IP_PORT_LIST", "127.0.0.1:6170,",
       "environment variable PADDLE_PSERVERS_IP_PORT_LIST ('127.0.0.1:6170,') "
       "has an empty entry; expected host:port entries separated by commas"},
      {trainer("0"), "PADDLE_PSERVERS_IP_PORT_LIST",
       "127.0.0.1:6170,127.0.0.1:6170",
       "environment variable PADDLE_PSERVERS_IP_PORT_LIST list "
       "'127.0.0.1:6170' twice"},
      {trainer("0"), "PADDLE_PSERVERS_IP_PORT_LIST", "127.0.0.1:6170 ",
       "environment variable PADDLE_PSERVERS_IP_PORT_LIST: endpoint "
       "'127.0.0.1:6170 ' has an invalid port '6170 ' (expected 1 to "
       "65535)"},
      {server("6170"), "PADDLE_PORT", "70000",
       "environment variable PADDLE_PORT is 70000, outside [1, 65535]"},
      {server("6170"), "POD_IP", "10.0.0.300",
       "POD_IP:PADDLE_PORT: endpoint '10.0.0.300:6170' has an invalid host "
       "'10.0.0.300'"},
      {server("6170"), "POD_IP", "10.0.0.3",
       "this server's POD_IP:PADDLE_PORT '10.0.0.3:6170' is not in "
       "PADDLE_PSERVERS_IP_PORT_LIST ('127.0.0.1:6170,127.0.0.1:6171')"},
      {trainer("0"), "PADDLE_TRAINING_ROLE", "PSERVER",
       "environment variables TRAINING_ROLE ('TRAINER') and "
       "PADDLE_TRAINING_ROLE ('PSERVER') disagree"},
      {trainer("0"), "TRAINING_ROLE", "HETER_TRAINER",
       "environment variable TRAINING_ROLE is 'HETER_TRAINER': Paddle's "
       "heterogeneous parameter-server mode (heter trainers) is not "
       "supported"},
      {trainer("0"), "TRAINING_ROLE", "HETER",
       "environment variable TRAINING_ROLE is 'HETER': Paddle's "
       "heterogeneous parameter-server mode (heter trainers) is not "
       "supported"},
      {trainer("0"), "TRAINING_ROLE", "COORDINATOR",
       "environment variable TRAINING_ROLE is 'COORDINATOR': Paddle's "
       "coordinator (federated learning) is not supported"},
      {trainer("0"), "PADDLE_ALL_HETER_TRAINER_IP_PORT_LIST", "127.0.0.1:6180",
       "environment variable PADDLE_ALL_HETER_TRAINER_IP_PORT_LIST is "
       "'127.0.0.1:6180': the job has heterogeneous trainers, and Paddle's "
       "heterogeneous parameter-server mode is not supported"},
      {server("6170"), "PADDLE_HETER_ENDPOINTS", "10.0.0.9:36000",
       "environment variable PADDLE_HETER_ENDPOINTS is '10.0.0.9:36000': the "
       "job has heterogeneous trainers, and Paddle's heterogeneous "
       "parameter-server mode is not supported"},
      {trainer("0"), "PADDLE_TRAINER_ENDPOINTS", "127.0.0.1:6172",
       "environment variable PADDLE_TRAINER_ENDPOINTS lists 1 trainers, but "
       "PADDLE_TRAINERS_NUM is 2"},
      {trainer("0"), "PADDLE_TRAINER_ENDPOINTS", "",
       "environment variable PADDLE_TRAINER_ENDPOINTS is empty"},
      {trainer("0"), "PADDLE_TRAINER_ENDPOINTS", "127.0.0.1:6172,w1",
       "environment variable PADDLE_TRAINER_ENDPOINTS: endpoint 'w1' must "
       "have the form host:port"},
      {trainer("0"), "PADDLE_TRAINER_ENDPOINTS",
       "127.0.0.1:6172,127.0.0.1:6171",
       "endpoint '127.0.0.1:6171' is both a server's and a worker's"},
      {server("6170"), "PADDLE_CURRENT_ENDPOINT", "127.0.0.1:6171",
       "environment variable PADDLE_CURRENT_ENDPOINT is '127.0.0.1:6171', but "
       "POD_IP:PADDLE_PORT is '127.0.0.1:6170'"},
      {trainer("1"), "PADDLE_CURRENT_ENDPOINT", "127.0.0.1",
       "environment variable PADDLE_CURRENT_ENDPOINT: endpoint '127.0.0.1' "
       "must have the form host:port"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    Variables variables = c.variables;
    variables[c.variable] = c.value;
    std::string error = errorOf(variables);
    std::string prefix = "PaddleCloud role maker (TRAINING_ROLE=";
    ASSERT_EQ(error.substr(0, prefix.size()), prefix);
    EXPECT_EQ(error.substr(error.find("): ") + 3), c.message);
  }
}

/// What fleetrun (Paddle 2.4's launch_utils) gives the trainer `id` of a
/// job on this host with the servers of kList and two trainers.
Variables fleetrunTrainer(int id) {
  return {{"PADDLE_PSERVERS_IP_PORT_LIST", kList},
          {"PADDLE_TRAINER_ENDPOINTS", "127.0.0.1:6172,127.0.0.1:6173"},
          {"PADDLE_TRAINERS_NUM", "2"},
          {"TRAINING_ROLE", "TRAINER"},
          {"POD_IP", "127.0.0.1"},
          {"PADDLE_PORT", std::to_string(6172 + id)},
          {"PADDLE_TRAINER_ID", std::to_string(id)},
          {"PADDLE_WITH_GLOO", "0"},
          {"PADDLE_GLOO_RENDEZVOUS", "3"},
          {"PADDLE_GLOO_HTTP_ENDPOINT", "127.0.0.1:6174"}};
}

// Tests that a trainer's own endpoint comes from the trainer list by its
// id, from POD_IP and PADDLE_PORT, or from PADDLE_CURRENT_ENDPOINT, and
// that they must agree.
TEST(PaddleCloudRoleMakerTest, FindsATrainersOwnEndpoint) {
  const std::vector<std::string> trainers = {"127.0.0.1:6172",
                                             "127.0.0.1:6173"};
  EXPECT_EQ(roleOf(fleetrunTrainer(1)),
            makeAssignment(Role::Worker, 1, 2, kServers, trainers));
  Variables variables = fleetrunTrainer(1);
  variables.erase("POD_IP");
  variables.erase("PADDLE_PORT");
  PaddleCloudRoleMaker byId(Environment::fromMap(variables));
  ASSERT_EQ(generateError(byId), "");
  EXPECT_EQ(byId.currentEndpoint(), "127.0.0.1:6173");

  // Without the list, POD_IP and PADDLE_PORT give it alone; one of the two
  // alone gives nothing.
  variables = trainer("1");
  variables["POD_IP"] = "Node-2";
  variables["PADDLE_PORT"] = "0036000";
  EXPECT_EQ(roleOf(variables),
            makeAssignment(Role::Worker, 1, 2, kServers, {}, "node-2:36000"));
  variables.erase("PADDLE_PORT");
  EXPECT_EQ(roleOf(variables), makeAssignment(Role::Worker, 1, 2, kServers));
  variables = trainer("0");
  variables["PADDLE_CURRENT_ENDPOINT"] = "10.0.0.5:6172";
  EXPECT_EQ(roleOf(variables),
            makeAssignment(Role::Worker, 0, 2, kServers, {}, "10.0.0.5:6172"));
  variables["POD_IP"] = "10.0.0.5";
  variables["PADDLE_PORT"] = "6172";
  EXPECT_EQ(roleOf(variables).endpoint, "10.0.0.5:6172");

  variables = fleetrunTrainer(1);
  variables["PADDLE_PORT"] = "6172";
  EXPECT_EQ(errorOf(variables),
            "PaddleCloud role maker (TRAINING_ROLE=TRAINER): this trainer's "
            "endpoint '127.0.0.1:6172' (from POD_IP:PADDLE_PORT) is not entry "
            "1 of PADDLE_TRAINER_ENDPOINTS, '127.0.0.1:6173', which "
            "PADDLE_TRAINER_ID names");
  variables = fleetrunTrainer(0);
  variables.erase("POD_IP");
  variables["PADDLE_CURRENT_ENDPOINT"] = "127.0.0.1:6173";
  EXPECT_EQ(errorOf(variables),
            "PaddleCloud role maker (TRAINING_ROLE=TRAINER): this trainer's "
            "endpoint '127.0.0.1:6173' (from PADDLE_CURRENT_ENDPOINT) is not "
            "entry 0 of PADDLE_TRAINER_ENDPOINTS, '127.0.0.1:6172', which "
            "PADDLE_TRAINER_ID names");
  variables = trainer("0");
  variables["POD_IP"] = "127.0.0.1";
  variables["PADDLE_PORT"] = "6171";
  EXPECT_EQ(errorOf(variables),
            "PaddleCloud role maker (TRAINING_ROLE=TRAINER): endpoint "
            "'127.0.0.1:6171' is both a server's and a worker's");
}

// Tests PADDLE_TRAINING_ROLE, which paddle-operator sets beside
// TRAINING_ROLE, alone; and that the empty heter list of Paddle 2.0's
// fleetrun is no heterogeneous job.
TEST(PaddleCloudRoleMakerTest, ReadsPaddleTrainingRole) {
  Variables variables = server("6171");
  variables.erase("TRAINING_ROLE");
  variables["PADDLE_TRAINING_ROLE"] = "PSERVER";
  PaddleCloudRoleMaker maker(Environment::fromMap(variables));
  ASSERT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.assignment(), makeAssignment(Role::Server, 1, 2, kServers));
  EXPECT_EQ(maker.describe(),
            "PaddleCloud role maker (PADDLE_TRAINING_ROLE=PSERVER)");
  variables["PADDLE_TRAINING_ROLE"] = "WORKER";
  EXPECT_EQ(errorOf(variables),
            "PaddleCloud role maker (PADDLE_TRAINING_ROLE=WORKER): "
            "environment variable PADDLE_TRAINING_ROLE is 'WORKER'; expected "
            "TRAINER or PSERVER");

  variables = fleetrunTrainer(0);
  variables["PADDLE_HETER_TRAINER_IP_PORT_LIST"] = "";
  EXPECT_EQ(roleOf(variables).index, 0);
}

/// The pods of the PaddleJob in docs/Deploy.md (2 ps, 2 workers, the default
/// intranet PodIP) and their IP addresses.
struct Pod {
  const char *type;
  int index;
  const char *ip;
};
const Pod kPods[] = {{"ps", 0, "10.244.1.11"},
                     {"ps", 1, "10.244.2.12"},
                     {"worker", 0, "10.244.1.21"},
                     {"worker", 1, "10.244.2.22"}};

/// What paddle-operator 0.3.5 gives `pod`: the variables of the pod itself
/// and those of the job's ConfigMap, whose PADDLE_PORT is the one port of
/// every pod, drawn from [36000, 56000).
Variables paddleJobPod(const Pod &pod) {
  const char *role = std::string(pod.type) == "ps" ? "PSERVER" : "TRAINER";
  return {
      {"POD_IP", pod.ip},
      {"PADDLE_TRAINER_ID", std::to_string(pod.index)},
      {"TRAINING_ROLE", role},
      {"PADDLE_TRAINING_ROLE", role},
      {"TRAINER_PORTS_NUM", "20"},
      {"PADDLE_PORT", "36512"},
      {"PADDLE_PSERVERS_IP_PORT_LIST", "10.244.1.11:36512,10.244.2.12:36512"},
      {"PADDLE_TRAINER_ENDPOINTS", "10.244.1.21:36512,10.244.2.22:36512"},
      {"PADDLE_TRAINERS", "10.244.1.21,10.244.2.22"},
      {"PADDLE_TRAINERS_NUM", "2"}};
}

// Tests every pod of the PaddleJob in docs/Deploy.md, as the role maker the
// environment calls for reads it.
TEST(PaddleCloudRoleMakerTest, ReadsThePaddleJobOfDeployMd) {
  const std::vector<std::string> servers = {"10.244.1.11:36512",
                                            "10.244.2.12:36512"};
  const std::vector<std::string> trainers = {"10.244.1.21:36512",
                                             "10.244.2.22:36512"};
  for (const Pod &pod : kPods) {
    SCOPED_TRACE(pod.ip);
    StatusOr<std::unique_ptr<RoleMaker>> maker =
        createRoleMakerFromEnvironment(Environment::fromMap(paddleJobPod(pod)));
    ASSERT_TRUE(maker.isOk()) << maker.status().message();
    Role role = std::string(pod.type) == "ps" ? Role::Server : Role::Worker;
    EXPECT_EQ(generate(**maker),
              makeAssignment(role, pod.index, 2, servers, trainers));
    EXPECT_EQ((*maker)->currentEndpoint(), fmt::format("{}:36512", pod.ip));
  }
}

// Tests that paddle-operator 0.3.5's `intranet: Service`, which lists the
// pods at port 36000 but sets PADDLE_PORT to another, is refused by every
// role.
TEST(PaddleCloudRoleMakerTest, RefusesAPaddleJobWhosePortsDisagree) {
  auto servicePod = [](const Pod &pod) {
    Variables variables = paddleJobPod(pod);
    variables["POD_IP"] = fmt::format("openks-ps-{}-{}", pod.type, pod.index);
    variables["PADDLE_PSERVERS_IP_PORT_LIST"] =
        "openks-ps-ps-0:36000,openks-ps-ps-1:36000";
    variables["PADDLE_TRAINER_ENDPOINTS"] =
        "openks-ps-worker-0:36000,openks-ps-worker-1:36000";
    return variables;
  };
  EXPECT_EQ(errorOf(servicePod(kPods[1])),
            "PaddleCloud role maker (TRAINING_ROLE=PSERVER): this server's "
            "POD_IP:PADDLE_PORT 'openks-ps-ps-1:36512' is not in "
            "PADDLE_PSERVERS_IP_PORT_LIST "
            "('openks-ps-ps-0:36000,openks-ps-ps-1:36000')");
  EXPECT_EQ(errorOf(servicePod(kPods[2])),
            "PaddleCloud role maker (TRAINING_ROLE=TRAINER): this trainer's "
            "endpoint 'openks-ps-worker-0:36512' (from POD_IP:PADDLE_PORT) is "
            "not entry 0 of PADDLE_TRAINER_ENDPOINTS, "
            "'openks-ps-worker-0:36000', which PADDLE_TRAINER_ID names");
}

} // namespace
