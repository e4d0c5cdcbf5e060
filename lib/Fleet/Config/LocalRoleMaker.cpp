//===- LocalRoleMaker.cpp - Roles of an in-process cluster ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/LocalRoleMaker.h"

using namespace openks;
using namespace openks::fleet;

LocalRoleMaker::LocalRoleMaker(Role role, int index,
                               std::vector<std::string> serverEndpoints,
                               int workerNum) {
  given_.role = role;
  given_.index = index;
  given_.workerNum = workerNum;
  given_.serverEndpoints = std::move(serverEndpoints);
}

std::vector<LocalRoleMaker>
LocalRoleMaker::allRoles(const std::vector<std::string> &serverEndpoints,
                         int workerNum) {
  std::vector<LocalRoleMaker> roles;
  for (size_t i = 0; i < serverEndpoints.size(); ++i)
    roles.emplace_back(Role::Server, static_cast<int>(i), serverEndpoints,
                       workerNum);
  for (int i = 0; i < workerNum; ++i)
    roles.emplace_back(Role::Worker, i, serverEndpoints, workerNum);
  return roles;
}

std::string LocalRoleMaker::describe() const {
  return fmt::format("local role maker ({} {} of {} servers and {} workers)",
                     roleName(given_.role), given_.index,
                     given_.serverEndpoints.size(), given_.workerNum);
}
