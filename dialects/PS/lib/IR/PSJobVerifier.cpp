//===- PSJobVerifier.cpp - Whole-job checks of a worker -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A parameter-server job fails at run time, as a hang, when its two sides
// disagree: a server waits for a gradient nobody sends or for a barrier
// that never comes. These checks reject such a job when it is verified.
//
//===----------------------------------------------------------------------===//

#include "PSJobVerifier.h"
#include "openks/Dialect/PS/IR/PSNaming.h"
#include "openks/Support/Endpoint.h"

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace openks;
using namespace openks::ps;

namespace {

/// The communication ops of one step, in program order.
struct StepTraffic {
  /// Starts the traffic of `step`, which plays `role`, with no ops.
  StepTraffic(train::StepOp step, StringRef role) : step(step), role(role) {}

  train::StepOp step;
  /// "main", "startup" or "geo_push".
  StringRef role;
  SmallVector<SendOp> sends;
  SmallVector<RecvOp> recvs;
  SmallVector<PrefetchOp> prefetches;
  SmallVector<SendBarrierOp> sendBarriers;
  SmallVector<FetchBarrierOp> fetchBarriers;
  SmallVector<ReduceNormOp> normReductions;
};

/// The barriers a step must end its sends and its receives with.
struct BarrierRule {
  bool afterSends;
  bool afterRecvs;
};

/// Checks one job; see verifyJob.
class JobVerifier {
public:
  explicit JobVerifier(WorkerOp worker)
      : worker(worker), module(cast<ModuleOp>(worker->getParentOp())) {}

  LogicalResult verify(WorkerSteps steps);

private:
  LogicalResult verifyServers();
  LogicalResult collectTraffic(WorkerSteps steps);
  LogicalResult verifySends(StepTraffic &traffic);
  LogicalResult verifyBarriers(StepTraffic &traffic);
  LogicalResult verifyNormReductions(StepTraffic &traffic);
  LogicalResult verifyUpdatesFed();
  LogicalResult verifyOwnership();

  /// Returns the barriers `role` needs in the job's mode.
  BarrierRule getBarrierRule(StringRef role) const;

  WorkerOp worker;
  ModuleOp module;
  JobAttr job;
  SmallVector<ServerOp> servers;
  SmallVector<StepTraffic, 3> traffic;
  /// The update region of each (server, block).
  llvm::DenseMap<std::pair<Attribute, Attribute>, UpdateOp> updates;
  /// The update regions some step sends to.
  llvm::DenseSet<Operation *> fed;
  /// The servers that declare each shared norm, in module order.
  llvm::MapVector<StringAttr, SmallVector<StringAttr>> normHolders;
};

} // namespace

/// Returns "@a, @b" for the servers in `names`.
static std::string listServers(ArrayRef<StringAttr> names) {
  std::string text;
  for (StringAttr name : names)
    text += (text.empty() ? "@" : ", @") + name.str();
  return text;
}

LogicalResult JobVerifier::verifyServers() {
  StatusOr<std::vector<std::string>> endpoints =
      canonicalEndpointList(job.getEndpointNames(), "the job's endpoints");
  if (!endpoints)
    return train::emitOpErrorAt(worker) << endpoints.status().message();

  llvm::StringMap<ServerOp> byEndpoint;
  for (ServerOp server : module.getOps<ServerOp>()) {
    servers.push_back(server);
    // The server's own verifier has checked the endpoint's form.
    std::string endpoint = parseEndpoint(server.getEndpoint())->str();
    if (!llvm::is_contained(*endpoints, endpoint))
      return train::emitOpErrorAt(server)
             << "listens on " << endpoint
             << ", which is not an endpoint of the job";
    if (auto [it, inserted] = byEndpoint.try_emplace(endpoint, server);
        !inserted)
      return train::emitOpErrorAt(server)
             << "listens on " << endpoint << " like @"
             << it->second.getSymName();
    if (server.getNumTrainers() != job.getTrainers())
      return train::emitOpErrorAt(server)
             << "expects " << server.getNumTrainers()
             << " trainers, but the job has " << job.getTrainers();
    if (server.getMode() != job.getMode())
      return train::emitOpErrorAt(server)
             << "synchronises in mode " << stringifyMode(server.getMode())
             << ", but the job's mode is " << stringifyMode(job.getMode());
    for (UpdateOp update : server.getBody().getOps<UpdateOp>())
      updates[{server.getSymNameAttr(), update.getBlockAttr().getAttr()}] =
          update;
    for (NormOp norm : server.getBody().getOps<NormOp>())
      normHolders[norm.getSymNameAttr()].push_back(server.getSymNameAttr());
  }
  for (const std::string &endpoint : *endpoints)
    if (!byEndpoint.count(endpoint))
      return train::emitOpErrorAt(worker) << "belongs to a job whose endpoint "
                                          << endpoint << " has no 'ps.server'";
  return success();
}

