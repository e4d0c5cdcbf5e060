//===- ServerLink.cpp - A trainer's connection to one server --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ServerLink.h"

#include "Frame.h"
#include "Protocol.h"

#include <grpcpp/impl/client_unary_call.h>

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

using grpc::ByteBuffer;

/// Returns `deadline` on the system clock, as gRPC takes it.
static std::chrono::system_clock::time_point systemTime(Deadline deadline) {
  return std::chrono::system_clock::now() +
         std::chrono::duration_cast<std::chrono::system_clock::duration>(
             deadline.when() - Deadline::Clock::now());
}

ServerLink::ServerLink(int server, std::string endpoint,
                       std::shared_ptr<grpc::Channel> channel,
                       std::string token)
    : server_(server), endpoint_(std::move(endpoint)),
      peer_(fmt::format("server {} at {}", server, endpoint_)),
      channel_(std::move(channel)), token_(std::move(token)) {}

ServerLink::~ServerLink() {
  if (thread_) {
    // The goodbye goes after the calls queued.
    enqueue([this] {
      (void)flushPushes();
      if (!session_)
        return;
      wire::Hello goodbye;
      goodbye.set_goodbye(true);
      if (session_->Write(encodeFrame(goodbye)))
        session_->WritesDone();
      else
        sessionContext_->TryCancel();
      (void)session_->Finish();
    });
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
      changed_.notify_all();
    }
    thread_->join();
  }
}

std::unique_ptr<grpc::ClientContext>
ServerLink::makeContext(Deadline deadline) const {
  auto context = std::make_unique<grpc::ClientContext>();
  context->AddMetadata(kTokenKey, token_);
  context->set_deadline(systemTime(deadline));
  return context;
}

Status ServerLink::open(int trainer, uint64_t fingerprint, Deadline deadline) {
  if (!channel_->WaitForConnected(systemTime(deadline)))
    return Status::error(StatusCode::DeadlineExceeded, "{}", endpoint_);
  // The session has no deadline: it lasts as long as the trainer. Its
  // answer must come in time all the same.
  sessionContext_ = makeContext(Deadline::after(std::chrono::hours(24 * 365)));
  session_.reset(
      grpc::internal::ClientReaderWriterFactory<ByteBuffer, ByteBuffer>::Create(
          channel_.get(), rpcMethod(Method::Session), sessionContext_.get()));
  wire::Hello hello;
  hello.set_trainer(trainer);
  hello.set_fingerprint(fingerprint);
  hello.set_server(server_);
  std::mutex mutex;
  std::condition_variable answered;
  bool done = false;
  StatusOr<Thread> watchdog =
      Thread::start(fmt::format("session with {}", peer_), [&] {
        std::unique_lock<std::mutex> lock(mutex);
        if (!answered.wait_until(lock, deadline.when(), [&] { return done; }))
          sessionContext_->TryCancel();
      });
  if (!watchdog)
    return watchdog.status();
  ByteBuffer reply;
  bool accepted = session_->Write(encodeFrame(hello)) && session_->Read(&reply);
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
    answered.notify_all();
  }
  watchdog->join();
  if (!accepted) {
    Status status = fromGrpcStatus(session_->Finish(), peer_);
    session_.reset();
    if (deadline.passed())
      return Status::error(StatusCode::DeadlineExceeded, "{}", endpoint_);
    return status;
  }
  StatusOr<Thread> thread =
      Thread::start(fmt::format("calls to {}", peer_), [this] { run(); });
  if (!thread)
    return thread.status();
  thread_ = std::move(*thread);
  return Status::ok();
}

Status ServerLink::notOpen() const {
  return Status::error(StatusCode::FailedPrecondition,
                       "the session with {} is not open", peer_);
}

void ServerLink::enqueue(std::function<void()> task) {
  std::lock_guard<std::mutex> lock(mutex_);
  queue_.push_back(std::move(task));
  changed_.notify_all();
}

void ServerLink::run() {
  for (;;) {
    std::function<void()> task;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      auto ready = [&] { return !busy_ && (stopping_ || !queue_.empty()); };
      while (!ready() && !task) {
        if (busy_ || !closeIdleStreamBy_) {
          changed_.wait(lock);
          continue;
        }
        // An idle push stream (a fetch barrier's, during a long step) is
        // closed halfway to its deadline, before it could run out.
        changed_.wait_until(lock, *closeIdleStreamBy_);
        if (!ready() && !busy_ && closeIdleStreamBy_ &&
            Deadline::Clock::now() >= *closeIdleStreamBy_)
          task = [this] { deferredFailure_ = flushPushes(); };
      }
      if (!task) {
        if (queue_.empty())
          return;
        task = std::move(queue_.front());
        queue_.pop_front();
      }
      busy_ = true;
    }
    task();
    std::lock_guard<std::mutex> lock(mutex_);
    busy_ = false;
    changed_.notify_all();
  }
}

