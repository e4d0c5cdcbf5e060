//===- ParameterService.cpp - A parameter server answering over gRPC ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ParameterService.h"

#include "Frame.h"
#include "Protocol.h"

#include "openks/Runtime/Cluster.h"

#include <grpcpp/impl/rpc_service_method.h>
#include <grpcpp/server_context.h>
#include <grpcpp/support/method_handler.h>

#include <fmt/format.h>

#include <cstdio>
#include <optional>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

using grpc::ByteBuffer;
using grpc::internal::RpcServiceMethod;

/// Returns whether `given` equals `expected`, in a time that does not tell
/// how much of it does.
static bool sameToken(grpc::string_ref given, const std::string &expected) {
  unsigned char difference = given.size() != expected.size();
  for (size_t i = 0; i < given.size(); ++i)
    difference |= static_cast<unsigned char>(
        given.data()[i] ^ expected[i % std::max<size_t>(expected.size(), 1)]);
  return difference == 0;
}

/// The keys of the pool's buffers of pulled values and of received row ids
/// (received values are keyed by their block alone).
static constexpr int64_t kPulledKey = int64_t(1) << 32;
static constexpr int64_t kRowIdsKey = int64_t(2) << 32;
static constexpr int64_t kPrefetchIdsKey = int64_t(3) << 32;

/// Returns `count` row ids in a spare tensor of `key` of `pool`, or in a
/// new one; their values are unspecified.
static Tensor takeIds(TensorPool &pool, int64_t key, int64_t count) {
  Tensor ids = pool.take(key);
  if (ids.capacity() == 0 || ids.dtype() != DType::I64)
    return Tensor(DType::I64, Shape{count});
  ids.resize(Shape{count});
  return ids;
}

/// Returns the deadline of `context`'s call as a runtime deadline.
static Deadline callDeadline(const grpc::ServerContext &context) {
  return Deadline::after(timeLeft(context.deadline()));
}

ParameterService::ParameterService(std::shared_ptr<ServerInstance> instance,
                                   std::string token,
                                   std::shared_ptr<WorkerBarrier> barrier)
    : instance_(std::move(instance)), token_(std::move(token)),
      barrier_(std::move(barrier)), buffers_(std::make_shared<TensorPool>()) {
  // The order of the methods is Method's.
  AddMethod(new RpcServiceMethod(
      methodPath(Method::Session), methodType(Method::Session),
      new grpc::internal::BidiStreamingHandler<ParameterService, ByteBuffer,
                                               ByteBuffer>(
          [](ParameterService *service, grpc::ServerContext *context,
             Stream *stream) { return service->session(context, stream); },
          this)));
  AddMethod(new RpcServiceMethod(
      methodPath(Method::Push), methodType(Method::Push),
      new grpc::internal::ClientStreamingHandler<ParameterService, ByteBuffer,
                                                 ByteBuffer>(
          [](ParameterService *service, grpc::ServerContext *context,
             grpc::ServerReader<ByteBuffer> *reader, ByteBuffer *reply) {
            return service->push(context, reader, reply);
          },
          this)));
  AddMethod(new RpcServiceMethod(
      methodPath(Method::Pull), methodType(Method::Pull),
      new grpc::internal::ServerStreamingHandler<ParameterService, ByteBuffer,
                                                 ByteBuffer>(
          [](ParameterService *service, grpc::ServerContext *context,
             const ByteBuffer *request,
             grpc::ServerWriter<ByteBuffer> *writer) {
            return service->pull(context, request, writer);
          },
          this)));
  AddMethod(new RpcServiceMethod(
      methodPath(Method::Control), methodType(Method::Control),
      new grpc::internal::RpcMethodHandler<ParameterService, ByteBuffer,
                                           ByteBuffer>(
          [](ParameterService *service, grpc::ServerContext *context,
             const ByteBuffer *request, ByteBuffer *reply) {
            return service->control(context, request, reply);
          },
          this)));
}

const std::string &ParameterService::name() const {
  return instance_->server().config().name;
}

