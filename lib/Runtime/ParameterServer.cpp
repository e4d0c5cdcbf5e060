//===- ParameterServer.cpp - The protocol of one parameter server ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Locking: `mutex_` guards the protocol state (phase, barriers, liveness,
// figures); `blockLocks_[b]` guards the sum of block b's gradients (sync)
// and serialises its updates (async). A thread never waits for a block lock
// while it holds `mutex_`.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/ComputeThreads.h"
#include "openks/Runtime/Kernels.h"

#include <algorithm>
#include <cstring>
#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

ServerProgram::~ServerProgram() = default;

std::string_view ServerProgram::normName(int) const { return {}; }

std::optional<int> ServerProgram::clipNorm(int) const { return std::nullopt; }

/// The error of a program asked to run in two parts an update that does not
/// clip by a shared norm.
static Status noClip(const ServerProgram &program, int block) {
  return Status::error(StatusCode::FailedPrecondition,
                       "the update of block {} clips by no shared norm",
                       program.blockName(block));
}

Status ServerProgram::beginUpdate(int block, Tensor &, Tensor *, double &) {
  return noClip(*this, block);
}

Status ServerProgram::endUpdate(int block, double) {
  return noClip(*this, block);
}

ParameterServer::ParameterServer(ServerConfig config, ServerProgram &program)
    : config_(std::move(config)), program_(program),
      live_(config_.trainers, true),
      lastHeard_(config_.trainers, Deadline::Clock::now()),
      sentBarrier_(config_.trainers, false), fetched_(config_.trainers, false),
      phaseStart_(Deadline::Clock::now()), received_(program.numBlocks()),
      receivedIds_(program.numBlocks()), summedIds_(program.numBlocks()),
      summedRows_(program.numBlocks()),
      pushedBy_(program.numBlocks(), std::vector<bool>(config_.trainers)),
      shares_(program.numNorms()),
      givenNorms_(config_.trainers,
                  std::vector<std::optional<double>>(program.numNorms())),
      norms_(program.numNorms()), begun_(program.numBlocks()),
      squares_(program.numBlocks()), blockLocks_(program.numBlocks()) {}

int ParameterServer::numLive() const {
  int live = 0;
  for (bool alive : live_)
    live += alive;
  return live;
}

/// Returns "trainer 1" or "trainers 1, 3" for `trainers`, in order.
static std::string describeTrainers(const std::vector<int> &trainers) {
  return fmt::format("{} {}", trainers.size() == 1 ? "trainer" : "trainers",
                     fmt::join(trainers, ", "));
}

std::string ParameterServer::listWaiting(const std::vector<bool> &done) const {
  std::vector<int> waiting;
  for (int trainer = 0; trainer < config_.trainers; ++trainer)
    if (live_[trainer] && !done[trainer])
      waiting.push_back(trainer);
  return describeTrainers(waiting);
}

void ParameterServer::fail(Status status) {
  if (failure_.isOk())
    failure_ = std::move(status);
  changed_.notify_all();
  serverWork_.notify_all();
}

Status ParameterServer::admit(int trainer) {
  if (trainer < 0 || trainer >= config_.trainers)
    return Status::invalidArgument(
        "{}: there is no trainer {} (the job has {})", config_.name, trainer,
        config_.trainers);
  if (!failure_.isOk())
    return failure_;
  if (!live_[trainer])
    return Status::error(StatusCode::FailedPrecondition,
                         "{}: trainer {} has already finished", config_.name,
                         trainer);
  lastHeard_[trainer] = Deadline::Clock::now();
  return Status::ok();
}

Status ParameterServer::waitFor(std::unique_lock<std::mutex> &lock,
                                Deadline deadline,
                                const std::function<std::string()> &what,
                                const std::function<bool()> &ready) {
  while (failure_.isOk() && !ready()) {
    if (callerUpdates_ && hasPendingUpdates()) {
      runUpdates(lock);
      continue;
    }
    if (changed_.wait_until(lock, deadline.when()) != std::cv_status::timeout ||
        !failure_.isOk() || ready())
      continue;
    // A stalled step is the server's to report: it names the trainers
    // that stall it, where this call knows only that it waited.
    if (failIfStalled(Deadline::Clock::now()))
      break;
    return Status::error(StatusCode::DeadlineExceeded, "{}: {} for {} ms",
                         config_.name, what(), deadline.timeout().count());
  }
  return failure_;
}