std::future<Status> ServerLink::submit(std::function<Status()> work) {
  auto promise = std::make_shared<std::promise<Status>>();
  std::future<Status> result = promise->get_future();
  if (!thread_) {
    promise->set_value(notOpen());
    return result;
  }
  enqueue([promise, work = std::move(work)] { promise->set_value(work()); });
  return result;
}

Status ServerLink::call(const std::function<Status()> &work) {
  if (!thread_)
    return notOpen();
  // An idle link runs the call in the caller's thread: a hand-over to the
  // link's thread and back costs two context switches per call.
  bool idle;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    idle = !busy_ && queue_.empty();
    busy_ |= idle;
  }
  if (!idle)
    return submit(work).get();
  Status status = work();
  std::lock_guard<std::mutex> lock(mutex_);
  busy_ = false;
  changed_.notify_all();
  return status;
}

void ServerLink::push(int block, MessageKind kind,
                      std::shared_ptr<const Tensor> value,
                      std::shared_ptr<const Tensor> rowIds, int trainer,
                      Deadline deadline) {
  enqueue([=] { writePush(block, kind, value, rowIds, trainer, deadline); });
}

void ServerLink::writePush(int block, MessageKind kind,
                           const std::shared_ptr<const Tensor> &value,
                           const std::shared_ptr<const Tensor> &rowIds,
                           int trainer, Deadline deadline) {
  if (!openPushStream(deadline))
    return;
  wire::Chunk header;
  header.set_block(block);
  header.set_kind(static_cast<int32_t>(kind));
  header.set_trainer(trainer);
  auto write = [&](ByteBuffer frame) { return pushStream_->Write(frame); };
  // Row ids go first, as a value of their own.
  wire::Chunk idsHeader = header;
  idsHeader.set_row_ids(true);
  if ((rowIds && !sendTensor(idsHeader, rowIds, write)) ||
      !sendTensor(header, value, write))
    // The stream broke; its status says why.
    deferredFailure_ = flushPushes();
}

bool ServerLink::openPushStream(Deadline deadline) {
  if (!deferredFailure_.isOk())
    return false;
  if (pushStream_) {
    // A stream a fetch barrier opened before a long step would end well
    // before the calls' own deadline: they get a stream of their own.
    if (pushDeadline_ + deadline.timeout() / 10 >= deadline.when())
      return true;
    deferredFailure_ = flushPushes();
    if (!deferredFailure_.isOk())
      return false;
  }
  pushDeadline_ = deadline.when();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    Deadline::Clock::time_point now = Deadline::Clock::now();
    closeIdleStreamBy_ = now + (std::max(pushDeadline_, now) - now) / 2;
  }
  pushContext_ = makeContext(deadline);
  pushStream_.reset(grpc::internal::ClientWriterFactory<ByteBuffer>::Create(
      channel_.get(), rpcMethod(Method::Push), pushContext_.get(),
      &pushReply_));
  return true;
}

Status ServerLink::flushPushes() {
  if (!pushStream_) {
    Status failure = deferredFailure_;
    deferredFailure_ = Status::ok();
    return failure;
  }
  pushStream_->WritesDone();
  Status status = fromGrpcStatus(pushStream_->Finish(), peer_);
  pushStream_.reset();
  pushContext_.reset();
  std::lock_guard<std::mutex> lock(mutex_);
  closeIdleStreamBy_.reset();
  return status;
}

/// The most row ids one pull call carries: they travel in its one frame.
static constexpr int64_t kMaxIdsPerCall = kChunkBytes / sizeof(int64_t);

Status ServerLink::pull(const std::vector<PullRequest> &requests, int trainer,
                        bool read, Deadline deadline) {
  OPENKS_RETURN_IF_ERROR(flushPushes());
  // The requests go in calls whose row ids fit one frame; a prefetch of
  // more rows than that goes in pieces of its own.
  std::vector<PullRequest> call;
  int64_t callIds = 0;
  for (const PullRequest &request : requests) {
    int64_t ids = request.rowIds ? request.rowIds->numel() : 0;
    if (ids > kMaxIdsPerCall) {
      OPENKS_RETURN_IF_ERROR(
          prefetchInPieces(request, trainer, read, deadline));
      continue;
    }
    if (callIds + ids > kMaxIdsPerCall) {
      OPENKS_RETURN_IF_ERROR(readBlocks(call, trainer, read, deadline));
      call.clear();
      callIds = 0;
    }
    call.push_back(request);
    callIds += ids;
  }
  if (call.empty())
    return Status::ok();
  return readBlocks(call, trainer, read, deadline);
}

