//===- InProcessCluster.h - Roles of one job meeting in a process -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Where the roles of one job find each other when each is a thread of this
// process and each was set up on its own (as the Fleet API sets up one role
// per call of its user's program): a server, once it serves, is published
// under its endpoint; a trainer connects to the endpoints its job names,
// waiting until each is published, and meets the other trainers at worker
// barriers. Every wait has a deadline, and a role that fails can abort the
// cluster, which wakes every waiter with its error.
//
// A published server is kept alive by the cluster, so that trainers may call
// it until the cluster itself is destroyed, whatever becomes of the role
// that published it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_INPROCESSCLUSTER_H
#define OPENKS_RUNTIME_INPROCESSCLUSTER_H

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/ServerRole.h"
#include "openks/Runtime/Transport.h"

#include <chrono>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace openks::runtime {

/// One server of a loaded job: its program and the protocol that serves it,
/// sharing ownership of the job they run.
class ServerInstance {
public:
  /// Makes server `index` of `job`, whose trainers it waits for at most
  /// `timeout`. Fails when a buffer cannot be allocated.
  static StatusOr<std::shared_ptr<ServerInstance>>
  create(std::shared_ptr<JobSpec> job, int index,
         std::chrono::milliseconds timeout);

  ServerRole &role() { return *role_; }
  const ServerRole &role() const { return *role_; }
  ParameterServer &server() { return *server_; }
  const ParameterServer &server() const { return *server_; }
  const std::string &endpoint() const { return role_->spec().endpoint; }

private:
  ServerInstance() = default;

  std::shared_ptr<JobSpec> job_;
  std::unique_ptr<ServerRole> role_;
  std::unique_ptr<ParameterServer> server_;
};

/// The meeting point of the roles of one job in this process.
class InProcessCluster {
public:
  /// Publishes `server` under its endpoint; fails when the endpoint is
  /// taken or the cluster was aborted.
  Status publish(std::shared_ptr<ServerInstance> server);

  /// Returns a transport to the servers at `endpoints` (in the job's server
  /// order) once every one is published; at `deadline`, fails naming those
  /// that never came.
  StatusOr<std::unique_ptr<Transport>>
  connect(const std::vector<std::string> &endpoints, Deadline deadline);

  /// Returns the server published under `endpoint`, or NotFound.
  StatusOr<std::shared_ptr<ServerInstance>>
  find(const std::string &endpoint) const;

  /// Waits until each of `workers` trainers has called it once more (a
  /// barrier of all workers); at `deadline`, fails naming those that did
  /// not come.
  Status workerBarrier(int worker, int workers, Deadline deadline);

  /// Fails every present and future wait with `status` (the first abort
  /// wins), and every published server, so that no role waits for one that
  /// has failed.
  void abort(const Status &status);

private:
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  Status failure_ = Status::ok();
  std::map<std::string, std::shared_ptr<ServerInstance>> servers_;
  /// The workers waiting at the current worker barrier.
  std::set<int> arrived_;
  /// How many worker barriers have opened.
  int64_t generation_ = 0;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_INPROCESSCLUSTER_H