void ParameterServer::advance() {
  if (config_.mode != SyncMode::Sync)
    return;
  auto allPassed = [&](const std::vector<bool> &passed) {
    for (int trainer = 0; trainer < config_.trainers; ++trainer)
      if (live_[trainer] && !passed[trainer])
        return false;
    return true;
  };
  // No trainer's call waits for the phases that run updates: they wake
  // serve() only, and only when the trainer does not run them itself.
  if (phase_ == Phase::Receiving && numLive() > 0 && allPassed(sentBarrier_)) {
    phase_ = Phase::Updating;
    phaseStart_ = Deadline::Clock::now();
    if (!callerUpdates_)
      serverWork_.notify_all();
  } else if (phase_ == Phase::Reducing && numLive() > 0 && [&] {
               for (int trainer = 0; trainer < config_.trainers; ++trainer)
                 if (live_[trainer] && !gaveAllNorms(trainer))
                   return false;
               return true;
             }()) {
    phase_ = Phase::Finishing;
    phaseStart_ = Deadline::Clock::now();
    if (!callerUpdates_)
      serverWork_.notify_all();
  } else if (phase_ == Phase::Serving && allPassed(fetched_)) {
    // The next step opens.
    ++step_;
    sentBarrier_.assign(config_.trainers, false);
    fetched_.assign(config_.trainers, false);
    for (int block = 0; block < program_.numBlocks(); ++block)
      pushedBy_[block].assign(config_.trainers, false);
    phase_ = Phase::Receiving;
    phaseStart_ = Deadline::Clock::now();
    changed_.notify_all();
  }
  if (numLive() == 0) {
    changed_.notify_all();
    serverWork_.notify_all();
  }
}

Status ParameterServer::checkBlock(int block) const {
  if (block < 0 || block >= program_.numBlocks())
    return Status::invalidArgument("{}: there is no block {} (it holds {})",
                                   config_.name, block, program_.numBlocks());
  return Status::ok();
}

Status ParameterServer::checkPush(int block, MessageKind kind, DType dtype,
                                  const Shape &shape, int trainer,
                                  bool rows) const {
  OPENKS_RETURN_IF_ERROR(checkBlock(block));
  MessageKind expected = program_.updateKind(block);
  if (expected != kind)
    return Status::invalidArgument(
        "{}: trainer {} sent a {} for block {}, which {}", config_.name,
        trainer, describeMessageKind(kind), program_.blockName(block),
        expected == MessageKind::Param
            ? std::string("has no update")
            : fmt::format("is updated on {}s", describeMessageKind(expected)));
  if (rows != program_.takesRows(block))
    return Status::invalidArgument(
        "{}: trainer {} sent {} of block {}, whose update takes {}",
        config_.name, trainer, rows ? "rows" : "a whole value",
        program_.blockName(block), rows ? "whole values" : "rows");
  const Shape &blockShape = program_.shape(block);
  // Rows of a block: any number up to its own, of its width.
  bool fits = rows ? shape.rank() == blockShape.rank() && shape.rank() > 0 &&
                         shape[0] >= 0 && shape[0] <= blockShape[0] &&
                         shape.rowWidth() == blockShape.rowWidth()
                   : shape == blockShape;
  if (dtype != program_.dtype(block) || !fits)
    return Status::invalidArgument(
        "{}: trainer {} sent {}{} for block {} of {} {}", config_.name, trainer,
        rows ? "rows of " : "", typeString(dtype, shape),
        program_.blockName(block), dtypeName(program_.dtype(block)),
        blockShape.str());
  return Status::ok();
}

