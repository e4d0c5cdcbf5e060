//===- InProcessTransport.h - Servers and trainers as threads ---*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transport of a job whose servers and trainers are threads of one
// process: a call is a call of the server object, in the trainer's thread.
// A push hands the trainer's buffer over (a sync server takes it as the
// step's sum, an async server updates from it in place) and a pull copies
// the block's current value under the block's lock: no copy is made that
// the protocol does not need. A sync job's only trainer with one server
// applies the server's updates in its own thread (see
// ParameterServer::sendBarrier).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_INPROCESSTRANSPORT_H
#define OPENKS_RUNTIME_INPROCESSTRANSPORT_H

#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/Transport.h"

#include <vector>

namespace openks::runtime {

/// Calls the servers of the same process directly.
class InProcessTransport : public Transport {
public:
  /// Talks to `servers`, indexed like the job's endpoints; they must
  /// outlive the transport.
  explicit InProcessTransport(std::vector<ParameterServer *> servers)
      : servers_(std::move(servers)) {}

  Status push(int server, int block, MessageKind kind, Tensor &value,
              int trainer, Deadline deadline) override;
  Status pushRows(int server, int block, MessageKind kind, Tensor &rowIds,
                  Tensor &values, int trainer, Deadline deadline) override;
  Status pull(int server, int block, Tensor &out, int trainer,
              Deadline deadline) override;
  Status pullRows(int server, int block, const Tensor &rowIds, Tensor &out,
                  int trainer, Deadline deadline) override;
  Status read(int server, int block, Tensor &out, Deadline deadline) override;
  Status sendBarrier(int server, int trainer, Deadline deadline) override;
  Status fetchBarrier(int server, int trainer, Deadline deadline) override;
  Status normShare(int server, int norm, double &share, int trainer,
                   Deadline deadline) override;
  Status giveNorm(int server, int norm, double value, int trainer,
                  Deadline deadline) override;
  Status complete(int server, int trainer, Deadline deadline) override;
  void abort(int server, int trainer, const Status &status) override;
  Tensor *sharedBlock(int server, int block) override;
  int numServers() const override { return static_cast<int>(servers_.size()); }

private:
  /// Returns server `index`, or an error when there is none.
  StatusOr<ParameterServer *> getServer(int index) const;

  std::vector<ParameterServer *> servers_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_INPROCESSTRANSPORT_H
