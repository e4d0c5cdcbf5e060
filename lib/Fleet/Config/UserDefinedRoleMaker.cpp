//===- UserDefinedRoleMaker.cpp - A role given by the caller --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/UserDefinedRoleMaker.h"

using namespace openks;
using namespace openks::fleet;

UserDefinedRoleMaker::UserDefinedRoleMaker(
    int currentId, Role role, int workerNum,
    std::vector<std::string> serverEndpoints)
    : currentId_(currentId), role_(role), workerNum_(workerNum),
      serverEndpoints_(std::move(serverEndpoints)) {}

std::string UserDefinedRoleMaker::describe() const {
  return fmt::format("user-defined role maker ({} {})", roleName(role_),
                     currentId_);
}

StatusOr<RoleAssignment> UserDefinedRoleMaker::readRole() const {
  RoleAssignment assignment;
  assignment.role = role_;
  assignment.index = currentId_;
  assignment.workerNum = workerNum_;
  assignment.serverEndpoints = serverEndpoints_;
  return assignment;
}
