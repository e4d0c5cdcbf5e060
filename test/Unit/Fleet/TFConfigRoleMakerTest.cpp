//===- TFConfigRoleMakerTest.cpp - Tests of TF_CONFIG roles ---------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// TF_CONFIG as Kubeflow's TFJob writes it, and broken variants: bad JSON
// (which the role maker's strict reader must refuse) and bad content.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TFConfigRoleMaker.h"

#include "Fleet/FleetTesting.h"

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::testing;

namespace {

const std::vector<std::string> kServers = {"ps-0.job:2222", "ps-1.job:2222"};
const std::vector<std::string> kWorkers = {
    "worker-0.job:2222", "worker-1.job:2222", "worker-2.job:2222"};

/// Returns a TF_CONFIG for task `type` `index` of the job above, with
/// `extra` appended to the top-level object.
std::string tfConfig(const std::string &type, const std::string &index,
                     const std::string &extra = "") {
  return R"({"cluster": {"ps": ["ps-0.job:2222", "ps-1.job:2222"],
                        "worker": ["worker-0.job:2222", "worker-1.job:2222",
                                   "worker-2.job:2222"]},
             "task": {"type": ")" +
         type + R"(", "index": )" + index + "}" + extra + "}";
}

/// Returns the error of a role maker reading `config` ("" on success),
/// without the role maker's name.
std::string errorOf(const std::string &config) {
  TFConfigRoleMaker maker(Environment::fromMap({{"TF_CONFIG", config}}));
  std::string error = generateError(maker);
  std::string prefix = "TF_CONFIG role maker: ";
  if (error.empty())
    return "";
  EXPECT_EQ(error.substr(0, prefix.size()), prefix);
  return error.substr(prefix.size());
}

/// Returns the role of a role maker reading `config`.
RoleAssignment roleOf(const std::string &config) {
  TFConfigRoleMaker maker(Environment::fromMap({{"TF_CONFIG", config}}));
  return generate(maker);
}

// Tests the roles of the tasks of a TFJob.
TEST(TFConfigRoleMakerTest, ReadsTFJobRoles) {
  EXPECT_EQ(roleOf(tfConfig("ps", "1")),
            makeAssignment(Role::Server, 1, 3, kServers, kWorkers));
  EXPECT_EQ(roleOf(tfConfig("worker", "2")),
            makeAssignment(Role::Worker, 2, 3, kServers, kWorkers));
  // Kubeflow adds "environment": "cloud"; other keys are ignored.
  EXPECT_EQ(roleOf(tfConfig("worker", "0", R"(, "environment": "cloud")")),
            makeAssignment(Role::Worker, 0, 3, kServers, kWorkers));

  TFConfigRoleMaker maker(
      Environment::fromMap({{"TF_CONFIG", tfConfig("worker", "1")}}));
  ASSERT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.currentEndpoint(), "worker-1.job:2222");
}

// Tests that JSON escapes and whitespace are read as JSON means them.
TEST(TFConfigRoleMakerTest, DecodesJson) {
  // "\u0070s" is "ps"; "\/" is "/"-free here, so use it in an ignored key.
  std::string config =
      "\t{\"cluster\":{\"\\u0070s\":[\"a\\u002Db:1\"],\"worker\":[\"w:1\"]},"
      "\r\n\"task\":{\"type\":\"worker\",\"index\":0,\"note\":\"\\/\\\"\\\\"
      "\\b\\f\\n\\r\\t\\ud83d\\ude00\"}} ";
  EXPECT_EQ(roleOf(config),
            makeAssignment(Role::Worker, 0, 1, {"a-b:1"}, {"w:1"}));
}

