//===- TFConfigRoleMakerTest.cpp - Tests of TF_CONFIG roles ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// TF_CONFIG as Kubeflow's TFJob writes it (ps and workers, a chief, an
// evaluator, a sparse cluster, the TFJob of docs/Deploy.md), and broken
// variants: bad JSON (which the role maker's strict reader must refuse) and
// bad content.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TFConfigRoleMaker.h"

#include "Fleet/FleetTesting.h"

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::testing;

namespace {

using Variables = std::map<std::string, std::string>;

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

/// Returns the error of a role maker reading `config` and `more` variables
/// ("" on success), without the role maker's name.
std::string errorOf(const std::string &config, Variables more = {}) {
  more["TF_CONFIG"] = config;
  TFConfigRoleMaker maker(Environment::fromMap(std::move(more)));
  std::string error = generateError(maker);
  std::string prefix = "TF_CONFIG role maker: ";
  if (error.empty())
    return "";
  EXPECT_EQ(error.substr(0, prefix.size()), prefix);
  return error.substr(prefix.size());
}

/// Returns the role of a role maker reading `config` and `more` variables.
RoleAssignment roleOf(const std::string &config, Variables more = {}) {
  more["TF_CONFIG"] = config;
  TFConfigRoleMaker maker(Environment::fromMap(std::move(more)));
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
      {"{", "TF_CONFIG: invalid JSON at line 1, column 2: syntax error while "
            "parsing object key - unexpected end of input; expected string "
            "literal"},
      {R"({"task": {"type": "ps",}})",
       "TF_CONFIG: invalid JSON at line 1, column 24: syntax error while "
       "parsing object key - unexpected '}'; expected string literal"},
      {R"({"cluster": [1, 2,]})",
       "TF_CONFIG: invalid JSON at line 1, column 19: syntax error while "
       "parsing value - unexpected ']'; expected '[', '{', or a literal"},
      {"{// comment\n}",
       "TF_CONFIG: invalid JSON at line 1, column 2: syntax error while "
       "parsing object key - invalid literal; last read: '{/'; expected "
       "string literal"},
      {"{\"a\": 1}\n{}",
       "TF_CONFIG: invalid JSON at line 2, column 1: syntax error while "
       "parsing value - unexpected '{'; expected end of input"},
      {R"({"a": 1, "a": 2})",
       "TF_CONFIG: invalid JSON: TF_CONFIG has the key \"a\" twice"},
      {R"({"task": {"type": "ps", "index": 0}, "cluster": {"ps": ["p:1"],
           "worker": ["w:1"], "ps": ["q:1"]}})",
       "TF_CONFIG: invalid JSON: cluster has the key \"ps\" twice"},
      {R"({"a": [{"b": {}}, {"b": {"c": 1, "c": 1}}]})",
       "TF_CONFIG: invalid JSON: a[1].b has the key \"c\" twice"},
      {R"({"a": 'x'})",
       "TF_CONFIG: invalid JSON at line 1, column 7: syntax error while "
       "parsing value - invalid literal; last read: '\"a\": ''"},
      {R"({"a": 01})",
       "TF_CONFIG: invalid JSON at line 1, column 8: syntax error while "
       "parsing object - unexpected number literal; expected '}'"},
      {R"({"a": 1.})",
       "TF_CONFIG: invalid JSON at line 1, column 9: syntax error while "
       "parsing value - invalid number; expected digit after '.'; last read: "
       "'1.}'"},
      {R"({"a": NaN})",
       "TF_CONFIG: invalid JSON at line 1, column 7: syntax error while "
       "parsing value - invalid literal; last read: '\"a\": N'"},
      {R"({"a": tru})",
       "TF_CONFIG: invalid JSON at line 1, column 10: syntax error while "
       "parsing value - invalid literal; last read: '\"a\": tru}'"},
      {R"({"a": "x)",
       "TF_CONFIG: invalid JSON at line 1, column 9: syntax error while "
       "parsing value - invalid string: missing closing quote; last read: "
       "'\"x'"},
      {"{\"a\": \"x\ty\"}",
       "TF_CONFIG: invalid JSON at line 1, column 9: syntax error while "
       "parsing value - invalid string: control character U+0009 (HT) must "
       "be escaped to \\u0009 or \\t; last read: '\"x<U+0009>'"},
      {R"({"a": "\x"})",
       "TF_CONFIG: invalid JSON at line 1, column 9: syntax error while "
       "parsing value - invalid string: forbidden character after backslash; "
       "last read: '\"\\x'"},
      {R"({"a": "\u12"})",
       "TF_CONFIG: invalid JSON at line 1, column 12: syntax error while "
       "parsing value - invalid string: '\\u' must be followed by 4 hex "
       "digits; last read: '\"\\u12\"'"},
      {R"({"a": "\ud800"})",
       "TF_CONFIG: invalid JSON at line 1, column 14: syntax error while "
       "parsing value - invalid string: surrogate U+D800..U+DBFF must be "
       "followed by U+DC00..U+DFFF; last read: '\"\\ud800\"'"},
      {R"({"a": "\udc00"})",
       "TF_CONFIG: invalid JSON at line 1, column 13: syntax error while "
       "parsing value - invalid string: surrogate U+DC00..U+DFFF must follow "
       "U+D800..U+DBFF; last read: '\"\\udc00'"},
      {"{\"a\": \"\xff\"}",
       "TF_CONFIG: invalid JSON at line 1, column 8: syntax error while "
       "parsing value - invalid string: ill-formed UTF-8 byte; last read: "
       "'\"\\xFF'"},
      {deep, "TF_CONFIG: invalid JSON: arrays and objects are nested more "
             "than 64 levels deep"},
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
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"], "tpu": ["t:1"]},
           "task": {"type": "ps", "index": 0}})",
       "cluster.tpu is not supported: a parameter-server job has \"ps\", "
       "\"chief\" (or \"master\"), \"worker\" and \"evaluator\" tasks"},
      {R"({"cluster": {"ps": ["p:1"], "worker": "w:1"},
           "task": {"type": "ps", "index": 0}})",
       "cluster.worker is a string, expected an array"},
      {R"({"cluster": {"ps": ["p:1"], "chief": ["c:1", "d:1"]},
           "task": {"type": "ps", "index": 0}})",
       "cluster.chief lists 2 tasks; TensorFlow allows at most one chief"},
      {R"({"cluster": {"ps": ["p:1"], "chief": ["c:1"], "master": ["m:1"]},
           "task": {"type": "ps", "index": 0}})",
       "cluster has both \"chief\" and \"master\"; TensorFlow takes one "
       "task as the chief"},
      {R"({"cluster": {"ps": ["p:1"], "chief": []},
           "task": {"type": "ps", "index": 0}})",
       "cluster.chief is empty"},
      {tfConfig("chief", "0"),
       "task.type is \"chief\", but cluster has no \"chief\""},
      {tfConfig("tpu_worker", "0"),
       "task.type is \"tpu_worker\", expected \"ps\", \"worker\", "
       "\"chief\", \"master\" or \"evaluator\""},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]},
           "sparseCluster": {"ps": ["p:1"], "worker": {"0": "w:1"}},
           "task": {"type": "ps", "index": 0}})",
       "TF_CONFIG has both \"cluster\" and \"sparseCluster\""},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]}})",
       "TF_CONFIG has no \"task\""},
      {R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]}, "task": {}})",
       "task has no \"type\""},
      {tfConfig("ps", "\"0\""), "task.index is a string, expected a number"},
      {tfConfig("ps", "1.5"), "task.index is 1.5, expected a whole number"},
      {tfConfig("ps", "1e0"), "task.index is 1e0, expected a whole number"},
      {tfConfig("ps", "1.0"), "task.index is 1.0, expected a whole number"},
      {tfConfig("ps", "99999999999999999999"),
       "task.index is 99999999999999999999, outside [0, 2147483647]"},
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
  EXPECT_EQ(errorOf(tfConfig("worker", "0"), {{"OPENKS_TF_WORKERS", "two"}}),
            "environment variable OPENKS_TF_WORKERS is 'two', not a decimal "
            "integer");
  EXPECT_EQ(errorOf(tfConfig("worker", "0"), {{"OPENKS_TF_WORKERS", "2"}}),
            "cluster has 3 workers, but OPENKS_TF_WORKERS is 2");
  TFConfigRoleMaker unset(Environment::fromMap({}));
  EXPECT_EQ(generateError(unset), "TF_CONFIG role maker: environment "
                                  "variable TF_CONFIG is not set");
}

