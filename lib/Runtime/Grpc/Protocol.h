//===- Protocol.h - The parameter-server service over gRPC ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The methods of the service each server process offers its trainers, the
// metadata every call carries, and how a runtime Status crosses the wire.
//
// The service is written against gRPC's generic ByteBuffer messages, not
// generated from a service definition: generated stubs serialize whole
// protobuf messages, which would copy every tensor into one. Its messages
// are frames (Frame.h).
//
//   Session (bidi)   a trainer's Hello, answered once its job's fingerprint
//                    matches; the stream's end without a goodbye tells the
//                    server the trainer is lost
//   Push (client)    Blocks{trainer}, then the chunks of a step's pushes
//   Pull (server)    Blocks{trainer, blocks, read} answered with the chunks
//                    of each block, in order
//   Control (unary)  barriers, norms, complete, abort, the worker barrier
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_GRPC_PROTOCOL_H
#define OPENKS_LIB_RUNTIME_GRPC_PROTOCOL_H

#include "openks/Support/Status.h"

#include <grpcpp/impl/rpc_method.h>
#include <grpcpp/support/status.h>

#include <chrono>
#include <string>
#include <utility>
#include <vector>

namespace openks::runtime::grpc_wire {

/// The service's methods.
enum class Method { Session, Push, Pull, Control };

/// Returns the method's path, "/openks.ps.ParameterServer/Push".
const char *methodPath(Method method);
/// Returns the method's kind of call.
grpc::internal::RpcMethod::RpcType methodType(Method method);
/// Returns the description of the method that gRPC's calls take.
grpc::internal::RpcMethod rpcMethod(Method method);

/// The metadata key of the job token.
inline constexpr const char kTokenKey[] = "openks-token";

/// Returns `status` as a gRPC status that fromGrpcStatus turns back into it.
grpc::Status toGrpcStatus(const Status &status);

/// Returns the runtime status a call to `peer` ("server 1 at
/// 127.0.0.1:6171") ended with: the server's own when it sent one, else a
/// failure of the call itself (PeerLost when the peer cannot be reached).
Status fromGrpcStatus(const grpc::Status &status, const std::string &peer);

/// Returns the channel arguments both ends use: message sizes for chunks,
/// and keepalive pings every second that find a dead peer within
/// `liveness`.
std::vector<std::pair<std::string, int>>
channelArguments(std::chrono::milliseconds liveness);

/// Returns the time left until `deadline` of a gRPC context (capped to a
/// day: gRPC's "no deadline" is far in the future).
std::chrono::milliseconds
timeLeft(std::chrono::system_clock::time_point deadline);

} // namespace openks::runtime::grpc_wire

#endif // OPENKS_LIB_RUNTIME_GRPC_PROTOCOL_H
