//===- ParameterServer.h - The protocol of one parameter server -*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One server of a job: what it does with the calls of its trainers in each
// synchronisation mode (the reference's sections 4.7 and 4.9), apart from
// how the calls arrive (a Transport) and how a block is updated (its
// ServerProgram, which runs the ps.update regions).
//
// * sync: a step opens for gradients; each trainer pushes its gradients and
//   reaches the send barrier; once every live trainer has, the server runs
//   the update of every block on the sum of the step's gradients (added
//   in trainer order, so that runs are reproducible; the rows of a sparse
//   table's block add up a row at a time, in the same order; in the
//   server's thread, or in its only trainer's: see sendBarrier), then
//   serves pulls until every live trainer has reached the fetch barrier,
//   and the next step opens. The startup step is a pull phase of its own.
//   An update that clips by a norm the servers share (`ps.norm`) runs up to
//   its clip; the server then offers its share of each norm (the squares
//   added in block order), waits until every live trainer has given it the
//   norm computed from all servers' shares (they must agree), and finishes
//   those updates before it serves pulls.
// * async and GEO: every gradient (delta) is applied on arrival, in the
//   pushing trainer's thread; different blocks at once, one block never
//   twice at once. Pulls read a block's current value.
// * half-async: as async; a send barrier returns once the trainer's
//   gradients are applied (they are, by the time push returns), so a
//   trainer's pulls after it see its own updates, but it waits for no
//   other trainer.
//
// A server stops once every trainer has said it is done. A trainer that
// fails (abort), or one silent for longer than the timeout while the server
// waits for it, fails the server: every waiting call then returns an error
// that names that trainer.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_PARAMETERSERVER_H
#define OPENKS_RUNTIME_PARAMETERSERVER_H

#include "openks/Runtime/Tensor.h"
#include "openks/Runtime/Transport.h"
#include "openks/Support/Status.h"
#include "openks/Support/TaskPool.h"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace openks::runtime {

/// A server's synchronisation mode; the values are the ps dialect's Mode.
enum class SyncMode : uint8_t { Sync = 0, Async = 1, HalfAsync = 2, Geo = 3 };

/// What a server needs from its program: its blocks, the update of each,
/// and each one's current value. The server calls update() for different
/// blocks at once but never twice at once for one block; read() may run
/// while the same block is updated and must take the block's lock.
class ServerProgram {
public:
  virtual ~ServerProgram();

  /// Returns the number of blocks; they are numbered from 0.
  virtual int numBlocks() const = 0;
  /// Returns the block's name, for messages.
  virtual std::string_view blockName(int block) const = 0;
  /// Returns the kind of message the block's update runs on, or Param when
  /// the block has no update (it is frozen).
  virtual MessageKind updateKind(int block) const = 0;
  /// Returns the block's element type and shape.
  virtual DType dtype(int block) const = 0;
  virtual const Shape &shape(int block) const = 0;
  /// Returns whether the block's update runs on row-sparse values (the
  /// gradient of a sparse table) rather than on whole ones.
  virtual bool takesRows(int block) const { return false; }
  /// Runs the block's update on `received`: a whole value, or when the
  /// update takes rows, the rows of the block's rows `*rowIds`. It may take
  /// either buffer.
  virtual Status update(int block, Tensor &received, Tensor *rowIds) = 0;
  /// Copies the block's current value into `out`.
  virtual Status read(int block, Tensor &out) = 0;
  /// Returns the tensor that holds the block's value, for trainers in the
  /// same process to read (see Transport::sharedBlock); it must keep its
  /// buffer and shape while the program lives. Null, the default, when the
  /// program keeps it to itself.
  virtual Tensor *storage(int /*block*/) { return nullptr; }
  /// Copies the current values of the block's rows `rowIds` (distinct, in
  /// range) into `out`, each row whole.
  virtual Status readRows(int block, const Tensor &rowIds, Tensor &out) = 0;

  /// Returns the number of norms the server shares with the others (sync
  /// mode); they are numbered from 0.
  virtual int numNorms() const { return 0; }
  /// Returns the norm `norm`'s name, for messages.
  virtual std::string_view normName(int norm) const;
  /// Returns the norm the block's update clips by, if it clips by one; the
  /// server then runs it as beginUpdate and endUpdate, not update.
  virtual std::optional<int> clipNorm(int block) const;
  /// Runs the block's update on `received` and `rowIds` (as update() does)
  /// up to its clip, and returns in `squares` the sum of the squares of what
  /// it clips.
  virtual Status beginUpdate(int block, Tensor &received, Tensor *rowIds,
                             double &squares);
  /// Finishes the update beginUpdate began, clipping by `norm`.
  virtual Status endUpdate(int block, double norm);

  /// Returns whether the updates of different blocks may run at the same
  /// time with the same results: no two blocks share an update, and no
  /// update writes what another one reads or writes.
  virtual bool areUpdatesIndependent() const { return false; }
};