// Tests that a chief (or an old TFJob's master) is worker 0 and the worker
// tasks come after it, as TensorFlow numbers them, and that evaluators in
// the cluster are no obstacle.
TEST(TFConfigRoleMakerTest, NumbersTheChiefFirst) {
  auto config = [](const std::string &chief, const std::string &type,
                   int index) {
    return fmt::format(
        R"({{"cluster": {{"{0}": ["c:2222"], "ps": ["p:2222"],
                         "worker": ["w0:2222", "w1:2222"],
                         "evaluator": ["e:2222"]}},
            "task": {{"type": "{1}", "index": {2}}}}})",
        chief, type, index);
  };
  const std::vector<std::string> servers = {"p:2222"};
  const std::vector<std::string> workers = {"c:2222", "w0:2222", "w1:2222"};
  for (const char *chief : {"chief", "master"}) {
    SCOPED_TRACE(chief);
    EXPECT_EQ(roleOf(config(chief, chief, 0)),
              makeAssignment(Role::Worker, 0, 3, servers, workers));
    EXPECT_EQ(roleOf(config(chief, "worker", 0)),
              makeAssignment(Role::Worker, 1, 3, servers, workers));
    EXPECT_EQ(roleOf(config(chief, "worker", 1)),
              makeAssignment(Role::Worker, 2, 3, servers, workers));
    EXPECT_EQ(roleOf(config(chief, "ps", 0)),
              makeAssignment(Role::Server, 0, 3, servers, workers));
    EXPECT_EQ(
        errorOf(config(chief, chief, 1)),
        fmt::format("task.index is 1, but cluster.{} lists 1 tasks", chief));
  }
  // A chief alone trains too; the given number of workers counts it.
  std::string alone = R"({"cluster": {"chief": ["c:1"], "ps": ["p:1"]},
                          "task": {"type": "chief", "index": 0}})";
  EXPECT_EQ(roleOf(alone, {{"OPENKS_TF_WORKERS", "1"}}),
            makeAssignment(Role::Worker, 0, 1, {"p:1"}, {"c:1"}));
  EXPECT_EQ(errorOf(alone, {{"OPENKS_TF_WORKERS", "2"}}),
            "cluster has 1 workers, counting its chief, but OPENKS_TF_WORKERS "
            "is 2");
  EXPECT_EQ(errorOf(R"({"cluster": {"ps": ["p:1"]},
                        "task": {"type": "ps", "index": 0}})"),
            "cluster has no \"worker\"");
}

