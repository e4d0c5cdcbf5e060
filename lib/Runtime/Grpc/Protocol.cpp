//===- Protocol.cpp - The parameter-server service over gRPC --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Protocol.h"

#include "Frame.h"

#include <grpc/grpc.h>

#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

const char *grpc_wire::methodPath(Method method) {
  switch (method) {
  case Method::Session:
    return "/openks.ps.ParameterServer/Session";
  case Method::Push:
    return "/openks.ps.ParameterServer/Push";
  case Method::Pull:
    return "/openks.ps.ParameterServer/Pull";
  case Method::Control:
    return "/openks.ps.ParameterServer/Control";
  }
  return "";
}

grpc::internal::RpcMethod::RpcType grpc_wire::methodType(Method method) {
  using RpcMethod = grpc::internal::RpcMethod;
  switch (method) {
  case Method::Session:
    return RpcMethod::BIDI_STREAMING;
  case Method::Push:
    return RpcMethod::CLIENT_STREAMING;
  case Method::Pull:
    return RpcMethod::SERVER_STREAMING;
  case Method::Control:
    return RpcMethod::NORMAL_RPC;
  }
  return RpcMethod::NORMAL_RPC;
}

grpc::internal::RpcMethod grpc_wire::rpcMethod(Method method) {
  return grpc::internal::RpcMethod(methodPath(method), methodType(method));
}

/// The prefix of the error details of a status a server sent on purpose;
/// the runtime code follows it.
static constexpr const char kDetailsPrefix[] = "openks-status:";

static grpc::StatusCode toGrpcCode(StatusCode code) {
  switch (code) {
  case StatusCode::Ok:
    return grpc::StatusCode::OK;
  case StatusCode::InvalidArgument:
    return grpc::StatusCode::INVALID_ARGUMENT;
  case StatusCode::OutOfRange:
    return grpc::StatusCode::OUT_OF_RANGE;
  case StatusCode::NotFound:
    return grpc::StatusCode::NOT_FOUND;
  case StatusCode::DataLoss:
    return grpc::StatusCode::DATA_LOSS;
  case StatusCode::ResourceExhausted:
    return grpc::StatusCode::RESOURCE_EXHAUSTED;
  case StatusCode::FailedPrecondition:
    return grpc::StatusCode::FAILED_PRECONDITION;
  case StatusCode::DeadlineExceeded:
    return grpc::StatusCode::DEADLINE_EXCEEDED;
  case StatusCode::PeerLost:
    return grpc::StatusCode::ABORTED;
  case StatusCode::Cancelled:
    return grpc::StatusCode::CANCELLED;
  case StatusCode::IOError:
  case StatusCode::Internal:
    return grpc::StatusCode::INTERNAL;
  }
  return grpc::StatusCode::UNKNOWN;
}

grpc::Status grpc_wire::toGrpcStatus(const Status &status) {
  if (status.isOk())
    return grpc::Status::OK;
  return grpc::Status(toGrpcCode(status.code()), status.message(),
                      kDetailsPrefix +
                          std::to_string(static_cast<int>(status.code())));
}

Status grpc_wire::fromGrpcStatus(const grpc::Status &status,
                                 const std::string &peer) {
  if (status.ok())
    return Status::ok();
  const std::string &details = status.error_details();
  constexpr size_t prefix = sizeof(kDetailsPrefix) - 1;
  if (details.compare(0, prefix, kDetailsPrefix) == 0) {
    int code = std::atoi(details.c_str() + prefix);
    if (code > 0 && code <= static_cast<int>(StatusCode::Internal))
      return Status::error(static_cast<StatusCode>(code), "{}",
                           status.error_message());
  }
  const std::string &message = status.error_message();
  switch (status.error_code()) {
  case grpc::StatusCode::UNAVAILABLE:
    return Status::error(StatusCode::PeerLost,
                         "{} is lost: it cannot be reached ({})", peer,
                         message);
  case grpc::StatusCode::DEADLINE_EXCEEDED:
    return Status::error(StatusCode::DeadlineExceeded,
                         "{} did not answer in time", peer);
  case grpc::StatusCode::UNAUTHENTICATED:
    return Status::error(StatusCode::FailedPrecondition,
                         "{} refused the call: {}", peer, message);
  case grpc::StatusCode::RESOURCE_EXHAUSTED:
    return Status::error(StatusCode::ResourceExhausted, "{}: {}", peer,
                         message);
  case grpc::StatusCode::CANCELLED:
    return Status::error(StatusCode::Cancelled, "the call to {} was cancelled",
                         peer);
  default:
    return Status::error(StatusCode::PeerLost, "the call to {} failed: {}",
                         peer, message);
  }
}

std::vector<std::pair<std::string, int>>
grpc_wire::channelArguments(std::chrono::milliseconds liveness) {
  int timeout = static_cast<int>(std::max<int64_t>(liveness.count(), 1000));
  return {
      {GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, kMaxMessageBytes},
      {GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, kMaxMessageBytes},
      {GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 16 << 20},
      // A ping every second, also without calls: a silent peer is lost
      // when one goes unanswered for the liveness time.
      {GRPC_ARG_KEEPALIVE_TIME_MS, 1000},
      {GRPC_ARG_KEEPALIVE_TIMEOUT_MS, timeout},
      {GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1},
      {GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0},
      {GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS, 500},
      {GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0},
  };
}

std::chrono::milliseconds
grpc_wire::timeLeft(std::chrono::system_clock::time_point deadline) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - std::chrono::system_clock::now());
  return std::clamp(left, std::chrono::milliseconds(0),
                    std::chrono::milliseconds(std::chrono::hours(24)));
}
