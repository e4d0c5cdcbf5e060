//===- TFConfigRoleMaker.h - Roles from TF_CONFIG ---------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_TFCONFIGROLEMAKER_H
#define OPENKS_FLEET_TFCONFIGROLEMAKER_H

#include "openks/Fleet/RoleMaker.h"

#include <optional>

namespace openks::fleet {

/// The role from TF_CONFIG, the JSON that Kubeflow's TFJob (and TensorFlow's
/// own tooling) give every task:
///
///   {"cluster": {"chief": ["c0:2222"], "ps": ["ps0:2222", ...],
///                "worker": ["w0:2222", ...], "evaluator": ["e0:2222"]},
///    "task": {"type": "worker", "index": N}, "environment": "cloud"}
///
/// "ps" tasks are the servers, in list order. The workers are the "chief"
/// (or, in older TFJobs, "master") first, at most one, and the "worker"
/// tasks after it, as TensorFlow numbers them (multi_worker_util's
/// id_in_cluster): with a chief, worker task i is worker i + 1. "ps" and a
/// chief or a worker are required. An "evaluator" task takes no part: its
/// role is Role::Evaluator. Other keys ("environment", ...) are ignored.
///
/// A sparse cluster (TensorFlow's ClusterSpec with "worker" an object from
/// task index to endpoint, which Kubeflow writes for enableDynamicWorker,
/// under "sparseCluster" before training-operator 1.7) gives a worker only
/// its own endpoint and the servers: the number of workers then comes from
/// the constructor or OPENKS_TF_WORKERS (which, when the cluster is full,
/// must match it). Kubeflow gives a ps or chief task of a sparse cluster
/// only its own endpoint or nothing, so those are refused.
///
/// The JSON must be strict RFC 8259 (no comments, no trailing commas, no
/// duplicate keys). generateRole() fails naming what is wrong and where.
class TFConfigRoleMaker : public RoleMaker {
public:
  explicit TFConfigRoleMaker(Environment environment,
                             std::optional<int> workerNum = std::nullopt);

  std::string describe() const override;

protected:
  StatusOr<RoleAssignment> readRole() const override;

private:
  Environment environment_;
  std::optional<int> workerNum_;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_TFCONFIGROLEMAKER_H
