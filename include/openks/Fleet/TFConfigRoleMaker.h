//===- TFConfigRoleMaker.h - Roles from TF_CONFIG ---------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_TFCONFIGROLEMAKER_H
#define OPENKS_FLEET_TFCONFIGROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

namespace openks::fleet {

/// The role from TF_CONFIG, the JSON that Kubeflow's TFJob (and TensorFlow's
/// own tooling) give every task:
///
///   {"cluster": {"ps": ["ps0:2222", ...], "worker": ["w0:2222", ...]},
///    "task": {"type": "ps" | "worker", "index": N}}
///
/// "ps" tasks are servers and "worker" tasks are workers, both in list
/// order; both lists are required and non-empty. Other job types ("chief",
/// "evaluator") are refused, since a parameter-server job here has only
/// these two; other keys at the top level or in "task" (e.g.
/// "environment") are ignored. The JSON must be strict RFC 8259 (no
/// comments, no trailing commas, no duplicate keys). generateRole() fails
/// naming what is wrong and where.
class TFConfigRoleMaker : public RoleMaker {
public:
  explicit TFConfigRoleMaker(Environment environment);

  std::string describe() const override;

protected:
  StatusOr<RoleAssignment> readRole() const override;

private:
  Environment environment_;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_TFCONFIGROLEMAKER_H
