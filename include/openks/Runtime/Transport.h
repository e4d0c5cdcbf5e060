//===- Transport.h - How trainers talk to parameter servers -----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one interface between a worker and the servers of its job: push a
// gradient or a delta of a block (whole, or the rows a step touched of a
// sparse table's block), pull a block's current value, the batch
// and fetch barriers, "this trainer is done" and "this trainer failed". A
// server is named by its index among the job's endpoints and a block by its
// index on that server, as the loader numbers them; a trainer by its index
// in [0, trainers). Every call that waits ends by its deadline.
//
// Worker code does not know which transport it runs on: the in-process one
// (InProcessTransport.h) hands buffers to ParameterServer objects directly;
// a gRPC one carries the same calls between processes.
//
// The contract is batched and asynchronous, so that a network is not paid
// per block: a push may return before the server has the value (the
// transport then owns its buffer), and the pushes of a trainer to a server
// reach it, in order, before that trainer's next call of another kind to
// that server (a barrier, a pull, ...), which reports a push that failed.
// A barrier may likewise return before the server has passed it, its
// failure reported by the trainer's next call to that server or by
// flush(): in sync mode the pulls that follow wait for the step's updates
// all the same. A step's pulls go as one batch, to every server at once
// (pullAll).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_TRANSPORT_H
#define OPENKS_RUNTIME_TRANSPORT_H

#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace openks::runtime {

/// What a message carries; the values are the ps dialect's MessageKind.
enum class MessageKind : uint8_t { Grad = 0, Delta = 1, Param = 2 };

/// Returns "gradient", "delta" or "parameter".
const char *describeMessageKind(MessageKind kind);

/// The point in time by which a wait must end.
class Deadline {
public:
  using Clock = std::chrono::steady_clock;

  /// Returns the deadline `timeout` from now.
  static Deadline after(std::chrono::milliseconds timeout) {
    return Deadline(Clock::now() + timeout, timeout);
  }

  /// Returns when the wait must end.
  Clock::time_point when() const { return when_; }
  /// Returns the timeout the deadline was made with, for messages.
  std::chrono::milliseconds timeout() const { return timeout_; }
  /// Returns whether the deadline has passed.
  bool passed() const { return Clock::now() >= when_; }

private:
  Deadline(Clock::time_point when, std::chrono::milliseconds timeout)
      : when_(when), timeout_(timeout) {}

  Clock::time_point when_;
  std::chrono::milliseconds timeout_;
};

/// One block a batch of pulls fetches, and where its value goes: the whole
/// block, or only its rows `*rowIds` (a prefetch).
struct PullRequest {
  int server;
  int block;
  Tensor *out;
  const Tensor *rowIds = nullptr;
};

/// The trainer's side of the servers of one job.
class Transport {
public:
  virtual ~Transport();

  /// Sends trainer `trainer`'s `kind` message (a gradient or a GEO delta)
  /// for `block` to `server`, possibly after returning (see above). The
  /// transport may take `value`'s buffer, leaving `value` with a buffer of
  /// the same capacity and unspecified contents; the caller must not read
  /// it afterwards.
  virtual Status push(int server, int block, MessageKind kind, Tensor &value,
                      int trainer, Deadline deadline) = 0;

  /// Sends trainer `trainer`'s row-sparse `kind` message for `block` to
  /// `server` as push() does: the rows `values` of the block's rows
  /// `rowIds` (block-local ids, distinct and ascending). The transport may
  /// take both buffers.
  virtual Status pushRows(int server, int block, MessageKind kind,
                          Tensor &rowIds, Tensor &values, int trainer,
                          Deadline deadline) = 0;

  /// Copies the current value of `block` on `server` into `out`, resizing
  /// it. In sync mode it waits until the server has applied the step's
  /// updates.
  virtual Status pull(int server, int block, Tensor &out, int trainer,
                      Deadline deadline) = 0;

  /// Copies the current values of the rows `rowIds` of `block` on `server`
  /// (block-local ids, distinct and ascending) into `out`, resizing it, each
  /// row read whole. It does not wait for the server's phase: in sync mode
  /// a step prefetches before it sends, when the previous step's updates
  /// are done.
  virtual Status pullRows(int server, int block, const Tensor &rowIds,
                          Tensor &out, int trainer, Deadline deadline) = 0;

  /// Pulls every block of `requests` as pull() (or, for the requests that
  /// name rows, pullRows()) does, the blocks of all servers at once, and
  /// returns the first failure. This one pulls them one after the other; a
  /// transport over a network overrides it.
  virtual Status pullAll(const std::vector<PullRequest> &requests, int trainer,
                         Deadline deadline);

  /// Copies the current value of `block` on `server` into `out` whatever
  /// the server's phase, under the block's lock: what a checkpoint gathers.
  /// Which step it shows is the caller's to ensure (a sync job's trainer
  /// between its steps holds every server back from the next one).
  virtual Status read(int server, int block, Tensor &out,
                      Deadline deadline) = 0;

  /// Tells `server` that `trainer` has sent all of its step's gradients
  /// (Paddle's BATCH_BARRIER).
  virtual Status sendBarrier(int server, int trainer, Deadline deadline) = 0;

  /// Tells `server` that `trainer` has received all of its step's blocks
  /// (Paddle's FETCH_BARRIER).
  virtual Status fetchBarrier(int server, int trainer, Deadline deadline) = 0;

  /// Returns in `share` `server`'s share of its norm `norm` (its `norm`-th
  /// `ps.norm`) in the current sync step: the sum of the squares of what
  /// its updates clip by it. Waits until the server has every trainer's
  /// gradients of the step.
  virtual Status normShare(int server, int norm, double &share, int trainer,
                           Deadline deadline) = 0;

  /// Gives `server` the value `trainer` computed of its norm `norm` in the
  /// current sync step, from every server's share; the server finishes the
  /// step's updates once every trainer has.
  virtual Status giveNorm(int server, int norm, double value, int trainer,
                          Deadline deadline) = 0;

  /// Tells `server` that `trainer` has finished: the server no longer waits
  /// for it, and stops once every trainer has finished.
  virtual Status complete(int server, int trainer, Deadline deadline) = 0;

  /// Tells `server` that `trainer` failed with `status`: the server fails,
  /// and every call waiting on it returns an error that names the trainer.
  virtual void abort(int server, int trainer, const Status &status) = 0;

  /// Returns once every push and barrier `trainer` has made so far has
  /// reached its server, with the first failure of those calls. A transport
  /// whose pushes are done when push() returns has nothing to wait for.
  virtual Status flush(int trainer, Deadline deadline);

  /// Returns the tensor that holds `block` on `server` when a trainer may
  /// read the block there instead of pulling copies: the server runs in
  /// this process and in sync mode, so it changes its blocks only while
  /// every trainer is between its send barrier and its pulls. Null
  /// otherwise, as this default says. The tensor lives as long as the
  /// server and keeps its buffer and shape.
  virtual Tensor *sharedBlock(int server, int block);

  /// Returns the number of servers of the job.
  virtual int numServers() const = 0;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_TRANSPORT_H