// Tests that an evaluator comes out as Role::Evaluator, with nothing but its
// index, whatever cluster (or none) Kubeflow gives it.
TEST(TFConfigRoleMakerTest, TellsAnEvaluatorItHasNothingToDo) {
  std::string config = R"({"cluster": {"evaluator": ["e:2222"],
                                       "ps": ["p:2222"], "worker": ["w:2222"]},
                           "task": {"type": "evaluator", "index": 0},
                           "environment": "cloud"})";
  TFConfigRoleMaker maker(Environment::fromMap({{"TF_CONFIG", config}}));
  ASSERT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.assignment(), makeEvaluator(0));
  EXPECT_TRUE(maker.isEvaluator());
  EXPECT_FALSE(maker.isWorker());
  EXPECT_FALSE(maker.isServer());
  EXPECT_EQ(maker.workerIndex(), -1);
  EXPECT_EQ(maker.serverIndex(), -1);
  EXPECT_EQ(maker.serverNum(), 0);
  EXPECT_EQ(maker.currentEndpoint(), "");

  // Older TFJobs leave the evaluator out of the cluster; a sparse cluster
  // gives it empty lists.
  EXPECT_EQ(roleOf(R"({"cluster": {"ps": ["p:1"], "worker": ["w:1"]},
                       "task": {"type": "evaluator", "index": 3}})"),
            makeEvaluator(3));
  EXPECT_EQ(roleOf(R"({"cluster": {"ps": [], "worker": {}},
                       "task": {"type": "evaluator", "index": 0}})"),
            makeEvaluator(0));
  EXPECT_EQ(roleOf(R"({"task": {"type": "evaluator", "index": 0}})"),
            makeEvaluator(0));
  EXPECT_EQ(errorOf(R"({"cluster": {"evaluator": ["e:1"]},
                        "task": {"type": "evaluator", "index": 1}})"),
            "task.index is 1, but cluster.evaluator lists 1 tasks");
  EXPECT_EQ(errorOf(R"({"task": {"type": "evaluator", "index": -1}})"),
            "task.index is -1, outside [0, 2147483647]");
  EXPECT_EQ(errorOf(R"({"task": {"type": "evaluator"}})"),
            "task has no \"index\"");
}

