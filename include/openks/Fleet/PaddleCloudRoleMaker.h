//===- PaddleCloudRoleMaker.h - Roles from PaddleCloud ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_PADDLECLOUDROLEMAKER_H
#define OPENKS_FLEET_PADDLECLOUDROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

namespace openks::fleet {

/// Paddle's PaddleCloudRoleMaker in parameter-server mode: the role comes
/// from the variables that Paddle's fleetrun (launch_ps) and the
/// paddle-operator for Kubernetes set.
///
///   TRAINING_ROLE                 TRAINER or PSERVER; PADDLE_TRAINING_ROLE,
///                                 which paddle-operator sets too, is the
///                                 same (they must not disagree)
///   PADDLE_PSERVERS_IP_PORT_LIST  host:port of every server, comma
///                                 separated, in server order
///   PADDLE_TRAINERS_NUM           the number of trainers
///   PADDLE_TRAINER_ENDPOINTS      (optional) host:port of every trainer,
///                                 in trainer order
///   PADDLE_TRAINER_ID             (trainers) this trainer's index, which
///                                 gives its endpoint in the trainer list
///   POD_IP, PADDLE_PORT           this process's host and port: a
///                                 server's index is that of the endpoint
///                                 in the server list; a trainer's, when
///                                 both are set, must be its list entry
///   PADDLE_CURRENT_ENDPOINT       (optional) this process's endpoint,
///                                 which must agree with the others
///
/// Heterogeneous training (TRAINING_ROLE HETER_TRAINER or HETER, or heter
/// trainer endpoints listed) and Paddle's COORDINATOR role are refused.
/// generateRole() fails naming any missing, malformed or inconsistent
/// variable.
class PaddleCloudRoleMaker : public RoleMaker {
public:
  explicit PaddleCloudRoleMaker(Environment environment);

  std::string describe() const override;

protected:
  StatusOr<RoleAssignment> readRole() const override;

private:
  Environment environment_;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_PADDLECLOUDROLEMAKER_H