Status ServerLink::prefetchInPieces(const PullRequest &request, int trainer,
                                    bool read, Deadline deadline) {
  const int64_t *ids = request.rowIds->data<int64_t>();
  int64_t total = request.rowIds->numel();
  std::vector<Tensor> pieces;
  for (int64_t begin = 0; begin < total; begin += kMaxIdsPerCall) {
    int64_t count = std::min(kMaxIdsPerCall, total - begin);
    Tensor pieceIds(DType::I64, Shape{count});
    std::copy_n(ids + begin, count, pieceIds.data<int64_t>());
    Tensor &rows = pieces.emplace_back(request.out->dtype(), Shape{});
    OPENKS_RETURN_IF_ERROR(readBlocks(
        {PullRequest{request.server, request.block, &rows, &pieceIds}}, trainer,
        read, deadline));
  }
  Shape shape = pieces.front().shape();
  shape[0] = total;
  request.out->resize(shape);
  char *target = static_cast<char *>(request.out->rawData());
  for (const Tensor &piece : pieces)
    target = std::copy_n(static_cast<const char *>(piece.rawData()),
                         piece.numel() * dtypeSize(piece.dtype()), target);
  return Status::ok();
}

Status ServerLink::readBlocks(const std::vector<PullRequest> &requests,
                              int trainer, bool read, Deadline deadline) {
  wire::Blocks blocks;
  blocks.set_trainer(trainer);
  blocks.set_read(read);
  // A prefetch carries the row ids of its blocks after the header.
  bool prefetch = false;
  size_t idsTotal = 0;
  for (const PullRequest &request : requests) {
    blocks.add_blocks(request.block);
    prefetch |= request.rowIds != nullptr;
    if (request.rowIds)
      idsTotal += request.rowIds->numel();
  }
  auto ids = std::make_shared<std::vector<int64_t>>();
  if (prefetch) {
    ids->reserve(idsTotal);
    for (const PullRequest &request : requests) {
      blocks.add_rows(request.rowIds ? request.rowIds->numel() : -1);
      if (request.rowIds)
        ids->insert(ids->end(), request.rowIds->data<int64_t>(),
                    request.rowIds->data<int64_t>() + request.rowIds->numel());
    }
  }
  std::unique_ptr<grpc::ClientContext> context = makeContext(deadline);
  std::unique_ptr<grpc::ClientReader<ByteBuffer>> reader(
      grpc::internal::ClientReaderFactory<ByteBuffer>::Create(
          channel_.get(), rpcMethod(Method::Pull), context.get(),
          prefetch ? encodeFrame(blocks, ids->data(),
                                 ids->size() * sizeof(int64_t), ids)
                   : encodeFrame(blocks)));
  ByteBuffer message;
  FrameReader frame;
  TensorAssembler assembler;
  wire::Chunk chunk;
  size_t next = 0;
  Status status = Status::ok();
  while (status.isOk() && reader->Read(&message)) {
    status = frame.open(message, chunk);
    if (!status.isOk())
      break;
    if (assembler.complete() && next == requests.size()) {
      status =
          Status::dataLoss("{} sent more blocks than were asked for", peer_);
      break;
    }
    const PullRequest &request = requests[next];
    if (chunk.block() != request.block) {
      status = Status::dataLoss("{} sent block {} where block {} was due",
                                peer_, chunk.block(), request.block);
      break;
    }
    status = assembler.add(
        chunk, frame, *request.out,
        [](DType, const Shape &) { return Status::ok(); },
        fmt::format("block {} from {}", request.block, peer_));
    if (status.isOk() && assembler.complete())
      ++next;
  }
  if (!status.isOk()) {
    context->TryCancel();
    (void)reader->Finish();
    return status;
  }
  OPENKS_RETURN_IF_ERROR(fromGrpcStatus(reader->Finish(), peer_));
  if (next != requests.size() || !assembler.complete())
    return Status::dataLoss("{} sent {} of the {} blocks asked for", peer_,
                            next, requests.size());
  return Status::ok();
}

Status ServerLink::control(const wire::Control &call, Deadline deadline,
                           wire::Reply *reply) {
  OPENKS_RETURN_IF_ERROR(flushPushes());
  return controlNow(call, deadline, reply);
}

void ServerLink::postBarrier(wire::Chunk::Barrier kind, int trainer,
                             Deadline deadline) {
  enqueue([this, kind, trainer, deadline] {
    if (!openPushStream(deadline))
      return;
    wire::Chunk barrier;
    barrier.set_trainer(trainer);
    barrier.set_barrier(kind);
    // A send barrier ends the stream: the pulls that follow need the
    // step's pushes in. A broken stream's status says why.
    if (!pushStream_->Write(encodeFrame(barrier)) || kind == wire::Chunk::SEND)
      deferredFailure_ = flushPushes();
  });
}

Status ServerLink::controlNow(const wire::Control &call, Deadline deadline,
                              wire::Reply *reply) {
  std::unique_ptr<grpc::ClientContext> context = makeContext(deadline);
  ByteBuffer answer;
  grpc::Status status =
      grpc::internal::BlockingUnaryCall<ByteBuffer, ByteBuffer>(
          channel_.get(), rpcMethod(Method::Control), context.get(),
          encodeFrame(call), &answer);
  OPENKS_RETURN_IF_ERROR(fromGrpcStatus(status, peer_));
  if (!reply)
    return Status::ok();
  FrameReader frame;
  return frame.open(answer, *reply);
}