/// Returns Kubeflow's sparse TF_CONFIG of worker `index` of a job of two
/// servers, under the key `clusterKey`.
std::string sparseWorker(const std::string &clusterKey, int index) {
  return fmt::format(R"({{"{0}":{{"worker":{{"{1}":"job-worker-{1}:2222"}},)"
                     R"("ps":["job-ps-0:2222","job-ps-1:2222"]}},)"
                     R"("task":{{"type":"worker","index":{1}}}}})",
                     clusterKey, index);
}

// Tests a sparse cluster, in both of Kubeflow's spellings: a worker knows
// itself and the servers, and the number of workers comes from elsewhere.
TEST(TFConfigRoleMakerTest, ReadsASparseCluster) {
  const std::vector<std::string> servers = {"job-ps-0:2222", "job-ps-1:2222"};
  for (const char *key : {"cluster", "sparseCluster"}) {
    SCOPED_TRACE(key);
    EXPECT_EQ(
        roleOf(sparseWorker(key, 1), {{"OPENKS_TF_WORKERS", "3"}}),
        makeAssignment(Role::Worker, 1, 3, servers, {}, "job-worker-1:2222"));
    EXPECT_EQ(errorOf(sparseWorker(key, 1)),
              fmt::format("the number of workers is unknown: {}.worker is an "
                          "object, a sparse cluster, which names only some "
                          "workers; pass the number to the TF_CONFIG role "
                          "maker or set OPENKS_TF_WORKERS",
                          key));
    EXPECT_EQ(errorOf(sparseWorker(key, 3), {{"OPENKS_TF_WORKERS", "3"}}),
              fmt::format("{}.worker.3 is worker 3 of the job, but "
                          "OPENKS_TF_WORKERS is 3",
                          key));
  }
  TFConfigRoleMaker given(
      Environment::fromMap({{"TF_CONFIG", sparseWorker("cluster", 0)}}), 2);
  ASSERT_EQ(generateError(given), "");
  EXPECT_EQ(given.currentEndpoint(), "job-worker-0:2222");
  EXPECT_TRUE(given.workerEndpoints().empty());
  TFConfigRoleMaker zero(
      Environment::fromMap({{"TF_CONFIG", sparseWorker("cluster", 0)}}), 0);
  EXPECT_EQ(generateError(zero),
            "TF_CONFIG role maker: the number of workers given to the role "
            "maker is 0, not a positive number");

  // Kubeflow gives a ps task only its own endpoint, and a chief nothing.
  std::string ps = R"({"cluster":{"worker":{},"ps":["job-ps-1:2222"]},)"
                   R"("task":{"type":"ps","index":1}})";
  EXPECT_EQ(errorOf(ps, {{"OPENKS_TF_WORKERS", "3"}}),
            "cluster.worker is an object, a sparse cluster, which tells a ps "
            "task too little of the job (Kubeflow's enableDynamicWorker gives "
            "a ps task only its own endpoint); run the TFJob without "
            "enableDynamicWorker");
  EXPECT_EQ(errorOf(R"({"cluster": {"ps": ["p:1"], "worker": {"x": "w:1"}},
                        "task": {"type": "worker", "index": 0}})",
                    {{"OPENKS_TF_WORKERS", "1"}}),
            "a key of cluster.worker is 'x', not a decimal integer");
  EXPECT_EQ(errorOf(R"({"cluster": {"ps": ["p:1"], "worker": {"0": 7}},
                        "task": {"type": "worker", "index": 0}})",
                    {{"OPENKS_TF_WORKERS", "1"}}),
            "cluster.worker.0 is a number, expected a host:port string");
  EXPECT_EQ(errorOf(R"({"cluster": {"ps": ["p:1"], "worker": {"1": "w:1"}},
                        "task": {"type": "worker", "index": 0}})",
                    {{"OPENKS_TF_WORKERS", "2"}}),
            "cluster.worker has no entry \"0\" for this task");
}

