//===- PaddleCloudRoleMakerTest.cpp - Tests of PaddleCloud roles ----------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// The environments are those Paddle's launch_ps gives its servers and
// trainers (docs/Fleet.md), and broken variants of them.
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

} // namespace
