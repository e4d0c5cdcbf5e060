//===- WorkerRole.cpp - One trainer running the worker program ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/WorkerRole.h"

#include "openks/Runtime/Checkpoint.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

StatusOr<std::unique_ptr<WorkerRole>>
WorkerRole::create(const WorkerSpec &spec, Transport &transport, int trainer,
                   std::chrono::milliseconds timeout) {
  StatusOr<ParameterStore> store = spec.store.cloneLayout();
  if (!store)
    return store.status();
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
