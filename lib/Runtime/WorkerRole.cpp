//===- WorkerRole.cpp - One trainer running the worker program ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/WorkerRole.h"

#include "openks/Runtime/Checkpoint.h"

#include <algorithm>
#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

/// Returns, for each parameter of `spec`'s store, the block whose storage
/// it may be (see Plan::BlockReceive): the one block that every kernel call
/// of the worker's plans writing the parameter receives whole as it.
static std::vector<std::optional<BlockAddress>>
findReceivedBlocks(const WorkerSpec &spec) {
  size_t count = spec.store.size();
  std::vector<std::optional<BlockAddress>> blocks(count);
  std::vector<bool> writtenOtherwise(count);
  for (ParameterId local : spec.localVariables)
    writtenOtherwise[local] = true;
  auto visit = [&](const Plan &plan) {
    const std::vector<Plan::BlockReceive> &receives = plan.blockReceives();
    for (size_t i = 0, e = plan.instructions().size(); i < e; ++i)
      for (ParameterId written : plan.instructions()[i].writes) {
        auto receive =
            std::find_if(receives.begin(), receives.end(), [&](auto &r) {
              return r.instruction == i && r.parameter == written;
            });
        std::optional<BlockAddress> &block = blocks[written];
        if (receive == receives.end() ||
            (block && (block->server != receive->from.server ||
                       block->block != receive->from.block)))
          writtenOtherwise[written] = true;
        else
          block = receive->from;
      }
  };
  visit(spec.main);
  visit(spec.startup);
  if (spec.geoPush)
    visit(*spec.geoPush);
  for (size_t id = 0; id < count; ++id)
    if (writtenOtherwise[id])
      blocks[id].reset();
  return blocks;
}

/// Makes each parameter of `store` that a received block is, and that
/// `transport` shares, that block's storage: the trainer reads the server's
/// values in place, and its pulls of the block copy nothing.
static void borrowSharedBlocks(const WorkerSpec &spec, Transport &transport,
                               ParameterStore &store) {
  std::vector<std::optional<BlockAddress>> blocks = findReceivedBlocks(spec);
  for (ParameterId id = 0; id < blocks.size(); ++id) {
    if (!blocks[id])
      continue;
    Tensor *storage =
        transport.sharedBlock(blocks[id]->server, blocks[id]->block);
    const Tensor &value = store[id].value;
    if (storage && storage->rank() >= 1 && storage->dtype() == value.dtype() &&
        storage->shape() == value.shape())
      store.borrow(id, *storage);
  }
}

StatusOr<std::unique_ptr<WorkerRole>>
WorkerRole::create(const WorkerSpec &spec, Transport &transport, int trainer,
                   std::chrono::milliseconds timeout) {
  StatusOr<ParameterStore> store = spec.store.cloneLayout();
  if (!store)
    return store.status();
  borrowSharedBlocks(spec, transport, *store);
  std::unique_ptr<WorkerRole> role(new WorkerRole(spec, std::move(*store)));
  role->context_ = {&transport, trainer, timeout, &role->stats_,
                    /*firstRow=*/0};
  auto bind = [&](const Plan &plan,
                  std::optional<Executor> &executor) -> Status {
    StatusOr<Executor> created =
        Executor::create(plan, role->store_, &role->context_);
    if (!created)
      return created.status();
    executor.emplace(std::move(*created));
    return Status::ok();
  };
  OPENKS_RETURN_IF_ERROR(bind(spec.main, role->main_));
  OPENKS_RETURN_IF_ERROR(bind(spec.startup, role->startup_));
  if (spec.geoPush)
    OPENKS_RETURN_IF_ERROR(bind(*spec.geoPush, role->geoPush_));
  return role;
}

Status WorkerRole::start() {
  OPENKS_RETURN_IF_ERROR(store_.initialize());
  return startup_->run().withContext("the startup step");
}

Status WorkerRole::step() {
  ++steps_;
  OPENKS_RETURN_IF_ERROR(main_->run());
  if (geoPush_ && steps_ - pushedAt_ >= spec_.geoPushSteps) {
    pushedAt_ = steps_;
    return geoPush_->run().withContext("the GEO push step");
  }
  return Status::ok();
}

Status WorkerRole::flush() {
  if (geoPush_ && steps_ > pushedAt_) {
    pushedAt_ = steps_;
    OPENKS_RETURN_IF_ERROR(geoPush_->run().withContext("the last GEO push"));
  }
  return context_.transport->flush(context_.trainer,
                                   Deadline::after(context_.timeout));
}

Status WorkerRole::finish() {
  OPENKS_RETURN_IF_ERROR(flush());
  Transport &transport = *context_.transport;
  for (int server = 0; server < transport.numServers(); ++server)
    OPENKS_RETURN_IF_ERROR(transport.complete(
        server, context_.trainer, Deadline::after(context_.timeout)));
  return Status::ok();
}

Status WorkerRole::resume(const std::string &dir) {
  StatusOr<ParameterStore> local = copyLocalVariables();
  if (!local)
    return local.status();
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir, {&*local});
  if (!info)
    return info.status();
  for (size_t i = 0; i < spec_.localVariables.size(); ++i)
    store_[spec_.localVariables[i]].value.copyFrom((*local)[i].value);
  resumedAt_ = info->step;
  return Status::ok();
}

void WorkerRole::abort(const Status &status) {
  Transport &transport = *context_.transport;
  for (int server = 0; server < transport.numServers(); ++server)
    transport.abort(server, context_.trainer, status);
}