Status ParameterServer::checkRowIds(int block, const Tensor &rowIds,
                                    int64_t rows, int trainer) const {
  OPENKS_RETURN_IF_ERROR(checkBlock(block));
  if (rowIds.dtype() != DType::I64 || rowIds.shape() != Shape{rows})
    return Status::invalidArgument(
        "{}: trainer {} sent {} as the ids of {} rows of block {}",
        config_.name, trainer, typeString(rowIds.dtype(), rowIds.shape()), rows,
        program_.blockName(block));
  int64_t blockRows = program_.shape(block)[0];
  const int64_t *ids = rowIds.data<int64_t>();
  for (int64_t index = 0; index < rows; ++index) {
    if (ids[index] < 0 || ids[index] >= blockRows)
      return Status::outOfRange(
          "{}: trainer {} sent row {} of block {}, which has {} rows",
          config_.name, trainer, ids[index], program_.blockName(block),
          blockRows);
    if (index > 0 && ids[index] <= ids[index - 1])
      return Status::invalidArgument(
          "{}: trainer {} sent the rows of block {} out of order: row {} "
          "follows row {}",
          config_.name, trainer, program_.blockName(block), ids[index],
          ids[index - 1]);
  }
  return Status::ok();
}

/// Returns the bytes a tensor's elements take.
static int64_t bytesOf(const Tensor &tensor) {
  return tensor.numel() * static_cast<int64_t>(dtypeSize(tensor.dtype()));
}

Status ParameterServer::push(int block, MessageKind kind, Tensor &value,
                             int trainer, Deadline deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  OPENKS_RETURN_IF_ERROR(
      checkPush(block, kind, value.dtype(), value.shape(), trainer));
  return receive(block, value, nullptr, trainer, deadline, lock);
}

Status ParameterServer::pushRows(int block, MessageKind kind, Tensor &rowIds,
                                 Tensor &values, int trainer,
                                 Deadline deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  OPENKS_RETURN_IF_ERROR(checkPush(block, kind, values.dtype(), values.shape(),
                                   trainer, /*rows=*/true));
  OPENKS_RETURN_IF_ERROR(
      checkRowIds(block, rowIds, values.shape()[0], trainer));
  return receive(block, values, &rowIds, trainer, deadline, lock);
}

Status ParameterServer::receive(int block, Tensor &value, Tensor *rowIds,
                                int trainer, Deadline deadline,
                                std::unique_lock<std::mutex> &lock) {
  int64_t bytes = bytesOf(value) + (rowIds ? bytesOf(*rowIds) : 0);
  if (config_.mode != SyncMode::Sync) {
    stats_.bytesPushed += bytes;
    // Applied on arrival; the block's lock keeps its updates apart.
    lock.unlock();
    Status status = [&] {
      std::lock_guard<std::mutex> blockLock(blockLocks_[block]);
      return program_.update(block, value, rowIds);
    }();
    if (!status.isOk()) {
      lock.lock();
      fail(status.withContext(config_.name));
      return failure_;
    }
    return Status::ok();
  }

  // Sync: wait until the step opens (a fast trainer may be a step ahead).
  OPENKS_RETURN_IF_ERROR(waitFor(
      lock, deadline,
      [&] {
        return fmt::format("trainer {} waited for step {} to open ({} "
                           "yet to fetch step {})",
                           trainer, step_ + 1, listWaiting(fetched_), step_);
      },
      [&] { return phase_ == Phase::Receiving && !sentBarrier_[trainer]; }));
  if (pushedBy_[block][trainer])
    return Status::error(StatusCode::FailedPrecondition,
                         "{}: trainer {} sent block {} twice in step {}",
                         config_.name, trainer, program_.blockName(block),
                         step_);
  pushedBy_[block][trainer] = true;
  stats_.bytesPushed += bytes;
  lock.unlock();

  // The gradient changes hands: the trainer gets the buffer its previous
  // gradient of the block arrived in (allocated here on the first step),
  // of the same type and size. applyStep sums them in trainer order, so a
  // step's result does not depend on the order the gradients arrive in.
  std::lock_guard<std::mutex> blockLock(blockLocks_[block]);
  auto exchange = [&](std::vector<Tensor> &received, Tensor &incoming) {
    if (received.empty())
      received.resize(config_.trainers);
    Tensor &slot = received[trainer];
    if (slot.dtype() != incoming.dtype() ||
        slot.capacity() < incoming.numel()) {
      StatusOr<Tensor> buffer =
          Tensor::allocate(incoming.dtype(), incoming.shape());
      if (!buffer)
        return buffer.status().withContext(config_.name);
      slot = std::move(*buffer);
    }
    slot.resize(incoming.shape());
    std::swap(slot, incoming);
    return Status::ok();
  };
  OPENKS_RETURN_IF_ERROR(exchange(received_[block], value));
  if (rowIds)
    OPENKS_RETURN_IF_ERROR(exchange(receivedIds_[block], *rowIds));
  return Status::ok();
}