// Tests the TF_CONFIG that Kubeflow's training-operator gives each replica
// of the TFJob in docs/Deploy.md (2 PS and 2 Worker replicas of the job
// "openks-ps" in the namespace "default"), as its Go code writes it.
TEST(TFConfigRoleMakerTest, ReadsTheTFJobOfDeployMd) {
  const std::string cluster =
      R"("cluster":{"ps":["openks-ps-ps-0.default.svc:2222",)"
      R"("openks-ps-ps-1.default.svc:2222"],)"
      R"("worker":["openks-ps-worker-0.default.svc:2222",)"
      R"("openks-ps-worker-1.default.svc:2222"]})";
  auto replica = [&](const std::string &type, int index) {
    return fmt::format(
        R"({{{},"task":{{"type":"{}","index":{}}},"environment":"cloud"}})",
        cluster, type, index);
  };
  const std::vector<std::string> servers = {"openks-ps-ps-0.default.svc:2222",
                                            "openks-ps-ps-1.default.svc:2222"};
  const std::vector<std::string> workers = {
      "openks-ps-worker-0.default.svc:2222",
      "openks-ps-worker-1.default.svc:2222"};
  for (int index = 0; index < 2; ++index) {
    SCOPED_TRACE(index);
    EXPECT_EQ(roleOf(replica("ps", index)),
              makeAssignment(Role::Server, index, 2, servers, workers));
    EXPECT_EQ(roleOf(replica("worker", index)),
              makeAssignment(Role::Worker, index, 2, servers, workers));
  }
  // With an Evaluator replica added, every replica's cluster lists it; the
  // evaluator itself has nothing to do.
  const std::string evaluated =
      R"("cluster":{"evaluator":["openks-ps-evaluator-0.default.svc:2222"],)" +
      cluster.substr(cluster.find('{') + 1);
  auto withEvaluator = [&](const std::string &type, int index) {
    return fmt::format(
        R"({{{},"task":{{"type":"{}","index":{}}},"environment":"cloud"}})",
        evaluated, type, index);
  };
  EXPECT_EQ(roleOf(withEvaluator("ps", 1)),
            makeAssignment(Role::Server, 1, 2, servers, workers));
  EXPECT_EQ(roleOf(withEvaluator("worker", 0)),
            makeAssignment(Role::Worker, 0, 2, servers, workers));
  EXPECT_EQ(roleOf(withEvaluator("evaluator", 0)), makeEvaluator(0));

  // The role maker the environment calls for is this one.
  StatusOr<std::unique_ptr<RoleMaker>> chosen = createRoleMakerFromEnvironment(
      Environment::fromMap({{"TF_CONFIG", replica("worker", 1)}}));
  ASSERT_TRUE(chosen.isOk()) << chosen.status().message();
  EXPECT_EQ(generate(**chosen),
            makeAssignment(Role::Worker, 1, 2, servers, workers));
}

} // namespace
