//===- GrpcTransport.h - A trainer's transport over gRPC --------*- C++ -*-===//
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Transport of a trainer whose servers are other processes: one
// ServerLink per server, so that the calls to different servers run at
// once and those to one server in order.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_GRPC_GRPCTRANSPORT_H
#define OPENKS_LIB_RUNTIME_GRPC_GRPCTRANSPORT_H

#include "ServerLink.h"
#include "TensorPool.h"

#include "openks/Runtime/Transport.h"

#include <memory>
#include <vector>

namespace openks::runtime::grpc_wire {

/// A trainer's transport to servers over gRPC.
class GrpcTransport : public Transport {
public:
  /// Talks to the servers through `links`, indexed like the job's servers,
  /// whose sessions are open.
  explicit GrpcTransport(std::vector<std::unique_ptr<ServerLink>> links);

  Status push(int server, int block, MessageKind kind, Tensor &value,
              int trainer, Deadline deadline) override;
  Status pushRows(int server, int block, MessageKind kind, Tensor &rowIds,
                  Tensor &values, int trainer, Deadline deadline) override;
  Status pull(int server, int block, Tensor &out, int trainer,
              Deadline deadline) override;
  Status pullRows(int server, int block, const Tensor &rowIds, Tensor &out,
                  int trainer, Deadline deadline) override;
  Status pullAll(const std::vector<PullRequest> &requests, int trainer,
                 Deadline deadline) override;
  Status read(int server, int block, Tensor &out, Deadline deadline) override;
  Status sendBarrier(int server, int trainer, Deadline deadline) override;
  Status fetchBarrier(int server, int trainer, Deadline deadline) override;
  Status normShare(int server, int norm, double &share, int trainer,
                   Deadline deadline) override;
  Status giveNorm(int server, int norm, double value, int trainer,
                  Deadline deadline) override;
  Status complete(int server, int trainer, Deadline deadline) override;
  void abort(int server, int trainer, const Status &status) override;
  Status flush(int trainer, Deadline deadline) override;
  int numServers() const override { return static_cast<int>(links_.size()); }

private:
  /// Returns the link to `server`, or an error when there is none.
  StatusOr<ServerLink *> getLink(int server) const;
  /// Runs the control call `kind` of `trainer` on `server`.
  Status control(int server, wire::Control call, Deadline deadline,
                 wire::Reply *reply = nullptr);
  /// Queues the barrier `kind` of `trainer` on `server`'s push stream,
  /// without waiting for the server to pass it: every server passes its
  /// barrier at once, and a fetch barrier's round trip overlaps the next
  /// step.
  Status postBarrier(int server, wire::Chunk::Barrier kind, int trainer,
                     Deadline deadline);
  /// Returns `value`'s buffer shared, to be sent, and leaves `value` a
  /// spare buffer of pool key `key` in exchange.
  StatusOr<std::shared_ptr<const Tensor>> exchange(int64_t key, Tensor &value);
  /// Pulls (or reads) `requests` from every server at once.
  Status fetch(const std::vector<PullRequest> &requests, int trainer, bool read,
               Deadline deadline);

  std::vector<std::unique_ptr<ServerLink>> links_;
  /// The buffers of pushed values and row ids, back once sent, by server
  /// and block.
  std::shared_ptr<TensorPool> buffers_;
};

} // namespace openks::runtime::grpc_wire

#endif // OPENKS_LIB_RUNTIME_GRPC_GRPCTRANSPORT_H
