//===- RoleMakerTest.cpp - Tests of role makers given their roles ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The role maker base (checks, queries, idempotence) through the role makers
// whose roles are given: UserDefinedRoleMaker and LocalRoleMaker.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/Fleet/UserDefinedRoleMaker.h"

#include "Fleet/FleetTesting.h"

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::testing;

namespace {

const std::vector<std::string> kServers = {"10.0.0.1:6170", "10.0.0.2:6170"};

/// A role maker that counts how often it reads its source, and reads what
/// it is told.
class CountingRoleMaker : public RoleMaker {
public:
  std::string describe() const override { return "counting role maker"; }
  StatusOr<RoleAssignment> next = makeAssignment(Role::Worker, 0, 1, kServers);
  mutable int reads = 0;

protected:
  StatusOr<RoleAssignment> readRole() const override {
    ++reads;
    return next;
  }
};

// Tests the queries of a worker and of a server.
TEST(RoleMakerTest, AnswersQueriesForEachRole) {
  UserDefinedRoleMaker worker(1, Role::Worker, 3, kServers);
  ASSERT_EQ(generateError(worker), "");
  EXPECT_EQ(worker.role(), Role::Worker);
  EXPECT_TRUE(worker.isWorker());
  EXPECT_FALSE(worker.isServer());
  EXPECT_FALSE(worker.isFirstWorker());
  EXPECT_EQ(worker.workerIndex(), 1);
  EXPECT_EQ(worker.serverIndex(), -1);
  EXPECT_EQ(worker.workerNum(), 3);
  EXPECT_EQ(worker.serverNum(), 2);
  EXPECT_EQ(worker.serverEndpoints(), kServers);
  EXPECT_TRUE(worker.workerEndpoints().empty());
  EXPECT_EQ(worker.currentEndpoint(), "");

  UserDefinedRoleMaker first(0, Role::Worker, 3, kServers);
  ASSERT_EQ(generateError(first), "");
  EXPECT_TRUE(first.isFirstWorker());

  UserDefinedRoleMaker server(1, Role::Server, 3, kServers);
  ASSERT_EQ(generateError(server), "");
  EXPECT_TRUE(server.isServer());
  EXPECT_FALSE(server.isFirstWorker());
  EXPECT_EQ(server.serverIndex(), 1);
  EXPECT_EQ(server.workerIndex(), -1);
  EXPECT_EQ(server.currentEndpoint(), "10.0.0.2:6170");
  EXPECT_STREQ(roleName(Role::Server), "server");
  EXPECT_STREQ(roleName(Role::Worker), "worker");
  EXPECT_STREQ(roleName(Role::Evaluator), "evaluator");
}

// Tests that an evaluator is neither worker nor server, has no job, and
// that its role holds nothing but an index.
TEST(RoleMakerTest, AnEvaluatorHasNoPart) {
  CountingRoleMaker evaluator;
  evaluator.next = makeEvaluator(2);
  ASSERT_EQ(generateError(evaluator), "");
  EXPECT_TRUE(evaluator.isEvaluator());
  EXPECT_FALSE(evaluator.isWorker());
  EXPECT_FALSE(evaluator.isServer());
  EXPECT_FALSE(evaluator.isFirstWorker());
  EXPECT_EQ(evaluator.role(), Role::Evaluator);
  EXPECT_EQ(evaluator.workerIndex(), -1);
  EXPECT_EQ(evaluator.serverIndex(), -1);
  EXPECT_EQ(evaluator.workerNum(), 0);
  EXPECT_EQ(evaluator.serverNum(), 0);
  EXPECT_EQ(evaluator.currentEndpoint(), "");
  EXPECT_EQ(evaluator.assignment().index, 2);

  RoleAssignment negative = makeEvaluator(-1);
  EXPECT_EQ(negative.canonicalize().message(),
            "evaluator index -1 is negative");
  RoleAssignment shaped = makeEvaluator(0);
  shaped.serverEndpoints = kServers;
  EXPECT_EQ(shaped.canonicalize().message(),
            "an evaluator takes no part in the job, so its role names no "
            "workers, servers or endpoint");
  UserDefinedRoleMaker defined(0, Role::Evaluator, 1, kServers);
  EXPECT_EQ(generateError(defined),
            "user-defined role maker (evaluator 0): an evaluator takes no part "
            "in the job, so its role names no workers, servers or endpoint");
}

// Tests that a role's own endpoint, when its source states it, is checked
// against the lists, and that it is filled from them otherwise.
TEST(RoleMakerTest, ChecksTheOwnEndpoint) {
  RoleAssignment server = makeAssignment(Role::Server, 1, 1, kServers, {}, "");
  ASSERT_TRUE(server.canonicalize().isOk());
  EXPECT_EQ(server.endpoint, "10.0.0.2:6170");
  RoleAssignment stated =
      makeAssignment(Role::Worker, 1, 2, kServers, {"w0:1", "w1:2"}, "W1:02");
  ASSERT_TRUE(stated.canonicalize().isOk());
  EXPECT_EQ(stated.endpoint, "w1:2");
  RoleAssignment alone =
      makeAssignment(Role::Worker, 0, 2, kServers, {}, "W0:01");
  ASSERT_TRUE(alone.canonicalize().isOk());
  EXPECT_EQ(alone.endpoint, "w0:1");
  EXPECT_TRUE(alone.workerEndpoints.empty());

  RoleAssignment other =
      makeAssignment(Role::Worker, 1, 2, kServers, {"w0:1", "w1:2"}, "w0:1");
  EXPECT_EQ(other.canonicalize().message(),
            "this worker's own endpoint 'w0:1' is not worker 1's in the list, "
            "'w1:2'");
  RoleAssignment otherServer =
      makeAssignment(Role::Server, 0, 1, kServers, {}, "10.0.0.2:6170");
  EXPECT_EQ(otherServer.canonicalize().message(),
            "this server's own endpoint '10.0.0.2:6170' is not server 0's in "
            "the list, '10.0.0.1:6170'");
  RoleAssignment aServer =
      makeAssignment(Role::Worker, 0, 1, kServers, {}, "10.0.0.2:6170");
  EXPECT_EQ(aServer.canonicalize().message(),
            "endpoint '10.0.0.2:6170' is both a server's and a worker's");
  RoleAssignment malformed =
      makeAssignment(Role::Worker, 0, 1, kServers, {}, "w0");
  EXPECT_EQ(malformed.canonicalize().message(),
            "this worker's own endpoint: endpoint 'w0' must have the form "
            "host:port");
}

// Tests the checks of Paddle's UserDefinedRoleMaker, and that a worker's
// index must be in range too.
TEST(RoleMakerTest, ChecksUserDefinedRoles) {
  struct Case {
    int id;
    Role role;
    int workers;
    std::vector<std::string> servers;
    const char *message;
  };
  const Case cases[] = {
      {0, Role::Worker, 2, {}, "server endpoints must not be empty"},
      {0,
       Role::Worker,
       2,
       {"a:1", "A:1"},
       "server endpoints list 'a:1' twice "
       "(as 'A:1')"},
      {0, Role::Worker, 2, {"a"}, "endpoint 'a' must have the form host:port"},
      {0, Role::Worker, 0, kServers, "a job needs at least 1 worker, got 0"},
      {-1, Role::Worker, 2, kServers,
       "worker index -1 is out of range: the job has 2 workers"},
      {2, Role::Worker, 2, kServers,
       "worker index 2 is out of range: the job has 2 workers"},
      {2, Role::Server, 5, kServers,
       "server index 2 is out of range: the job has 2 servers"},
  };
  for (const Case &c : cases) {
    UserDefinedRoleMaker maker(c.id, c.role, c.workers, c.servers);
    EXPECT_EQ(generateError(maker),
              fmt::format("user-defined role maker ({} {}): {}",
                          roleName(c.role), c.id, c.message));
  }
}

// Tests that endpoints come out canonical, worker endpoints are checked
// against the workers and the servers, and a worker's current endpoint is
// its own when known.
TEST(RoleMakerTest, CanonicalisesAndChecksEndpoints) {
  RoleAssignment given = makeAssignment(
      Role::Worker, 1, 2, {"Host-A:06170", "[0::1]:1"}, {"w0:1", "W1:0002"});
  ASSERT_TRUE(given.canonicalize().isOk());
  EXPECT_EQ(given.serverEndpoints,
            (std::vector<std::string>{"host-a:6170", "[::1]:1"}));
  EXPECT_EQ(given.workerEndpoints, (std::vector<std::string>{"w0:1", "w1:2"}));

  CountingRoleMaker maker;
  maker.next = makeAssignment(Role::Worker, 1, 2, kServers, {"w0:1", "w1:2"});
  ASSERT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.currentEndpoint(), "w1:2");

