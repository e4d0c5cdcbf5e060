//===- FleetTesting.h - Helpers for Fleet unit tests ------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_FLEET_FLEETTESTING_H
#define OPENKS_TEST_UNIT_FLEET_FLEETTESTING_H

#include "openks/Fleet/RoleMaker.h"

#include "gtest/gtest.h"

#include <string>

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

/// Returns a worker or server assignment with `workerEndpoints`.
inline RoleAssignment
makeAssignment(Role role, int index, int workerNum,
               std::vector<std::string> serverEndpoints,
               std::vector<std::string> workerEndpoints = {}) {
  RoleAssignment result;
  result.role = role;
  result.index = index;
  result.workerNum = workerNum;
  result.serverEndpoints = std::move(serverEndpoints);
  result.workerEndpoints = std::move(workerEndpoints);
  return result;
}

} // namespace openks::fleet::testing

#endif // OPENKS_TEST_UNIT_FLEET_FLEETTESTING_H
