//===- GrpcTransport.cpp - A trainer's transport over gRPC ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "GrpcTransport.h"

#include <future>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

GrpcTransport::GrpcTransport(std::vector<std::unique_ptr<ServerLink>> links)
    : links_(std::move(links)), buffers_(std::make_shared<TensorPool>()) {}

StatusOr<ServerLink *> GrpcTransport::getLink(int server) const {
  if (server < 0 || server >= numServers())
    return Status::invalidArgument("there is no server {} (the job has {})",
                                   server, numServers());
  return links_[server].get();
}

/// Returns the pool key of the pushed values of `block` on `server`, or of
/// their row ids.
static int64_t pushKey(int server, int block, bool rowIds) {
  return int64_t(rowIds) << 62 | int64_t(server) << 32 | uint32_t(block);
}

StatusOr<std::shared_ptr<const Tensor>> GrpcTransport::exchange(int64_t key,
                                                                Tensor &value) {
  // The value goes as it is; the trainer gets a spare buffer in exchange.
  StatusOr<Tensor> spare = buffers_->takeLike(key, value);
  if (!spare)
    return spare.status();
  std::swap(*spare, value);
  return buffers_->share(key, std::move(*spare));
}

Status GrpcTransport::push(int server, int block, MessageKind kind,
                           Tensor &value, int trainer, Deadline deadline) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return link.status();
  StatusOr<std::shared_ptr<const Tensor>> sent =
      exchange(pushKey(server, block, false), value);
  if (!sent)
    return sent.status();
  (*link)->push(block, kind, std::move(*sent), nullptr, trainer, deadline);
  return Status::ok();
}

Status GrpcTransport::pushRows(int server, int block, MessageKind kind,
                               Tensor &rowIds, Tensor &values, int trainer,
                               Deadline deadline) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return link.status();
  StatusOr<std::shared_ptr<const Tensor>> sentIds =
      exchange(pushKey(server, block, true), rowIds);
  if (!sentIds)
    return sentIds.status();
  StatusOr<std::shared_ptr<const Tensor>> sentValues =
      exchange(pushKey(server, block, false), values);
  if (!sentValues)
    return sentValues.status();
  (*link)->push(block, kind, std::move(*sentValues), std::move(*sentIds),
                trainer, deadline);
  return Status::ok();
}

Status GrpcTransport::fetch(const std::vector<PullRequest> &requests,
                            int trainer, bool read, Deadline deadline) {
  std::vector<std::vector<PullRequest>> byServer(numServers());
  for (const PullRequest &request : requests) {
    OPENKS_RETURN_IF_ERROR(getLink(request.server).status());
    byServer[request.server].push_back(request);
  }
  // Every server's blocks at once: the last server's in this thread, the
  // others' in their links' threads.
  std::vector<int> servers;
  for (int server = 0; server < numServers(); ++server)
    if (!byServer[server].empty())
      servers.push_back(server);
  std::vector<std::future<Status>> results;
  for (size_t i = 0; i + 1 < servers.size(); ++i) {
    ServerLink *link = links_[servers[i]].get();
    results.push_back(link->submit(
        [link, requests = std::move(byServer[servers[i]]), trainer, read,
         deadline] { return link->pull(requests, trainer, read, deadline); }));
  }
  Status last = Status::ok();
  if (!servers.empty()) {
    ServerLink *link = links_[servers.back()].get();
    const std::vector<PullRequest> &blocks = byServer[servers.back()];
    last =
        link->call([&] { return link->pull(blocks, trainer, read, deadline); });
  }
  // The first failure in server order.
  for (std::future<Status> &result : results)
    if (Status status = result.get(); !status.isOk())
      return status;
  return last;
}

Status GrpcTransport::pull(int server, int block, Tensor &out, int trainer,
                           Deadline deadline) {
  return fetch({PullRequest{server, block, &out}}, trainer, /*read=*/false,
               deadline);
}

Status GrpcTransport::pullRows(int server, int block, const Tensor &rowIds,
                               Tensor &out, int trainer, Deadline deadline) {
  return fetch({PullRequest{server, block, &out, &rowIds}}, trainer,
               /*read=*/false, deadline);
}

Status GrpcTransport::pullAll(const std::vector<PullRequest> &requests,
                              int trainer, Deadline deadline) {
  return fetch(requests, trainer, /*read=*/false, deadline);
}

Status GrpcTransport::read(int server, int block, Tensor &out,
                           Deadline deadline) {
  return fetch({PullRequest{server, block, &out}}, /*trainer=*/0,
               /*read=*/true, deadline);
}

Status GrpcTransport::control(int server, wire::Control call, Deadline deadline,
                              wire::Reply *reply) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return link.status();
  ServerLink *target = *link;
  return target->call([&] { return target->control(call, deadline, reply); });
}

/// Returns the control call `kind` of `trainer`.
static wire::Control makeCall(wire::Control::Kind kind, int trainer) {
  wire::Control call;
  call.set_kind(kind);
  call.set_trainer(trainer);
  return call;
}

Status GrpcTransport::postBarrier(int server, wire::Chunk::Barrier kind,
                                  int trainer, Deadline deadline) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return link.status();
  (*link)->postBarrier(kind, trainer, deadline);
  return Status::ok();
}

Status GrpcTransport::sendBarrier(int server, int trainer, Deadline deadline) {
  return postBarrier(server, wire::Chunk::SEND, trainer, deadline);
}

Status GrpcTransport::fetchBarrier(int server, int trainer, Deadline deadline) {
  return postBarrier(server, wire::Chunk::FETCH, trainer, deadline);
}

Status GrpcTransport::normShare(int server, int norm, double &share,
                                int trainer, Deadline deadline) {
  wire::Control call = makeCall(wire::Control::NORM_SHARE, trainer);
  call.set_norm(norm);
  wire::Reply reply;
  OPENKS_RETURN_IF_ERROR(control(server, call, deadline, &reply));
  share = reply.value();
  return Status::ok();
}

Status GrpcTransport::giveNorm(int server, int norm, double value, int trainer,
                               Deadline deadline) {
  wire::Control call = makeCall(wire::Control::GIVE_NORM, trainer);
  call.set_norm(norm);
  call.set_value(value);
  return control(server, call, deadline);
}

Status GrpcTransport::complete(int server, int trainer, Deadline deadline) {
  return control(server, makeCall(wire::Control::COMPLETE, trainer), deadline);
}

Status GrpcTransport::flush(int, Deadline) {
  std::vector<std::future<Status>> results;
  for (const std::unique_ptr<ServerLink> &link : links_)
    results.push_back(
        link->submit([target = link.get()] { return target->flushPushes(); }));
  Status first = Status::ok();
  for (std::future<Status> &result : results)
    if (Status status = result.get(); first.isOk())
      first = status;
  return first;
}

void GrpcTransport::abort(int server, int trainer, const Status &status) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return;
  wire::Control call = makeCall(wire::Control::ABORT, trainer);
  call.set_code(static_cast<int32_t>(status.code()));
  call.set_message(status.message());
  // Past the queue, with a short deadline: the server may be the one that
  // failed.
  (void)(*link)->controlNow(call,
                            Deadline::after(std::chrono::milliseconds(2000)));
}