/// How one server runs.
struct ServerConfig {
  /// The name in messages, e.g. "@ps0 (127.0.0.1:6170)".
  std::string name;
  SyncMode mode = SyncMode::Sync;
  /// The trainers the server expects (fan_in).
  int trainers = 1;
  /// How long the server waits for a trainer before it fails naming it.
  std::chrono::milliseconds timeout{60000};
};

/// The protocol of one parameter server; thread-safe.
class ParameterServer {
public:
  ParameterServer(ServerConfig config, ServerProgram &program);

  /// The calls of trainers; see Transport, whose methods these implement.
  Status push(int block, MessageKind kind, Tensor &value, int trainer,
              Deadline deadline);
  Status pushRows(int block, MessageKind kind, Tensor &rowIds, Tensor &values,
                  int trainer, Deadline deadline);
  Status pull(int block, Tensor &out, int trainer, Deadline deadline);
  Status pullRows(int block, const Tensor &rowIds, Tensor &out, int trainer);
  Status read(int block, Tensor &out);
  Tensor *sharedBlock(int block);
  /// Passes `trainer`'s send barrier. `updateInCaller` says that the caller
  /// is a thread of the server's process that would only sleep while the
  /// server's thread applies the step's updates: when it is the server's
  /// only trainer, the server's thread is not woken and the trainer's next
  /// call that waits for the updates (a pull, the fetch barrier, a norm's
  /// share) applies them, in its thread: the same updates, in the same
  /// order, without two thread hand-offs a step.
  Status sendBarrier(int trainer, Deadline deadline,
                     bool updateInCaller = false);
  Status fetchBarrier(int trainer, Deadline deadline);
  Status normShare(int norm, double &share, int trainer, Deadline deadline);
  Status giveNorm(int norm, double value, int trainer, Deadline deadline);
  Status complete(int trainer);
  void abort(int trainer, const Status &status);

  /// Fails the server because `trainer` is gone without a word (`status`
  /// says how it was lost), unless it had finished.
  void lose(int trainer, const Status &status);

  /// Checks that `block` exists and is updated on `kind` messages of type
  /// `dtype` and `shape`, before `trainer`'s value is received; when
  /// `rows`, that its update takes row-sparse values and `shape` is that of
  /// some of its rows.
  Status checkPush(int block, MessageKind kind, DType dtype, const Shape &shape,
                   int trainer, bool rows = false) const;
  /// Checks that `rowIds` are `rows` distinct ascending row ids of `block`,
  /// the ids of `trainer`'s row-sparse push.
  Status checkRowIds(int block, const Tensor &rowIds, int64_t rows,
                     int trainer) const;

  /// Fails the server because the job failed elsewhere (`status`, the
  /// failure of another role): every waiting and later call, and serve(),
  /// return it at once.
  void cancel(const Status &status);

  /// Runs the server until every trainer has finished (success) or the
  /// server failed (the failure). In sync mode this thread applies each
  /// step's updates, unless the only trainer does (see sendBarrier).
  Status serve();

  /// What a server has done, for the summary of a run.
  struct Stats {
    int64_t bytesPushed = 0;
    int64_t bytesPulled = 0;
    /// Sync steps completed (updates applied).
    int64_t steps = 0;
  };
  /// Returns the server's figures so far.
  Stats stats() const;

  const ServerConfig &config() const { return config_; }

private:
  /// Where a sync server is in its step.
  enum class Phase {
    /// Gradients and send barriers of the step are coming in.
    Receiving,
    /// Every live trainer has reached the send barrier: updates run (those
    /// that clip by a shared norm, up to their clip).
    Updating,
    /// The shares of the norms are known; the trainers' norms are coming in.
    Reducing,
    /// Every live trainer has given every norm: the clipped updates finish.
    Finishing,
    /// Updates are done; pulls and fetch barriers are coming in.
    Serving,
  };

