//===- ParameterService.h - A server answering over gRPC --------*- C++ -*-===//
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The gRPC service of one server process: every call is checked for the
// job's token, then handed to the same ParameterServer the in-process
// transport calls. Server 0's service also keeps the job's worker barrier.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_GRPC_PARAMETERSERVICE_H
#define OPENKS_LIB_RUNTIME_GRPC_PARAMETERSERVICE_H

#include "TensorPool.h"

#include "openks/Runtime/ServerInstance.h"
#include "openks/Runtime/WorkerBarrier.h"

#include <grpcpp/impl/service_type.h>
#include <grpcpp/support/byte_buffer.h>
#include <grpcpp/support/sync_stream.h>

#include <memory>
#include <mutex>
#include <set>
#include <string>

namespace openks::runtime::grpc_wire {

/// The parameter-server service of one server.
class ParameterService final : public grpc::Service {
public:
  /// Serves `instance` to callers that present `token`; `barrier`, when not
  /// null, is the job's worker barrier (server 0's).
  ParameterService(std::shared_ptr<ServerInstance> instance, std::string token,
                   std::shared_ptr<WorkerBarrier> barrier);

  /// Ends the trainers' sessions: from now on, a session that ends is the
  /// server's doing (it is shutting down), not a lost trainer.
  void beginShutdown();

private:
  using Stream = grpc::ServerReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>;

  grpc::Status session(grpc::ServerContext *context, Stream *stream);
  grpc::Status push(grpc::ServerContext *context,
                    grpc::ServerReader<grpc::ByteBuffer> *reader,
                    grpc::ByteBuffer *reply);
  grpc::Status pull(grpc::ServerContext *context,
                    const grpc::ByteBuffer *request,
                    grpc::ServerWriter<grpc::ByteBuffer> *writer);
  grpc::Status control(grpc::ServerContext *context,
                       const grpc::ByteBuffer *request,
                       grpc::ByteBuffer *reply);

  /// Checks the call's token; a refusal is logged to stderr.
  grpc::Status admit(const grpc::ServerContext &context, const char *method);
  /// Returns the server's name in messages.
  const std::string &name() const;

  std::shared_ptr<ServerInstance> instance_;
  std::string token_;
  std::shared_ptr<WorkerBarrier> barrier_;
  /// The buffers values are received into and sent from, by block.
  std::shared_ptr<TensorPool> buffers_;
  std::mutex mutex_;
  bool shuttingDown_ = false;
  /// The contexts of the sessions under way.
  std::set<grpc::ServerContext *> sessions_;
};

} // namespace openks::runtime::grpc_wire

#endif // OPENKS_LIB_RUNTIME_GRPC_PARAMETERSERVICE_H