Status ParameterServer::pull(int block, Tensor &out, int trainer,
                             Deadline deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  OPENKS_RETURN_IF_ERROR(checkBlock(block));
  if (config_.mode == SyncMode::Sync)
    OPENKS_RETURN_IF_ERROR(waitFor(
        lock, deadline,
        [&] {
          return fmt::format(
              "trainer {} waited for the updates of step {} ({} yet to "
              "reach the send barrier)",
              trainer, step_, listWaiting(sentBarrier_));
        },
        [&] { return phase_ == Phase::Serving && !fetched_[trainer]; }));
  stats_.bytesPulled += program_.shape(block).numel() *
                        static_cast<int64_t>(dtypeSize(program_.dtype(block)));
  lock.unlock();
  return program_.read(block, out);
}

Status ParameterServer::pullRows(int block, const Tensor &rowIds, Tensor &out,
                                 int trainer) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  OPENKS_RETURN_IF_ERROR(checkRowIds(block, rowIds, rowIds.numel(), trainer));
  // The rows go out and their ids came in.
  stats_.bytesPulled +=
      rowIds.numel() *
      (program_.shape(block).rowWidth() *
           static_cast<int64_t>(dtypeSize(program_.dtype(block))) +
       static_cast<int64_t>(sizeof(int64_t)));
  lock.unlock();
  return program_.readRows(block, rowIds, out);
}

bool ParameterServer::gaveAllNorms(int trainer) const {
  for (const std::optional<double> &norm : givenNorms_[trainer])
    if (!norm)
      return false;
  return true;
}

Status ParameterServer::checkNorm(int norm, int trainer) const {
  if (config_.mode != SyncMode::Sync)
    return Status::invalidArgument(
        "{}: trainer {} asked for a norm, which only sync servers share",
        config_.name, trainer);
  if (norm < 0 || norm >= program_.numNorms())
    return Status::invalidArgument("{}: there is no norm {} (it shares {})",
                                   config_.name, norm, program_.numNorms());
  return Status::ok();
}

Status ParameterServer::normShare(int norm, double &share, int trainer,
                                  Deadline deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  OPENKS_RETURN_IF_ERROR(checkNorm(norm, trainer));
  OPENKS_RETURN_IF_ERROR(waitFor(
      lock, deadline,
      [&] {
        return fmt::format("trainer {} waited for the gradients of step {} "
                           "({} yet to reach the send barrier)",
                           trainer, step_, listWaiting(sentBarrier_));
      },
      [&] {
        return phase_ == Phase::Reducing && !givenNorms_[trainer][norm];
      }));
  share = shares_[norm];
  return Status::ok();
}

