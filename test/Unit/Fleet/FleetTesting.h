//===- FleetTesting.h - Helpers for Fleet unit tests ------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_FLEET_FLEETTESTING_H
#define OPENKS_TEST_UNIT_FLEET_FLEETTESTING_H

#include "openks/Fleet/RoleMaker.h"

#include "gtest/gtest.h"

#include <optional>
#include <string>
#include <vector>

namespace openks::fleet::testing {

/// Returns the message with which `maker.generateRole()` fails, or "" when
/// it succeeds; the role must not be generated afterwards on failure.
inline std::string generateError(RoleMaker &maker) {
  Status status = maker.generateRole();
  if (status)
    return "";
  EXPECT_FALSE(maker.isRoleGenerated());
  return status.message();
}

/// Returns the role `maker` generates; fails the test (and returns an empty
/// assignment) when generateRole() fails.
inline RoleAssignment generate(RoleMaker &maker) {
  Status status = maker.generateRole();
  EXPECT_TRUE(status.isOk()) << status.message();
  return status ? maker.assignment() : RoleAssignment();
}

/// Returns a worker or server assignment with `workerEndpoints`, whose own
/// endpoint is `endpoint`, or by default its entry of the lists (as
/// RoleAssignment::canonicalize fills it).
inline RoleAssignment
makeAssignment(Role role, int index, int workerNum,
               std::vector<std::string> serverEndpoints,
               std::vector<std::string> workerEndpoints = {},
               std::optional<std::string> endpoint = std::nullopt) {
  RoleAssignment result;
  result.role = role;
  result.index = index;
  result.workerNum = workerNum;
  if (endpoint)
    result.endpoint = *endpoint;
  else if (role == Role::Server)
    result.endpoint = serverEndpoints.at(index);
  else if (!workerEndpoints.empty())
    result.endpoint = workerEndpoints.at(index);
  result.serverEndpoints = std::move(serverEndpoints);
  result.workerEndpoints = std::move(workerEndpoints);
  return result;
}

/// Returns the assignment of evaluator `index`.
inline RoleAssignment makeEvaluator(int index) {
  RoleAssignment result;
  result.role = Role::Evaluator;
  result.index = index;
  return result;
}

} // namespace openks::fleet::testing

#endif // OPENKS_TEST_UNIT_FLEET_FLEETTESTING_H