LogicalResult JobVerifier::collectTraffic(WorkerSteps steps) {
  llvm::DenseMap<Operation *, StepTraffic *> byStep;
  traffic.emplace_back(steps.main, "main");
  traffic.emplace_back(steps.startup, "startup");
  if (steps.geoPush)
    traffic.emplace_back(steps.geoPush, "geo_push");
  for (StepTraffic &step : traffic)
    byStep[step.step] = &step;

  WalkResult result = worker.walk([&](Operation *op) {
    if (!isa<SendOp, RecvOp, PrefetchOp, SendBarrierOp, FetchBarrierOp,
             ReduceNormOp>(op))
      return WalkResult::advance();
    auto step = op->getParentOfType<train::StepOp>();
    StepTraffic *owner = byStep.lookup(step);
    if (!owner) {
      op->emitOpError("communicates outside the worker's main, startup and "
                      "geo_push steps");
      return WalkResult::interrupt();
    }
    if (auto send = dyn_cast<SendOp>(op))
      owner->sends.push_back(send);
    else if (auto recv = dyn_cast<RecvOp>(op))
      owner->recvs.push_back(recv);
    else if (auto prefetch = dyn_cast<PrefetchOp>(op))
      owner->prefetches.push_back(prefetch);
    else if (auto barrier = dyn_cast<SendBarrierOp>(op))
      owner->sendBarriers.push_back(barrier);
    else if (auto reduction = dyn_cast<ReduceNormOp>(op))
      owner->normReductions.push_back(reduction);
    else
      owner->fetchBarriers.push_back(cast<FetchBarrierOp>(op));
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

LogicalResult JobVerifier::verifySends(StepTraffic &step) {
  // The kind of message each step sends, if any.
  std::optional<MessageKind> expected;
  if (step.role == "main" && job.getMode() != Mode::Geo)
    expected = MessageKind::Grad;
  else if (step.role == "geo_push")
    expected = MessageKind::Delta;

  llvm::DenseSet<std::pair<Attribute, Attribute>> sent;
  for (SendOp send : step.sends) {
    if (send.getKind() != expected) {
      InFlightDiagnostic diag =
          send.emitOpError("sends a ")
          << describeMessageKind(send.getKind()) << " in the " << step.role
          << " step of a worker in " << stringifyMode(job.getMode()) << " mode";
      if (expected)
        diag << ", which sends only " << describeMessageKind(*expected) << "s";
      else
        diag << ", which sends nothing";
      return diag;
    }
    std::pair<Attribute, Attribute> key = {send.getTarget().getRootReference(),
                                           send.getTarget().getLeafReference()};
    if (!sent.insert(key).second)
      return send.emitOpError("sends to ")
             << send.getTarget() << " a second time in step @"
             << step.step.getSymName();
    UpdateOp update = updates.lookup(key);
    if (!update)
      return send.emitOpError("sends a ")
             << describeMessageKind(send.getKind()) << " to "
             << send.getTarget() << ", but server @"
             << send.getTarget().getRootReference().getValue()
             << " has no update region for the block";
    // A block's update takes either whole values or row-sparse ones.
    Type received = update.getBody().getArgument(0).getType();
    if (send.getValue().getType() != received)
      return send.emitOpError("sends ")
             << send.getValue().getType() << " to " << send.getTarget()
             << ", whose update region receives " << received;
    fed.insert(update);
  }
  return success();
}

BarrierRule JobVerifier::getBarrierRule(StringRef role) const {
  if (role == "startup")
    return {/*afterSends=*/false, /*afterRecvs=*/true};
  if (role == "geo_push")
    return {false, false};
  switch (job.getMode()) {
  case Mode::Sync:
    return {true, true};
  case Mode::HalfAsync:
    return {true, false};
  case Mode::Async:
  case Mode::Geo:
    return {false, false};
  }
  llvm_unreachable("unknown mode");
}

/// Returns the servers `ops` talk to, in order of first appearance.
template <typename OpT>
static SmallVector<StringAttr> targetServers(ArrayRef<OpT> ops) {
  llvm::SetVector<StringAttr> servers;
  for (OpT op : ops)
    servers.insert(op.getServerAttr().getAttr());
  return servers.takeVector();
}

/// Checks that a step has the barrier `rule` asks for, at most one, and
/// that it lists exactly `talkedTo`. `what` names the traffic ("sends to",
/// "receives from").
template <typename BarrierT>
static LogicalResult
verifyBarrierSet(StepTraffic &step, ArrayRef<BarrierT> barriers, bool required,
                 ArrayRef<StringAttr> talkedTo, StringRef what, ps::Mode mode) {
  StringRef name = BarrierT::getOperationName();
  if (barriers.size() > 1)
    return BarrierT(barriers[1]).emitOpError("is the second '")
           << name << "' of step @" << step.step.getSymName();
  bool needed = required && !talkedTo.empty();
  if (barriers.empty()) {
    if (needed)
      return train::emitOpErrorAt(step.step)
             << "is the " << step.role << " step of a worker in "
             << stringifyMode(mode) << " mode and " << what << " "
             << listServers(talkedTo) << ", so it needs a '" << name
             << "' over them";
    return success();
  }
  BarrierT barrier = barriers.front();
  if (!needed)
    return barrier.emitOpError("has no place in the ")
           << step.role << " step of a worker in " << stringifyMode(mode)
           << " mode"
           << (required ? ", which " + what.str() + " no server" : "");
  llvm::DenseSet<StringAttr> listed;
  for (auto server :
       barrier.getServers().template getAsRange<FlatSymbolRefAttr>())
    listed.insert(server.getAttr());
  for (StringAttr server : talkedTo)
    if (!listed.contains(server))
      return barrier.emitOpError("does not list @")
             << server.getValue() << ", which the step " << what;
  llvm::DenseSet<StringAttr> talked(talkedTo.begin(), talkedTo.end());
  for (StringAttr server : listed)
    if (!talked.contains(server))
      return barrier.emitOpError("lists @")
             << server.getValue() << ", which the step never " << what;
  return success();
}

LogicalResult JobVerifier::verifyBarriers(StepTraffic &step) {
  BarrierRule rule = getBarrierRule(step.role);
  SmallVector<StringAttr> sentTo = targetServers<SendOp>(step.sends);
  // A sync step's fetch barrier also lets the servers it prefetched from
  // move on, and a sync startup's every server the main step sends to
  // (which opens its first step), whether or not the startup pulls from it.
  SmallVector<StringAttr> receivedFrom = targetServers<RecvOp>(step.recvs);
  SmallVector<StringAttr> alsoFetched =
      targetServers<PrefetchOp>(step.prefetches);
  if (step.role == "startup" && job.getMode() == Mode::Sync)
    for (StepTraffic &other : traffic)
      if (other.role == "main")
        llvm::append_range(alsoFetched, targetServers<SendOp>(other.sends));
  for (StringAttr server : alsoFetched)
    if (!llvm::is_contained(receivedFrom, server))
      receivedFrom.push_back(server);
  if (failed(verifyBarrierSet<SendBarrierOp>(step, step.sendBarriers,
                                             rule.afterSends, sentTo,
                                             "sends to", job.getMode())) ||
      failed(verifyBarrierSet<FetchBarrierOp>(step, step.fetchBarriers,
                                              rule.afterRecvs, receivedFrom,
                                              "receives from", job.getMode())))
    return failure();

  // A send barrier closes the step's sends and opens its receives; a fetch
  // barrier closes its receives.
  if (!step.sendBarriers.empty()) {
    SendBarrierOp barrier = step.sendBarriers.front();
    for (SendOp send : step.sends)
      if (barrier->isBeforeInBlock(send))
        return send.emitOpError("comes after the step's 'ps.send_barrier', "
                                "which must follow every send");
    for (RecvOp recv : step.recvs)
      if (recv->isBeforeInBlock(barrier))
        return recv.emitOpError("comes before the step's "
                                "'ps.send_barrier', so it would read the "
                                "block before the step's update");
    for (PrefetchOp prefetch : step.prefetches)
      if (barrier->isBeforeInBlock(prefetch))
        return prefetch.emitOpError("comes after the step's "
                                    "'ps.send_barrier', so it could read "
                                    "rows in the middle of the step's update");
  }
  if (!step.fetchBarriers.empty()) {
    FetchBarrierOp barrier = step.fetchBarriers.front();
    for (RecvOp recv : step.recvs)
      if (barrier->isBeforeInBlock(recv))
        return recv.emitOpError("comes after the step's "
                                "'ps.fetch_barrier', which must follow every "
                                "receive");
    for (SendOp send : step.sends)
      if (barrier->isBeforeInBlock(send))
        return send.emitOpError("comes after the step's "
                                "'ps.fetch_barrier'");
  }
  return success();
}

LogicalResult JobVerifier::verifyNormReductions(StepTraffic &step) {
  bool reduces = step.role == "main" && job.getMode() == Mode::Sync;
  if (!reduces && !step.normReductions.empty())
    return step.normReductions.front().emitOpError("has no place in the ")
           << step.role << " step of a worker in "
           << stringifyMode(job.getMode())
           << " mode: norms are shared within a sync step";
  if (!reduces)
    return success();

  llvm::DenseMap<StringAttr, ReduceNormOp> reductions;
  for (ReduceNormOp reduction : step.normReductions) {
    StringAttr norm = reduction.getNormAttr().getAttr();
    if (!reductions.try_emplace(norm, reduction).second)
      return reduction.emitOpError("reduces ")
             << reduction.getNormAttr() << " a second time in step @"
             << step.step.getSymName();
    // The symbol check has made sure that every listed server declares it.
    auto holders = normHolders.find(norm);
    SmallVector<StringAttr> listed;
    for (auto server : reduction.getServers().getAsRange<FlatSymbolRefAttr>())
      listed.push_back(server.getAttr());
    for (StringAttr holder : holders->second)
      if (!llvm::is_contained(listed, holder))
        return reduction.emitOpError("does not list @")
               << holder.getValue() << ", which declares "
               << reduction.getNormAttr();
    // A norm is complete once the step's gradients are in, and the
    // servers need it before they can be read.
    if (step.sendBarriers.empty() ||
        reduction->isBeforeInBlock(step.sendBarriers.front()))
      return reduction.emitOpError("must follow the step's "
                                   "'ps.send_barrier': a server's share is "
                                   "known once the step's gradients are in");
    for (RecvOp recv : step.recvs)
      if (recv->isBeforeInBlock(reduction))
        return recv.emitOpError("comes before the step's 'ps.reduce_norm' ")
               << "of " << reduction.getNormAttr()
               << ", without which the servers cannot finish their updates";
  }
  for (auto &[norm, holders] : normHolders)
    if (!reductions.count(norm))
      return train::emitOpErrorAt(step.step)
             << "is the main step of a sync worker whose servers "
             << listServers(holders) << " clip by the shared norm @"
             << norm.getValue() << ", so it needs a 'ps.reduce_norm' of it";
  return success();
}

LogicalResult JobVerifier::verifyUpdatesFed() {
  for (ServerOp server : servers)
    for (UpdateOp update : server.getBody().getOps<UpdateOp>())
      if (!fed.contains(update))
        return update.emitOpError("is never run: the worker's ")
               << (update.getKind() == MessageKind::Delta ? "geo_push" : "main")
               << " step sends no " << describeMessageKind(update.getKind())
               << " to @" << server.getSymName()
               << "::" << update.getBlockAttr();
  return success();
}

/// Returns whether `a` and `b` can be copies of one replicated block: whole,
/// frozen, of one type and initializer.
static bool areReplicas(BlockOp a, BlockOp b) {
  return !a.isSlice() && !b.isSlice() && !a.isTrainable() && !b.isTrainable() &&
         a.getType() == b.getType() && a.getInitializer() == b.getInitializer();
}

LogicalResult JobVerifier::verifyOwnership() {
  struct Rows {
    int64_t begin, end;
    BlockOp block;
    ServerOp server;
  };
  llvm::StringMap<std::pair<BlockOp, ServerOp>> whole;
  llvm::StringMap<SmallVector<Rows>> slices;
  for (ServerOp server : servers) {
    for (BlockOp block : server.getBody().getOps<BlockOp>()) {
      if (block.isSlice()) {
        auto [begin, end] = block.getRows();
        slices[block.getOriginName()].push_back({begin, end, block, server});
        continue;
      }
      auto [it, inserted] =
          whole.try_emplace(block.getSymName(), block, server);
      if (!inserted && !areReplicas(it->second.first, block))
        return block.emitOpError("is also held by @")
               << it->second.second.getSymName()
               << "; only whole frozen blocks of one type and initializer "
                  "may be kept by several servers";
    }
  }
  for (auto &[origin, rows] : slices) {
    if (auto it = whole.find(origin); it != whole.end())
      return rows.front().block.emitOpError("is a slice of @")
             << origin << ", which @" << it->second.second.getSymName()
             << " holds whole";
    llvm::sort(rows,
               [](const Rows &a, const Rows &b) { return a.begin < b.begin; });
    for (auto [previous, next] : llvm::zip(rows, llvm::drop_begin(rows)))
      if (next.begin < previous.end)
        return next.block.emitOpError("holds rows [")
               << next.begin << ", " << next.end << ") of @" << origin
               << ", which overlap rows [" << previous.begin << ", "
               << previous.end << ") held by @" << previous.server.getSymName()
               << " as @" << previous.block.getSymName();
  }
  return success();
}

LogicalResult JobVerifier::verify(WorkerSteps steps) {
  job = module->getAttrOfType<JobAttr>(JobAttr::kAttrName);
  if (!job)
    return train::emitOpErrorAt(worker)
           << "needs the module's '" << JobAttr::kAttrName
           << "' to check its servers against";
  bool geo = job.getMode() == Mode::Geo;
  if (geo && !steps.geoPush)
    return train::emitOpErrorAt(worker)
           << "is a geo worker and needs a geo_push step";
  if (!geo && steps.geoPush)
    return train::emitOpErrorAt(worker)
           << "has a geo_push step, but the job's mode is "
           << stringifyMode(job.getMode());
  if (failed(verifyServers()) || failed(collectTraffic(steps)))
    return failure();
  for (StepTraffic &step : traffic)
    if (failed(verifySends(step)) || failed(verifyBarriers(step)) ||
        failed(verifyNormReductions(step)))
      return failure();
  return failure(failed(verifyUpdatesFed()) || failed(verifyOwnership()));
}

LogicalResult ps::verifyJob(WorkerOp worker, WorkerSteps steps) {
  return JobVerifier(worker).verify(steps);
}