Status ParameterServer::giveNorm(int norm, double value, int trainer,
                                 Deadline deadline) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  OPENKS_RETURN_IF_ERROR(checkNorm(norm, trainer));
  OPENKS_RETURN_IF_ERROR(waitFor(
      lock, deadline,
      [&] {
        return fmt::format("trainer {} waited to give the norm {} of step {}",
                           trainer, program_.normName(norm), step_);
      },
      [&] {
        return phase_ == Phase::Reducing && !givenNorms_[trainer][norm];
      }));
  // Every trainer adds the same shares in the same order: a trainer that
  // computes another value has not run the same step.
  if (!norms_[norm]) {
    norms_[norm] = value;
  } else if (std::memcmp(&*norms_[norm], &value, sizeof value) != 0) {
    fail(Status::error(
        StatusCode::Internal,
        "{}: trainers disagree on the norm {} of step {}: trainer {} gives "
        "{}, another gave {}",
        config_.name, program_.normName(norm), step_, trainer, value,
        *norms_[norm]));
    return failure_;
  }
  givenNorms_[trainer][norm] = value;
  advance();
  return Status::ok();
}

Status ParameterServer::read(int block, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkBlock(block));
  return program_.read(block, out);
}

Tensor *ParameterServer::sharedBlock(int block) {
  // Only a sync server's blocks keep still while its trainers run steps.
  if (config_.mode != SyncMode::Sync || !checkBlock(block).isOk())
    return nullptr;
  return program_.storage(block);
}

Status ParameterServer::passBarrier(int trainer, Deadline deadline, Phase phase,
                                    std::vector<bool> &passed,
                                    bool updateInCaller) {
  std::unique_lock<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  if (config_.mode != SyncMode::Sync)
    return Status::ok();
  OPENKS_RETURN_IF_ERROR(waitFor(
      lock, deadline,
      [&] {
        return phase == Phase::Receiving
                   ? fmt::format("trainer {} waited for step {} to open",
                                 trainer, step_ + 1)
                   : fmt::format("trainer {} waited for the updates of step {}",
                                 trainer, step_);
      },
      [&] { return phase_ == phase && !passed[trainer]; }));
  passed[trainer] = true;
  // The only trainer's send barrier starts the step's updates. Once serve()
  // runs, its update pool and compute budget are there for the trainer's
  // thread to use; before, serve() finds the updates when it starts.
  if (updateInCaller && config_.trainers == 1 && serving_)
    callerUpdates_ = true;
  advance();
  return Status::ok();
}

Status ParameterServer::sendBarrier(int trainer, Deadline deadline,
                                    bool updateInCaller) {
  return passBarrier(trainer, deadline, Phase::Receiving, sentBarrier_,
                     updateInCaller);
}

Status ParameterServer::fetchBarrier(int trainer, Deadline deadline) {
  return passBarrier(trainer, deadline, Phase::Serving, fetched_,
                     /*updateInCaller=*/false);
}

Status ParameterServer::complete(int trainer) {
  std::lock_guard<std::mutex> lock(mutex_);
  OPENKS_RETURN_IF_ERROR(admit(trainer));
  live_[trainer] = false;
  advance();
  changed_.notify_all();
  return Status::ok();
}

void ParameterServer::abort(int trainer, const Status &status) {
  std::lock_guard<std::mutex> lock(mutex_);
  fail(Status::error(StatusCode::PeerLost, "{}: trainer {} failed: {}",
                     config_.name, trainer, status.message()));
}

void ParameterServer::lose(int trainer, const Status &status) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (trainer >= 0 && trainer < config_.trainers && live_[trainer])
    fail(Status::error(StatusCode::PeerLost, "{}: trainer {} is lost: {}",
                       config_.name, trainer, status.message()));
}

void ParameterServer::cancel(const Status &status) {
  std::lock_guard<std::mutex> lock(mutex_);
  fail(Status::error(StatusCode::PeerLost, "{}: the job stopped: {}",
                     config_.name, status.message()));
}

