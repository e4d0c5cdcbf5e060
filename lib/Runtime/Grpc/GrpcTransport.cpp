//===- GrpcTransport.cpp - A trainer's transport over gRPC ----------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "GrpcTransport.h"

#include <future>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

StatusOr<std::shared_ptr<const Tensor>>
PushBuffers::lend(int server, int block, Tensor &value) {
  std::pair<int, int> key(server, block);
  Tensor exchange;
  bool spare = false;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::vector<Tensor> &spares = spares_[key];
    if (!spares.empty()) {
      exchange = std::move(spares.back());
      spares.pop_back();
      spare = exchange.dtype() == value.dtype() &&
              exchange.capacity() >= value.numel();
    }
  }
  if (spare) {
    exchange.resize(value.shape());
  } else {
    StatusOr<Tensor> fresh = Tensor::allocate(value.dtype(), value.shape());
    if (!fresh)
      return fresh.status();
    exchange = std::move(*fresh);
  }
  std::swap(exchange, value);
  // Once sent, the buffer comes back here, if the pool is still there.
  std::weak_ptr<PushBuffers> pool = weak_from_this();
  return std::shared_ptr<const Tensor>(
      new Tensor(std::move(exchange)), [pool, key](const Tensor *sent) {
        std::unique_ptr<Tensor> owned(const_cast<Tensor *>(sent));
        if (std::shared_ptr<PushBuffers> buffers = pool.lock()) {
          std::lock_guard<std::mutex> lock(buffers->mutex_);
          buffers->spares_[key].push_back(std::move(*owned));
        }
      });
}

GrpcTransport::GrpcTransport(std::vector<std::unique_ptr<ServerLink>> links)
    : links_(std::move(links)), buffers_(std::make_shared<PushBuffers>()) {}

StatusOr<ServerLink *> GrpcTransport::getLink(int server) const {
  if (server < 0 || server >= numServers())
    return Status::invalidArgument("there is no server {} (the job has {})",
                                   server, numServers());
  return links_[server].get();
}

Status GrpcTransport::push(int server, int block, MessageKind kind,
                           Tensor &value, int trainer, Deadline deadline) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return link.status();
  StatusOr<std::shared_ptr<const Tensor>> sent =
      buffers_->lend(server, block, value);
  if (!sent)
    return sent.status();
  (*link)->push(block, kind, std::move(*sent), trainer, deadline);
  return Status::ok();
}

Status GrpcTransport::fetch(const std::vector<PullRequest> &requests,
                            int trainer, bool read, Deadline deadline) {
  std::vector<std::vector<PullRequest>> byServer(numServers());
  for (const PullRequest &request : requests) {
    OPENKS_RETURN_IF_ERROR(getLink(request.server).status());
    byServer[request.server].push_back(request);
  }
  std::vector<std::future<Status>> results;
  for (int server = 0; server < numServers(); ++server)
    if (!byServer[server].empty())
      results.push_back(links_[server]->pull(std::move(byServer[server]),
                                             trainer, read, deadline));
  Status first = Status::ok();
  for (std::future<Status> &result : results) {
    Status status = result.get();
    if (first.isOk())
      first = status;
  }
  return first;
}

Status GrpcTransport::pull(int server, int block, Tensor &out, int trainer,
                           Deadline deadline) {
  return fetch({PullRequest{server, block, &out}}, trainer, /*read=*/false,
               deadline);
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

Status GrpcTransport::control(int server, wire::Control call,
                              Deadline deadline, wire::Reply *reply) {
  StatusOr<ServerLink *> link = getLink(server);
  if (!link)
    return link.status();
  return (*link)->control(std::move(call), deadline, reply);
}

/// Returns the control call `kind` of `trainer`.
static wire::Control makeCall(wire::Control::Kind kind, int trainer) {
  wire::Control call;
  call.set_kind(kind);
  call.set_trainer(trainer);
  return call;
}

Status GrpcTransport::sendBarrier(int server, int trainer, Deadline deadline) {
  return control(server, makeCall(wire::Control::SEND_BARRIER, trainer),
                 deadline);
}

Status GrpcTransport::fetchBarrier(int server, int trainer,
                                   Deadline deadline) {
  return control(server, makeCall(wire::Control::FETCH_BARRIER, trainer),
                 deadline);
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
    results.push_back(link->flush());
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
