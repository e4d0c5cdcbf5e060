//===- InProcessCluster.h - Roles of one job meeting in a process -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cluster of a job whose roles are threads of this process, each set up
// on its own (as the Fleet API sets up one role per call of its user's
// program): a server, once it serves, is published under its endpoint; a
// trainer connects to the endpoints its job names, waiting until each is
// published, and meets the other trainers at worker barriers. Aborting the
// cluster wakes every waiter with its error and cancels every published
// server.
//
// A published server is kept alive by the cluster, so that trainers may call
// it until the cluster itself is destroyed, whatever becomes of the role
// that published it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_INPROCESSCLUSTER_H
#define OPENKS_RUNTIME_INPROCESSCLUSTER_H

#include "openks/Runtime/Cluster.h"
#include "openks/Runtime/WorkerBarrier.h"

#include <condition_variable>
#include <map>
#include <mutex>

namespace openks::runtime {

/// The meeting point of the roles of one job in this process.
class InProcessCluster : public Cluster {
public:
  Status publish(std::shared_ptr<ServerInstance> server) override;
  StatusOr<std::unique_ptr<Transport>>
  connect(const JobSpec &job, int trainer, Deadline deadline) override;
  Status workerBarrier(int worker, int workers, Deadline deadline) override;
  void abort(const Status &status) override;

private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Status failure_ = Status::ok();
  std::map<std::string, std::shared_ptr<ServerInstance>> servers_;
  WorkerBarrier barrier_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_INPROCESSCLUSTER_H
