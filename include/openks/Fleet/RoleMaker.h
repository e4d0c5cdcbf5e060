//===- RoleMaker.h - The role of this process in a job ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A role maker tells a process of a parameter-server job what it is: a worker
// (trainer) or a server, its index among them, and the shape of the job (the
// server endpoints, the number of workers); or that it is an evaluator, a
// task some schedulers start beside the job that has nothing to do in it.
// Each implementation reads this from one source: the caller's arguments, an
// in-process cluster, or the variables a scheduler sets (PaddleCloud,
// Kubeflow's TF_CONFIG, Slurm). generateRole() reads and checks; the
// accessors are valid after it has succeeded. Needs neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_ROLEMAKER_H
#define OPENKS_FLEET_ROLEMAKER_H

#include "openks/Fleet/Environment.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace openks::fleet {

/// What a process of a parameter-server job is.
enum class Role : uint8_t {
  /// A trainer: runs forward and backward, sends gradients, receives
  /// parameters.
  Worker,
  /// A parameter server: holds blocks of the parameters, runs the optimizer.
  Server,
  /// A task that takes no part in the job: TF_CONFIG's "evaluator", which
  /// Kubeflow starts beside the training tasks. It has nothing to do; a
  /// launcher says so and exits successfully.
  Evaluator,
};

/// Returns "worker", "server" or "evaluator".
const char *roleName(Role role);

/// What a role maker finds out: this process's role and index, and the
/// shape of its job. An evaluator's holds only its index.
struct RoleAssignment {
  /// This process's role.
  Role role = Role::Worker;
  /// This process's index among the workers, the servers or the evaluators.
  int index = 0;
  /// The number of workers; 0 for an evaluator.
  int workerNum = 0;
  /// The server endpoints, host:port, in server order; none for an
  /// evaluator.
  std::vector<std::string> serverEndpoints;
  /// The worker endpoints in worker order, or empty when the source names
  /// none.
  std::vector<std::string> workerEndpoints;
  /// This process's own endpoint, or "" when the source names none. A
  /// source may state it apart from the lists (a worker's POD_IP and
  /// PADDLE_PORT); canonicalize() checks it against this role's entry of
  /// the lists, and otherwise fills it from that entry.
  std::string endpoint;

  /// Checks the assignment: at least one worker and one server, `index` in
  /// range for `role`, every endpoint well formed and none listed twice (as
  /// a server, a worker, or both), either no worker endpoints or one per
  /// worker, and `endpoint` that of this role when both are known. An
  /// evaluator's must have a non-negative index and nothing else. On success
  /// the endpoints are in canonical form and `endpoint` is filled.
  Status canonicalize();

  bool operator==(const RoleAssignment &other) const;
  bool operator!=(const RoleAssignment &other) const {
    return !(*this == other);
  }
};

/// Finds the role of this process. Subclasses say where from (readRole);
/// the base checks what they find and answers the queries.
class RoleMaker {
public:
  virtual ~RoleMaker();

  /// Reads and checks the role. Once it has succeeded, later calls return
  /// success without reading again; after a failure, the next call reads
  /// again. The error names the source and what is wrong.
  Status generateRole();
  /// Returns whether generateRole() has succeeded.
  bool isRoleGenerated() const { return assignment_.has_value(); }

  /// Returns a description of this role maker and its source, for messages
  /// (e.g. "PaddleCloud role maker (TRAINING_ROLE=PSERVER)").
  virtual std::string describe() const = 0;

  // The queries below may only be called after generateRole() succeeded;
  // before, they abort the process with a message.

  /// Returns everything generateRole() found.
  const RoleAssignment &assignment() const;
  /// Returns this process's role.
  Role role() const { return assignment().role; }
  bool isWorker() const { return role() == Role::Worker; }
  bool isServer() const { return role() == Role::Server; }
  /// Returns whether this process is an evaluator, which has nothing to do
  /// in the job.
  bool isEvaluator() const { return role() == Role::Evaluator; }
  /// Returns whether this process is worker 0 (which does the chief's work).
  bool isFirstWorker() const { return isWorker() && workerIndex() == 0; }
  /// Returns this worker's index, or -1 on a server.
  int workerIndex() const { return isWorker() ? assignment().index : -1; }
  /// Returns the number of workers; 0 on an evaluator.
  int workerNum() const { return assignment().workerNum; }
  /// Returns this server's index, or -1 on a worker.
  int serverIndex() const { return isServer() ? assignment().index : -1; }
  /// Returns the number of servers; 0 on an evaluator.
  int serverNum() const {
    return static_cast<int>(assignment().serverEndpoints.size());
  }
  /// Returns the server endpoints in server order, canonical host:port.
  const std::vector<std::string> &serverEndpoints() const {
    return assignment().serverEndpoints;
  }
  /// Returns the worker endpoints in worker order; empty when the source
  /// names none.
  const std::vector<std::string> &workerEndpoints() const {
    return assignment().workerEndpoints;
  }
  /// Returns this process's endpoint: a server's own, a worker's when the
  /// source names it, else "".
  const std::string &currentEndpoint() const { return assignment().endpoint; }

protected:
  /// Reads the role from this role maker's source. The result need not be
  /// canonical: generateRole() checks it with RoleAssignment::canonicalize.
  virtual StatusOr<RoleAssignment> readRole() const = 0;

private:
  std::optional<RoleAssignment> assignment_;
};

/// Returns the role maker the environment calls for: PaddleCloudRoleMaker
/// when TRAINING_ROLE, PADDLE_TRAINING_ROLE or PADDLE_PSERVERS_IP_PORT_LIST
/// is set, TFConfigRoleMaker when TF_CONFIG is set, SlurmRoleMaker when
/// SLURM_PROCID or SLURM_JOB_ID is set. OPENKS_ROLE_MAKER ("paddlecloud",
/// "tfconfig" or "slurm") picks one explicitly. Fails when no source is found,
/// when several are and OPENKS_ROLE_MAKER does not choose, or when
/// OPENKS_ROLE_MAKER is unknown. The role maker is not generated yet.
StatusOr<std::unique_ptr<RoleMaker>>
createRoleMakerFromEnvironment(const Environment &environment);

} // namespace openks::fleet

#endif // OPENKS_FLEET_ROLEMAKER_H