grpc::Status ParameterService::admit(const grpc::ServerContext &context,
                                     const char *method) {
  const auto &metadata = context.client_metadata();
  auto token = metadata.find(kTokenKey);
  const char *why = nullptr;
  if (token == metadata.end())
    why = "it carries no job token";
  else if (!sameToken(token->second, token_))
    why = "it carries another job's token";
  if (!why)
    return grpc::Status::OK;
  std::fprintf(stderr, "%s\n",
               fmt::format("openks: {}: refused a call to {} from {}: {}",
                           name(), method, context.peer(), why)
                   .c_str());
  return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                      fmt::format("{}: {}; every role of a job must have its "
                                  "token in OPENKS_JOB_TOKEN",
                                  name(), why));
}

grpc::Status ParameterService::session(grpc::ServerContext *context,
                                       Stream *stream) {
  if (grpc::Status admitted = admit(*context, "Session"); !admitted.ok())
    return admitted;
  ByteBuffer message;
  FrameReader frame;
  wire::Hello hello;
  if (!stream->Read(&message))
    return grpc::Status::CANCELLED;
  if (Status status = frame.open(message, hello); !status.isOk())
    return toGrpcStatus(status);
  const JobSpec &job = instance_->job();
  if (hello.trainer() < 0 || hello.trainer() >= job.trainers)
    return toGrpcStatus(
        Status::invalidArgument("{}: there is no trainer {} (the job has {})",
                                name(), hello.trainer(), job.trainers));
  if (hello.server() != instance_->index())
    return toGrpcStatus(
        Status::invalidArgument("{} is server {} of its job, not server {}",
                                name(), instance_->index(), hello.server()));
  if (Status same = checkSameJob(instance_->endpoint(), job.fingerprint,
                                 hello.fingerprint());
      !same.isOk())
    return toGrpcStatus(same);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (shuttingDown_)
      return grpc::Status::CANCELLED;
    sessions_.insert(context);
  }
  // The session stays open while the trainer lives; it ends with a goodbye.
  bool goodbye = false;
  if (stream->Write(encodeFrame(wire::Reply())))
    while (!goodbye && stream->Read(&message)) {
      wire::Hello next;
      goodbye = frame.open(message, next).isOk() && next.goodbye();
    }
  bool shuttingDown;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    sessions_.erase(context);
    shuttingDown = shuttingDown_;
  }
  // A goodbye from a trainer that has not finished (its transport destroyed
  // before it completed) loses it all the same.
  if (goodbye)
    instance_->server().lose(
        hello.trainer(),
        Status::error(StatusCode::PeerLost,
                      "it said goodbye before it finished (its transport "
                      "was destroyed without Fleet::stopWorker)"));
  else if (!shuttingDown)
    instance_->server().lose(
        hello.trainer(),
        Status::error(StatusCode::PeerLost,
                      "its connection closed without a goodbye (its process "
                      "ended, or the network failed)"));
  return goodbye ? grpc::Status::OK : grpc::Status::CANCELLED;
}

void ParameterService::beginShutdown() {
  std::lock_guard<std::mutex> lock(mutex_);
  shuttingDown_ = true;
  for (grpc::ServerContext *session : sessions_)
    session->TryCancel();
}