// Tests that JSON outside RFC 8259 is refused, with where and what.
TEST(TFConfigRoleMakerTest, RefusesBrokenJson) {
  struct Case {
    std::string config;
    const char *message;
  };
  std::string deep = std::string(100, '[') + std::string(100, ']');
  const Case cases[] = {
      {"", "environment variable TF_CONFIG is empty"},
      {"{", "TF_CONFIG: invalid JSON at line 1, column 2: expected a string "
            "key in an object"},
      {R"({"task": {"type": "ps",}})",
       "TF_CONFIG: invalid JSON at line 1, column 24: expected a string key "
       "in an object"},
      {R"({"cluster": [1, 2,]})",
       "TF_CONFIG: invalid JSON at line 1, column 19: expected a value"},
      {"{// comment\n}",
       "TF_CONFIG: invalid JSON at line 1, column 2: expected a string key in "
       "an object"},
      {"{\"a\": 1}\n{}",
       "TF_CONFIG: invalid JSON at line 2, column 1: unexpected text after "
       "the value"},
      {R"({"a": 1, "a": 2})",
       "TF_CONFIG: invalid JSON at line 1, column 10: duplicate key \"a\""},
      {R"({"a": 'x'})",
       "TF_CONFIG: invalid JSON at line 1, column 7: expected a value"},
      {R"({"a": 01})",
       "TF_CONFIG: invalid JSON at line 1, column 8: a number must not have "
       "leading zeros"},
      {R"({"a": 1.})",
       "TF_CONFIG: invalid JSON at line 1, column 9: expected a digit in the "
       "fraction of a number"},
      {R"({"a": NaN})",
       "TF_CONFIG: invalid JSON at line 1, column 7: expected a value"},
      {R"({"a": tru})",
       "TF_CONFIG: invalid JSON at line 1, column 7: expected a value"},
      {R"({"a": "x)",
       "TF_CONFIG: invalid JSON at line 1, column 9: unterminated string"},
      {"{\"a\": \"x\ty\"}",
       "TF_CONFIG: invalid JSON at line 1, column 9: a control character in "
       "a string must be escaped"},
      {R"({"a": "\x"})",
       "TF_CONFIG: invalid JSON at line 1, column 9: invalid escape in a "
       "string"},
      {R"({"a": "\u12"})",
       "TF_CONFIG: invalid JSON at line 1, column 12: expected 4 hex digits "
       "after \\u"},
      {R"({"a": "\ud800"})",
       "TF_CONFIG: invalid JSON at line 1, column 14: a \\u escape has a high "
       "surrogate without a low one"},
      {R"({"a": "\udc00"})",
       "TF_CONFIG: invalid JSON at line 1, column 14: a \\u escape has a low "
       "surrogate without a high one"},
      {deep, "TF_CONFIG: invalid JSON at line 1, column 65: nested more than "
             "64 levels deep"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.config);
    EXPECT_EQ(errorOf(c.config), c.message);
  }
}

// Tests that well-formed JSON with the wrong content is refused by name.
TEST(TFConfigRoleMakerTest, RefusesBrokenContent) {
  struct Case {
    std::string config;
    const char *message;
  };
  const Case cases[] = {
      {"[]", "TF_CONFIG is an array, expected an object"},
      {R"({"task": {"type": "ps", "index": 0}})",
       "TF_CONFIG has no \"cluster\""},
      {R"({"cluster": [], "task": {}})",
       "TF_CONFIG.cluster is an array, expected an object"},
      {R"({"cluster": {"worker": ["w:1"]}, "task": {}})",
       "cluster has no \"ps\""},
      {R"({"cluster": {"ps": ["p:1"]}, "task": {}})",
       "cluster has no \"worker\""},
      {R"({"cluster": {"ps": [], "worker": ["w:1"]}, "task": {}})",
       "cluster.ps is empty"},
      {R"({"cluster": {"ps": ["p:1", 2], "worker": ["w:1"]}, "task": {}})",
       "cluster.ps[1] is a number, expected a host:port string"},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"], "chief": ["c:1"]},
           "task": {"type": "chief", "index": 0}})",
       "cluster.chief is not supported: a parameter-server job has only "
       "\"ps\" and \"worker\" tasks"},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]}})",
       "TF_CONFIG has no \"task\""},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]}, "task": {}})",
       "task has no \"type\""},
      {tfConfig("evaluator", "0"),
       "task.type is \"evaluator\", expected \"ps\" or \"worker\""},
      {tfConfig("ps", "\"0\""), "task.index is a string, expected a number"},
      {tfConfig("ps", "1.5"), "task.index is 1.5, expected a whole number"},
      {tfConfig("ps", "1e0"), "task.index is 1e0, expected a whole number"},
      {tfConfig("ps", "-1"), "task.index is -1, outside [0, 2147483647]"},
      {tfConfig("ps", "2"), "task.index is 2, but cluster.ps lists 2 tasks"},
      {tfConfig("worker", "3"),
       "task.index is 3, but cluster.worker lists 3 tasks"},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["p:1"]},
           "task": {"type": "ps", "index": 0}})",
       "endpoint 'p:1' is both a server's and a worker's"},
      {R"({"cluster": {"ps": ["p"], "worker": ["w:1"]},
           "task": {"type": "ps", "index": 0}})",
       "endpoint 'p' must have the form host:port"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.config);
    EXPECT_EQ(errorOf(c.config), c.message);
  }
  TFConfigRoleMaker unset(Environment::fromMap({}));
  EXPECT_EQ(generateError(unset), "TF_CONFIG role maker: environment "
                                  "variable TF_CONFIG is not set");
}

} // namespace