  /// Checks that `trainer` may call (it exists and has not finished, the
  /// server has not failed) and records that it was heard from; requires
  /// the lock.
  Status admit(int trainer);
  /// Checks that `block` is one of the server's blocks.
  Status checkBlock(int block) const;
  /// Receives a push of `value` (the rows `*rowIds` of the block when
  /// `rowIds` is given), checked already; `lock` holds `mutex_`.
  Status receive(int block, Tensor &value, Tensor *rowIds, int trainer,
                 Deadline deadline, std::unique_lock<std::mutex> &lock);
  /// Returns in `sum` and `sumIds` the sum of the step's gradients of
  /// `block`, in trainer order, and the number of trainers that sent one;
  /// `sum` is null when none did. Requires the block's lock.
  Status sumStep(int block, Tensor *&sum, Tensor *&sumIds, int &contributors);
  /// Waits, holding `lock`, until `ready` holds, the server fails or
  /// `deadline` passes; `what` says what the call waited for.
  Status waitFor(std::unique_lock<std::mutex> &lock, Deadline deadline,
                 const std::function<std::string()> &what,
                 const std::function<bool()> &ready);
  /// Fails the server with `status` and wakes every waiter; requires the
  /// lock.
  void fail(Status status);
  /// Fails the server when a trainer has stalled it for the timeout (a sync
  /// phase that has not ended, an async trainer gone silent) and returns
  /// whether it did; requires the lock.
  bool failIfStalled(Deadline::Clock::time_point now);
  /// Marks `trainer` in `passed` once the server is in `phase` (a sync
  /// barrier); async modes pass at once. `updateInCaller` is sendBarrier's.
  Status passBarrier(int trainer, Deadline deadline, Phase phase,
                     std::vector<bool> &passed, bool updateInCaller);
  /// Moves a sync server on when every live trainer has passed the current
  /// barrier; requires the lock.
  void advance();
  /// Returns whether the step has updates (or the ends of clipped updates)
  /// that no thread runs yet; requires the lock.
  bool hasPendingUpdates() const {
    return (phase_ == Phase::Updating || phase_ == Phase::Finishing) &&
           !updating_;
  }
  /// Runs the pending updates of the step and moves the server on; `lock`
  /// holds `mutex_`, which is released while the updates run.
  void runUpdates(std::unique_lock<std::mutex> &lock);
  /// Checks that `norm` is one of the server's norms.
  Status checkNorm(int norm, int trainer) const;
  /// Returns whether `trainer` has given every norm of the step.
  bool gaveAllNorms(int trainer) const;
  /// Applies the step's summed gradients (sync), the updates that clip by a
  /// shared norm up to their clip, adding to the norms' shares; called
  /// without the lock.
  Status applyStep();
  /// Sums block `block`'s gradients of the step and runs its update (or
  /// begins it, when it clips by a norm).
  Status applyBlock(int block);
  /// Finishes the updates that clip by a shared norm; called without the
  /// lock.
  Status finishClippedUpdates();
  /// Ends the step's updates: pulls may come.
  void startServing();
  /// Returns the live trainers for which `done` is false, as "1, 3".
  std::string listWaiting(const std::vector<bool> &done) const;
  /// Returns the live trainers silent for longer than the timeout;
  /// requires the lock.
  std::string listSilent(Deadline::Clock::time_point now) const;
  int numLive() const;

  ServerConfig config_;
  ServerProgram &program_;

  mutable std::mutex mutex_;
  /// Wakes the trainers' calls that wait for a phase; serve() waits on
  /// `serverWork_`, which wakes it only for what it acts on (updates to run,
  /// a failure, no trainer left), so a step does not wake it in vain.
  std::condition_variable changed_, serverWork_;
  Status failure_ = Status::ok();
  std::vector<bool> live_;
  /// When each trainer last called (async modes watch for silence).
  std::vector<Deadline::Clock::time_point> lastHeard_;

  // Sync mode: the step, its phase, who has passed which barrier, and each
  // block's gradients by trainer.
  int64_t step_ = 0;
  Phase phase_ = Phase::Serving;
  std::vector<bool> sentBarrier_, fetched_;
  /// When the phase began: the trainers have the timeout to end it.
  Deadline::Clock::time_point phaseStart_;
  /// Whether serve() has started (its update pool and compute budget are
  /// set), whether a thread runs the step's updates now, and whether the
  /// step's updates are the only trainer's to run (see sendBarrier).
  bool serving_ = false, updating_ = false, callerUpdates_ = false;
  /// The compute budget of the thread that runs serve(), which updates run
  /// on whichever thread runs them.
  int serveThreads_ = 1;
  std::vector<std::vector<Tensor>> received_;
  /// The row ids of the gradients received_ holds rows of (row-sparse
  /// blocks), and the buffers their sum goes to.
  std::vector<std::vector<Tensor>> receivedIds_;
  std::vector<Tensor> summedIds_, summedRows_;
  std::vector<std::vector<bool>> pushedBy_;
  /// The step's share of each norm, the value each trainer gave of each
  /// (by trainer, then norm), the value they agree on, and the blocks whose
  /// update has begun and waits for its norm.
  std::vector<double> shares_;
  std::vector<std::vector<std::optional<double>>> givenNorms_;
  std::vector<std::optional<double>> norms_;
  /// Per block (bytes, not bits: blocks update in parallel): whether its
  /// update has begun, and the squares it gave its norm.
  std::vector<char> begun_;
  std::vector<double> squares_;
  /// The helpers of a sync server whose blocks update in parallel (null
  /// when they update one after the other).
  std::unique_ptr<TaskPool> updatePool_;

  // One lock per block: for its gradients (sync) and so that it is updated
  // once at a time (async).
  std::vector<std::mutex> blockLocks_;

  Stats stats_;
};

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_PARAMETERSERVER_H