Status ParameterServer::sumStep(int block, Tensor *&sum, Tensor *&sumIds,
                                int &contributors) {
  sum = sumIds = nullptr;
  contributors = 0;
  std::vector<const Tensor *> ids, rows;
  for (int trainer = 0; trainer < config_.trainers; ++trainer) {
    if (!pushedBy_[block][trainer])
      continue;
    Tensor &gradient = received_[block][trainer];
    ++contributors;
    if (program_.takesRows(block)) {
      ids.push_back(&receivedIds_[block][trainer]);
      rows.push_back(&gradient);
    } else if (!sum) {
      // Dense gradients add up into the first one.
      sum = &gradient;
    } else {
      OPENKS_RETURN_IF_ERROR(kernels::add(*sum, gradient, *sum));
    }
  }
  if (rows.empty())
    return Status::ok();
  // Rows add up a row at a time, in trainer order too: exactly the rows
  // of the dense sum.
  Tensor &summed = summedRows_[block];
  if (summed.dtype() != rows.front()->dtype())
    summed = Tensor(rows.front()->dtype(), Shape{0});
  if (summedIds_[block].dtype() != DType::I64)
    summedIds_[block] = Tensor(DType::I64, Shape{0});
  OPENKS_RETURN_IF_ERROR(kernels::mergeRows(ids, rows, program_.shape(block),
                                            summedIds_[block], summed));
  sum = &summed;
  sumIds = &summedIds_[block];
  return Status::ok();
}

Status ParameterServer::applyBlock(int block) {
  begun_[block] = false;
  squares_[block] = 0;
  std::lock_guard<std::mutex> blockLock(blockLocks_[block]);
  Tensor *sum, *sumIds;
  int contributors;
  OPENKS_RETURN_IF_ERROR(sumStep(block, sum, sumIds, contributors));
  if (!sum)
    return Status::ok();
  // The update averages over fan_in trainers; when some have finished,
  // scale the sum so that it averages over those that contributed.
  if (contributors < config_.trainers)
    OPENKS_RETURN_IF_ERROR(kernels::scale(
        *sum, static_cast<double>(config_.trainers) / contributors, *sum));
  if (!program_.clipNorm(block))
    return program_.update(block, *sum, sumIds);
  OPENKS_RETURN_IF_ERROR(
      program_.beginUpdate(block, *sum, sumIds, squares_[block]));
  begun_[block] = true;
  return Status::ok();
}

Status ParameterServer::applyStep() {
  int numBlocks = program_.numBlocks();
  if (updatePool_) {
    std::vector<Status> results(numBlocks);
    updatePool_->run(numBlocks,
                     [&](int block) { results[block] = applyBlock(block); });
    for (const Status &result : results)
      OPENKS_RETURN_IF_ERROR(result);
  } else {
    for (int block = 0; block < numBlocks; ++block)
      OPENKS_RETURN_IF_ERROR(applyBlock(block));
  }
  // Shares add up in block order, so that runs are reproducible.
  std::fill(shares_.begin(), shares_.end(), 0.0);
  for (int block = 0; block < numBlocks; ++block)
    if (begun_[block])
      shares_[*program_.clipNorm(block)] += squares_[block];
  return Status::ok();
}

Status ParameterServer::finishClippedUpdates() {
  for (int block = 0; block < program_.numBlocks(); ++block) {
    if (!begun_[block])
      continue;
    std::lock_guard<std::mutex> blockLock(blockLocks_[block]);
    OPENKS_RETURN_IF_ERROR(
        program_.endUpdate(block, *norms_[*program_.clipNorm(block)]));
  }
  return Status::ok();
}

void ParameterServer::startServing() {
  ++stats_.steps;
  callerUpdates_ = false;
  phase_ = Phase::Serving;
  phaseStart_ = Deadline::Clock::now();
  advance();
  changed_.notify_all();
}

std::string ParameterServer::listSilent(Deadline::Clock::time_point now) const {
  std::vector<int> silent;
  for (int trainer = 0; trainer < config_.trainers; ++trainer)
    if (live_[trainer] && now - lastHeard_[trainer] > config_.timeout)
      silent.push_back(trainer);
  return silent.empty() ? std::string() : describeTrainers(silent);
}