  RoleAssignment wrongCount =
      makeAssignment(Role::Worker, 0, 3, kServers, {"w0:1", "w1:2"});
  EXPECT_EQ(wrongCount.canonicalize().message(),
            "2 worker endpoints are given for 3 workers");
  RoleAssignment shared =
      makeAssignment(Role::Worker, 0, 2, kServers, {"w0:1", "10.0.0.2:06170"});
  EXPECT_EQ(shared.canonicalize().message(),
            "endpoint '10.0.0.2:6170' is both a server's and a worker's");
  RoleAssignment twice =
      makeAssignment(Role::Worker, 0, 2, kServers, {"w0:1", "w0:01"});
  EXPECT_EQ(twice.canonicalize().message(),
            "worker endpoints list 'w0:1' twice (as 'w0:01')");
}

// Tests that generateRole reads once after success, again after failure.
TEST(RoleMakerTest, GeneratesOnce) {
  CountingRoleMaker maker;
  maker.next = Status::invalidArgument("not yet");
  EXPECT_EQ(generateError(maker), "counting role maker: not yet");
  EXPECT_EQ(maker.reads, 1);
  maker.next = makeAssignment(Role::Server, 0, 1, kServers);
  EXPECT_EQ(generateError(maker), "");
  EXPECT_EQ(generateError(maker), "");
  EXPECT_EQ(maker.reads, 2);
  // What was read first stays, whatever the source says later.
  maker.next = makeAssignment(Role::Worker, 0, 1, kServers);
  EXPECT_EQ(generateError(maker), "");
  EXPECT_TRUE(maker.isServer());
  EXPECT_EQ(maker.reads, 2);
}

