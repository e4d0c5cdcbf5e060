//===- ServerLink.h - A trainer's connection to one server ------*- C++ -*-===//
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What a trainer holds of one server: the channel, the session that tells
// the server the trainer lives, and a thread that runs the trainer's calls
// to it in order. Pushes are queued and go out as one stream per batch,
// which the next call closes, so a step's pushes cost one round trip; every
// other call waits for its answer.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_GRPC_SERVERLINK_H
#define OPENKS_LIB_RUNTIME_GRPC_SERVERLINK_H

#include "Wire.pb.h"

#include "openks/Runtime/Transport.h"
#include "openks/Support/Thread.h"

#include <grpcpp/channel.h>
#include <grpcpp/client_context.h>
#include <grpcpp/support/sync_stream.h>

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace openks::runtime::grpc_wire {

/// A trainer's connection to one server.
class ServerLink {
public:
  /// Talks to server `server` at `endpoint` over `channel`, presenting
  /// `token`.
  ServerLink(int server, std::string endpoint,
             std::shared_ptr<grpc::Channel> channel, std::string token);
  /// Ends the session with a goodbye, after the calls queued.
  ~ServerLink();

  /// Waits for the server until `deadline` and opens trainer `trainer`'s
  /// session, which the server accepts if it runs the job of `fingerprint`.
  /// Fails with DeadlineExceeded when the server never came.
  Status open(int trainer, uint64_t fingerprint, Deadline deadline);

  /// Queues the push of `value` (which the frames keep alive) for `block`;
  /// of the rows `rowIds` of the block, when given.
  void push(int block, MessageKind kind, std::shared_ptr<const Tensor> value,
            std::shared_ptr<const Tensor> rowIds, int trainer,
            Deadline deadline);

  /// Runs `work` after the calls queued and returns its status: in the
  /// caller's thread when the link is idle, else in the link's.
  Status call(const std::function<Status()> &work);
  /// Queues `work` after the calls queued; the future gives its status.
  std::future<Status> submit(std::function<Status()> work);

  // The calls below run in call() or submit(), one at a time.

  /// Closes the open push stream; returns the first failure of the pushes
  /// and barriers since the last flush.
  Status flushPushes();
  /// Pulls (or reads, when `read`) `requests`, all of this server, after
  /// the pushes.
  Status pull(const std::vector<PullRequest> &requests, int trainer, bool read,
              Deadline deadline);
  /// Runs `call` after the pushes and returns its answer.
  Status control(const wire::Control &call, Deadline deadline,
                 wire::Reply *reply = nullptr);

  /// Queues trainer `trainer`'s barrier `kind` (SEND or FETCH) after the
  /// calls queued, as a frame of the push stream (a send barrier ends it),
  /// without waiting for the server to pass it: a failure is reported by
  /// the next call, as a push's is.
  void postBarrier(wire::Chunk::Barrier kind, int trainer, Deadline deadline);
  /// Sends `call` at once, past the queue (an abort): pushes may be stuck.
  Status controlNow(const wire::Control &call, Deadline deadline,
                    wire::Reply *reply = nullptr);

  /// Returns "server 1 at 127.0.0.1:6171".
  const std::string &peer() const { return peer_; }

private:
  /// Returns the error of a call before the session is open.
  Status notOpen() const;
  /// Runs `task` in the link's thread, after the tasks queued before it.
  void enqueue(std::function<void()> task);
  /// The link's thread: runs the queue until the link is destroyed.
  void run();
  /// Returns a context for a call: the token and `deadline`.
  std::unique_ptr<grpc::ClientContext> makeContext(Deadline deadline) const;
  /// Opens a push stream for calls of `deadline`, unless one is open that
  /// ends about as late; returns false, with the failure deferred, when a
  /// push or the stream it closed failed.
  bool openPushStream(Deadline deadline);
  /// Writes one push to the open push stream, opening it if needed.
  void writePush(int block, MessageKind kind,
                 const std::shared_ptr<const Tensor> &value,
                 const std::shared_ptr<const Tensor> &rowIds, int trainer,
                 Deadline deadline);
  /// Reads the chunks of `requests` from the server, in one call: their
  /// row ids, if any, fit one frame.
  Status readBlocks(const std::vector<PullRequest> &requests, int trainer,
                    bool read, Deadline deadline);
  /// Prefetches the rows of `request`, more row ids than one call carries,
  /// in calls of as many as it carries, and stacks them.
  Status prefetchInPieces(const PullRequest &request, int trainer, bool read,
                          Deadline deadline);

  int server_;
  std::string endpoint_, peer_;
  std::shared_ptr<grpc::Channel> channel_;
  std::string token_;

  // The session.
  std::unique_ptr<grpc::ClientContext> sessionContext_;
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>>
      session_;

  // The push stream under way (in the link's thread only).
  std::unique_ptr<grpc::ClientContext> pushContext_;
  grpc::ByteBuffer pushReply_;
  Deadline::Clock::time_point pushDeadline_;
  std::unique_ptr<grpc::ClientWriter<grpc::ByteBuffer>> pushStream_;
  /// The first failure of the queued calls nobody waits for (pushes,
  /// barriers), which the next flushPushes() reports.
  Status deferredFailure_ = Status::ok();

  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::function<void()>> queue_;
  bool stopping_ = false;
  /// When the link's thread closes the open push stream if the link is
  /// idle then; none without a stream.
  std::optional<Deadline::Clock::time_point> closeIdleStreamBy_;
  /// Whether a call is running (in the link's thread or a caller's).
  bool busy_ = false;
  std::optional<Thread> thread_;
};

} // namespace openks::runtime::grpc_wire

#endif // OPENKS_LIB_RUNTIME_GRPC_SERVERLINK_H
