//===- PaddleCloudRoleMaker.h - Roles from PaddleCloud variables -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_PADDLECLOUDROLEMAKER_H
#define OPENKS_FLEET_PADDLECLOUDROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

namespace openks::fleet {

/// Paddle's PaddleCloudRoleMaker in parameter-server mode: the role comes
/// from the variables that Paddle's launch_ps, fleetrun and the
/// paddle-operator for Kubernetes set.
///
///   TRAINING_ROLE                 TRAINER or PSERVER
///   PADDLE_PSERVERS_IP_PORT_LIST  host:port of every server, comma
///                                 separated, in server order
///   PADDLE_TRAINERS_NUM           the number of trainers
///   PADDLE_TRAINER_ID             (trainers) this trainer's index
///   POD_IP, PADDLE_PORT           (servers) this server's host and port;
///                                 its index is that of POD_IP:PADDLE_PORT
///                                 in the server list
///
/// generateRole() fails naming any missing or malformed variable. No worker
/// endpoints are known.
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