// Tests that a query before the role is known stops the process, naming
// the role maker, rather than answering with a made-up role.
TEST(RoleMakerDeathTest, QueriesNeedAGeneratedRole) {
  UserDefinedRoleMaker maker(0, Role::Worker, 1, kServers);
  EXPECT_DEATH((void)maker.isWorker(),
               "user-defined role maker \\(worker 0\\): the role was queried "
               "before generateRole\\(\\) succeeded");
  UserDefinedRoleMaker broken(5, Role::Worker, 1, kServers);
  EXPECT_FALSE(broken.generateRole().isOk());
  EXPECT_DEATH((void)broken.serverEndpoints(), "before generateRole");
}

// Tests a local role maker and the role makers of a whole in-process job.
TEST(RoleMakerTest, LocalRolesCoverTheJob) {
  LocalRoleMaker server(Role::Server, 1, kServers, 2);
  EXPECT_EQ(generate(server), makeAssignment(Role::Server, 1, 2, kServers));
  EXPECT_EQ(server.describe(),
            "local role maker (server 1 of 2 servers and 2 workers)");

  std::vector<LocalRoleMaker> roles = LocalRoleMaker::allRoles(kServers, 3);
  ASSERT_EQ(roles.size(), 5u);
  std::vector<RoleAssignment> expected = {
      makeAssignment(Role::Server, 0, 3, kServers),
      makeAssignment(Role::Server, 1, 3, kServers),
      makeAssignment(Role::Worker, 0, 3, kServers),
      makeAssignment(Role::Worker, 1, 3, kServers),
      makeAssignment(Role::Worker, 2, 3, kServers)};
  for (size_t i = 0; i < roles.size(); ++i) {
    // A copy is an independent value.
    LocalRoleMaker copy = roles[i];
    EXPECT_EQ(copy, roles[i]);
    EXPECT_EQ(generate(copy), expected[i]);
    EXPECT_FALSE(roles[i].isRoleGenerated());
  }
  EXPECT_NE(roles[0], roles[1]);

  LocalRoleMaker broken(Role::Worker, 3, kServers, 3);
  EXPECT_EQ(generateError(broken),
            "local role maker (worker 3 of 2 servers and 3 workers): worker "
            "index 3 is out of range: the job has 3 workers");
}

} // namespace
