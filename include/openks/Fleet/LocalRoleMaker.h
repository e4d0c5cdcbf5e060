//===- LocalRoleMaker.h - Roles of an in-process cluster --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_LOCALROLEMAKER_H
#define OPENKS_FLEET_LOCALROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

namespace openks::fleet {

/// The role of one thread of a job whose roles all run in this process. A
/// plain value: copy it into each role's thread. The endpoints only name
/// the servers inside the process; nothing listens on them.
class LocalRoleMaker : public RoleMaker {
public:
  /// The role `role` with index `index` in a job of `workerNum` workers and
  /// the servers at `serverEndpoints`; checked by generateRole().
  LocalRoleMaker(Role role, int index, std::vector<std::string> serverEndpoints,
                 int workerNum);

  /// Returns the role makers of every role of the job, servers first, in
  /// index order. They are not generated yet.
  static std::vector<LocalRoleMaker>
  allRoles(const std::vector<std::string> &serverEndpoints, int workerNum);

  std::string describe() const override;

  bool operator==(const LocalRoleMaker &other) const {
    return given_ == other.given_;
  }
  bool operator!=(const LocalRoleMaker &other) const {
    return !(*this == other);
  }

protected:
  StatusOr<RoleAssignment> readRole() const override { return given_; }

private:
  RoleAssignment given_;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_LOCALROLEMAKER_H