grpc::Status ParameterService::push(grpc::ServerContext *context,
                                    grpc::ServerReader<ByteBuffer> *reader,
                                    ByteBuffer *reply) {
  if (grpc::Status admitted = admit(*context, "Push"); !admitted.ok())
    return admitted;
  ParameterServer &server = instance_->server();
  ByteBuffer message;
  FrameReader frame;
  TensorAssembler assembler;
  wire::Chunk chunk;
  Tensor value;
  // The row ids of the next value, once a row-sparse push has sent them.
  Tensor rowIds;
  std::optional<int32_t> rowIdsBlock;
  while (reader->Read(&message)) {
    if (Status status = frame.open(message, chunk); !status.isOk())
      return toGrpcStatus(status);
    if (chunk.barrier() != wire::Chunk::NONE && assembler.complete()) {
      if (rowIdsBlock)
        return toGrpcStatus(Status::dataLoss(
            "{}: a barrier came between the row ids and the rows of block {}",
            name(), *rowIdsBlock));
      Deadline deadline = callDeadline(*context);
      if (Status status = chunk.barrier() == wire::Chunk::SEND
                              ? server.sendBarrier(chunk.trainer(), deadline)
                              : server.fetchBarrier(chunk.trainer(), deadline);
          !status.isOk())
        return toGrpcStatus(status);
      continue;
    }
    auto kind = static_cast<MessageKind>(chunk.kind());
    if (chunk.kind() < 0 || chunk.kind() > static_cast<int>(MessageKind::Param))
      return toGrpcStatus(Status::dataLoss(
          "{}: a push of an unknown kind {} arrived", name(), chunk.kind()));
    std::string what =
        fmt::format("{}: trainer {}'s {} for block {}", name(), chunk.trainer(),
                    describeMessageKind(kind), chunk.block());
    if (chunk.row_ids()) {
      // The ids of a row-sparse push; its rows follow.
      if (assembler.complete())
        rowIds = buffers_->take(kRowIdsKey | uint32_t(chunk.block()));
      Status status = assembler.add(
          chunk, frame, rowIds,
          [&](DType dtype, const Shape &shape) {
            if (dtype == DType::I64 && shape.rank() == 1)
              return Status::ok();
            return Status::dataLoss("{}: row ids of {}", what,
                                    typeString(dtype, shape));
          },
          what);
      if (!status.isOk())
        return toGrpcStatus(status);
      if (assembler.complete())
        rowIdsBlock = chunk.block();
      continue;
    }
    if (rowIdsBlock && *rowIdsBlock != chunk.block())
      return toGrpcStatus(
          Status::dataLoss("{}: the row ids of block {} came with the rows of "
                           "block {}",
                           name(), *rowIdsBlock, chunk.block()));
    // A value is received into a spare buffer of its block.
    if (assembler.complete())
      value = buffers_->take(chunk.block());
    Status status = assembler.add(
        chunk, frame, value,
        [&](DType dtype, const Shape &shape) {
          return server.checkPush(chunk.block(), kind, dtype, shape,
                                  chunk.trainer(), rowIdsBlock.has_value());
        },
        what);
    if (status.isOk() && assembler.complete()) {
      Deadline deadline = callDeadline(*context);
      status = rowIdsBlock ? server.pushRows(chunk.block(), kind, rowIds, value,
                                             chunk.trainer(), deadline)
                           : server.push(chunk.block(), kind, value,
                                         chunk.trainer(), deadline);
      // The server may have left its previous buffers in exchange.
      buffers_->give(chunk.block(), std::move(value));
      if (rowIdsBlock)
        buffers_->give(kRowIdsKey | uint32_t(chunk.block()), std::move(rowIds));
      rowIdsBlock.reset();
    }
    if (!status.isOk())
      return toGrpcStatus(status);
  }
  if (!assembler.complete() || rowIdsBlock)
    return toGrpcStatus(Status::dataLoss("{}: a push of block {} was cut off",
                                         name(), chunk.block()));
  *reply = encodeFrame(wire::Reply());
  return grpc::Status::OK;
}