bool ParameterServer::failIfStalled(Deadline::Clock::time_point now) {
  if (config_.mode != SyncMode::Sync) {
    // Trainers talk to the server on their own; it only watches that none
    // falls silent.
    std::string silent = listSilent(now);
    if (silent.empty())
      return false;
    fail(Status::error(StatusCode::DeadlineExceeded,
                       "{}: {} sent nothing for {} ms", config_.name, silent,
                       config_.timeout.count()));
    return true;
  }
  // Updates take their time; updates left to the trainer wait for it.
  if (((phase_ == Phase::Updating || phase_ == Phase::Finishing) &&
       (updating_ || !callerUpdates_)) ||
      now - phaseStart_ < config_.timeout)
    return false;
  if (phase_ == Phase::Reducing) {
    std::vector<bool> gave(config_.trainers);
    for (int trainer = 0; trainer < config_.trainers; ++trainer)
      gave[trainer] = gaveAllNorms(trainer);
    fail(Status::error(StatusCode::DeadlineExceeded,
                       "{}: {} did not give the norms of step {} within {} ms",
                       config_.name, listWaiting(gave), step_,
                       config_.timeout.count()));
    return true;
  }
  bool receiving = phase_ == Phase::Receiving;
  fail(Status::error(
      StatusCode::DeadlineExceeded,
      "{}: {} did not reach the {} barrier of step {} within {} ms",
      config_.name, listWaiting(receiving ? sentBarrier_ : fetched_),
      receiving ? "send" : "fetch", step_, config_.timeout.count()));
  return true;
}

/// Returns the helpers with which a sync server of `program` applies its
/// blocks' updates in parallel, on the calling thread's compute budget; null
/// when it has one thread, one block, updates that depend on each other,
/// or no helper can start (it then updates one block after the other).
static std::unique_ptr<TaskPool> makeUpdatePool(const ServerConfig &config,
                                                const ServerProgram &program) {
  int helpers = std::min(getComputeThreads(), program.numBlocks()) - 1;
  if (config.mode != SyncMode::Sync || helpers < 1 ||
      !program.areUpdatesIndependent())
    return nullptr;
  StatusOr<std::unique_ptr<TaskPool>> pool =
      TaskPool::create(helpers, config.name);
  return pool ? std::move(*pool) : nullptr;
}

void ParameterServer::runUpdates(std::unique_lock<std::mutex> &lock) {
  bool finishing = phase_ == Phase::Finishing;
  updating_ = true;
  lock.unlock();
  // The updates run on the server's compute budget whichever thread runs
  // them.
  int budget = getComputeThreads();
  setComputeThreads(serveThreads_);
  Status status = finishing ? finishClippedUpdates() : applyStep();
  setComputeThreads(budget);
  lock.lock();
  updating_ = false;
  if (!status.isOk()) {
    fail(status.withContext(config_.name));
    return;
  }
  if (finishing || program_.numNorms() == 0) {
    startServing();
    return;
  }
  // The updates that clip wait for the trainers' norms.
  for (std::vector<std::optional<double>> &given : givenNorms_)
    std::fill(given.begin(), given.end(), std::nullopt);
  std::fill(norms_.begin(), norms_.end(), std::nullopt);
  phase_ = Phase::Reducing;
  phaseStart_ = Deadline::Clock::now();
  advance();
  changed_.notify_all();
}

Status ParameterServer::serve() {
  std::unique_ptr<TaskPool> pool = makeUpdatePool(config_, program_);
  std::unique_lock<std::mutex> lock(mutex_);
  updatePool_ = std::move(pool);
  serveThreads_ = getComputeThreads();
  serving_ = true;
  while (true) {
    if (!failure_.isOk())
      return failure_;
    if (numLive() == 0)
      return Status::ok();
    if (failIfStalled(Deadline::Clock::now()))
      continue;
    if (config_.mode != SyncMode::Sync) {
      serverWork_.wait_for(lock, config_.timeout / 4);
      continue;
    }
    if (!callerUpdates_ && hasPendingUpdates()) {
      runUpdates(lock);
      continue;
    }
    // While the trainer's thread updates, nothing stalls: look again a
    // timeout later.
    Deadline::Clock::time_point from =
        updating_ ? Deadline::Clock::now() : phaseStart_;
    serverWork_.wait_until(lock, from + config_.timeout);
  }
}

ParameterServer::Stats ParameterServer::stats() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return stats_;
}
