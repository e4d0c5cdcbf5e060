//===- UserDefinedRoleMaker.h - A role given by the caller ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_USERDEFINEDROLEMAKER_H
#define OPENKS_FLEET_USERDEFINEDROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

namespace openks::fleet {

/// Paddle's UserDefinedRoleMaker: the program states its role. As in Paddle,
/// `currentId` is the index of this worker or server, `workerNum` must be at
/// least 1, and `serverEndpoints` must be non-empty and name each server
/// once; unlike Paddle, a worker's `currentId` must also be below
/// `workerNum`. The arguments are checked by generateRole().
class UserDefinedRoleMaker : public RoleMaker {
public:
  UserDefinedRoleMaker(int currentId, Role role, int workerNum,
                       std::vector<std::string> serverEndpoints);

  std::string describe() const override;

protected:
  StatusOr<RoleAssignment> readRole() const override;

private:
  int currentId_;
  Role role_;
  int workerNum_;
  std::vector<std::string> serverEndpoints_;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_USERDEFINEDROLEMAKER_H