grpc::Status ParameterService::pull(grpc::ServerContext *context,
                                    const ByteBuffer *request,
                                    grpc::ServerWriter<ByteBuffer> *writer) {
  if (grpc::Status admitted = admit(*context, "Pull"); !admitted.ok())
    return admitted;
  wire::Blocks blocks;
  FrameReader frame;
  if (Status status = frame.open(*request, blocks); !status.isOk())
    return toGrpcStatus(status);
  // The row ids of a prefetch follow the header.
  bool prefetch = blocks.rows_size() > 0;
  if (prefetch && blocks.rows_size() != blocks.blocks_size())
    return toGrpcStatus(Status::dataLoss(
        "{}: a prefetch gives row counts of {} blocks for {} blocks", name(),
        blocks.rows_size(), blocks.blocks_size()));
  int64_t idsTotal = 0;
  for (int64_t count : blocks.rows())
    idsTotal += std::max<int64_t>(count, 0);
  if (frame.payloadSize() != static_cast<size_t>(idsTotal) * sizeof(int64_t))
    return toGrpcStatus(Status::dataLoss(
        "{}: a pull request carries {} bytes of row ids for {} rows", name(),
        frame.payloadSize(), idsTotal));
  // Every block's ids, then each block's, in buffers kept for the next
  // request.
  Tensor ids = takeIds(*buffers_, kPrefetchIdsKey, idsTotal);
  frame.copyPayload(ids.data<int64_t>());
  ParameterServer &server = instance_->server();
  int64_t idsBegin = 0;
  for (int index = 0; index < blocks.blocks_size(); ++index) {
    int32_t block = blocks.blocks(index);
    // Sent from a spare buffer of the block, which comes back once sent.
    Tensor value = buffers_->take(kPulledKey | uint32_t(block));
    Status status = Status::ok();
    if (prefetch && blocks.rows(index) >= 0) {
      Tensor rowIds =
          takeIds(*buffers_, kRowIdsKey | uint32_t(block), blocks.rows(index));
      std::copy_n(ids.data<int64_t>() + idsBegin, blocks.rows(index),
                  rowIds.data<int64_t>());
      idsBegin += blocks.rows(index);
      status = server.pullRows(block, rowIds, value, blocks.trainer());
      buffers_->give(kRowIdsKey | uint32_t(block), std::move(rowIds));
    } else {
      status = blocks.read() ? server.read(block, value)
                             : server.pull(block, value, blocks.trainer(),
                                           callDeadline(*context));
    }
    if (!status.isOk())
      return toGrpcStatus(status);
    wire::Chunk chunk;
    chunk.set_block(block);
    if (!sendTensor(
            chunk,
            buffers_->share(kPulledKey | uint32_t(block), std::move(value)),
            [&](ByteBuffer frame) { return writer->Write(frame); }))
      return grpc::Status::CANCELLED;
  }
  buffers_->give(kPrefetchIdsKey, std::move(ids));
  return grpc::Status::OK;
}

grpc::Status ParameterService::control(grpc::ServerContext *context,
                                       const ByteBuffer *request,
                                       ByteBuffer *reply) {
  if (grpc::Status admitted = admit(*context, "Control"); !admitted.ok())
    return admitted;
  wire::Control call;
  FrameReader frame;
  if (Status status = frame.open(*request, call); !status.isOk())
    return toGrpcStatus(status);
  ParameterServer &server = instance_->server();
  Deadline deadline = callDeadline(*context);
  wire::Reply answer;
  Status status = Status::ok();
  switch (call.kind()) {
  case wire::Control::NORM_SHARE: {
    double share = 0;
    status = server.normShare(call.norm(), share, call.trainer(), deadline);
    answer.set_value(share);
    break;
  }
  case wire::Control::GIVE_NORM:
    status =
        server.giveNorm(call.norm(), call.value(), call.trainer(), deadline);
    break;
  case wire::Control::COMPLETE:
    status = server.complete(call.trainer());
    break;
  case wire::Control::ABORT: {
    int code = call.code();
    if (code <= 0 || code > static_cast<int>(StatusCode::Internal))
      code = static_cast<int>(StatusCode::Internal);
    server.abort(call.trainer(), Status::error(static_cast<StatusCode>(code),
                                               "{}", call.message()));
    break;
  }
  case wire::Control::WORKER_BARRIER:
    status = barrier_
                 ? barrier_->arrive(call.trainer(), call.workers(), deadline)
                 : Status::error(StatusCode::FailedPrecondition,
                                 "{} keeps no worker barrier (server 0 "
                                 "does)",
                                 name());
    break;
  default:
    status = Status::dataLoss("{}: a call of unknown kind {} arrived", name(),
                              static_cast<int>(call.kind()));
  }
  if (!status.isOk())
    return toGrpcStatus(status);
  *reply = encodeFrame(answer);
  return grpc::Status::OK;
}
