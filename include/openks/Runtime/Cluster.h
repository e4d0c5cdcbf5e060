//===- Cluster.h - Where the roles of a job meet ----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the roles of one job share beyond the pushes and pulls of the
// Transport: servers make themselves reachable (publish), trainers connect
// to them and meet each other at worker barriers, and any role can abort
// the job, which ends every wait of every role with its error. Every wait
// has a deadline. No role reads another role's memory: what a role needs of
// another (a checkpoint gathers every server's blocks) goes through the
// transport.
//
// InProcessCluster.h is the cluster of a job whose roles are threads of one
// process; a gRPC cluster carries the same calls between processes.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_CLUSTER_H
#define OPENKS_RUNTIME_CLUSTER_H

#include "openks/Runtime/ServerInstance.h"
#include "openks/Runtime/Transport.h"

#include <memory>
#include <string>
#include <vector>

namespace openks::runtime {

/// The meeting point of the roles of one job.
class Cluster {
public:
  virtual ~Cluster();

  /// Makes `server` reachable at its endpoint by the job's trainers, until
  /// the cluster is destroyed; fails when the endpoint is taken or the job
  /// has been aborted.
  virtual Status publish(std::shared_ptr<ServerInstance> server) = 0;

  /// Returns trainer `trainer`'s transport to the servers of `job` once
  /// every one is reachable; at `deadline`, fails naming those that never
  /// came. Fails when a server runs another job (another fingerprint).
  virtual StatusOr<std::unique_ptr<Transport>>
  connect(const JobSpec &job, int trainer, Deadline deadline) = 0;

  /// Waits until each of `workers` trainers has called it once more (a
  /// barrier of all workers); at `deadline`, fails naming those that did
  /// not come.
  virtual Status workerBarrier(int worker, int workers, Deadline deadline) = 0;

  /// Fails every present and future wait of every role of the job with
  /// `status` (the first abort wins): the cluster's own waits and those of
  /// every server it reaches.
  virtual void abort(const Status &status) = 0;
};

/// Returns an error when the server at `endpoint`, which runs the job of
/// fingerprint `serverJob`, is not of the trainer's job `trainerJob`.
Status checkSameJob(const std::string &endpoint, uint64_t serverJob,
                    uint64_t trainerJob);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_CLUSTER_H
