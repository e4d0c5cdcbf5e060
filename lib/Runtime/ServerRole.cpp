//===- ServerRole.cpp - A server's program over its parameters ------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ServerRole.h"

#include <fmt/format.h>
#include <mutex>
#include <shared_mutex>

using namespace openks;
using namespace openks::runtime;

StatusOr<std::unique_ptr<ServerRole>> ServerRole::create(ServerSpec &spec) {
  std::unique_ptr<ServerRole> role(new ServerRole(spec));
  for (const ServerBlockSpec &block : spec.blocks) {
    const Tensor &value = spec.store[block.parameter].value;
    role->dtypes_.push_back(value.dtype());
    role->shapes_.push_back(value.shape());
  }
  role->updates_.reserve(spec.updates.size());
  for (const Plan &plan : spec.updates) {
    StatusOr<Executor> executor = Executor::create(plan, spec.store);
    if (!executor)
      return executor.status().withContext(spec.name);
    role->updates_.push_back(std::move(*executor));
  }
  return role;
}

std::string_view ServerRole::blockName(int block) const {
  return spec_.store[spec_.blocks[block].parameter].name;
}

DType ServerRole::dtype(int block) const { return dtypes_[block]; }

const Shape &ServerRole::shape(int block) const { return shapes_[block]; }

Status ServerRole::update(int block, Tensor &received) {
  const ServerBlockSpec &target = spec_.blocks[block];
  if (!target.update)
    return Status::invalidArgument("block {} has no update",
                                   blockName(block));
  int64_t count = ++updateCount_;
  if (faultAt_ && count == *faultAt_)
    return Status::error(StatusCode::Internal,
                         "injected fault in update {} (block {})", count,
                         blockName(block));
  Executor &executor = updates_[*target.update];
  // The executor's input buffer and the received one change hands.
  std::swap(*executor.inputs().front(), received);
  // Every push runs an update: the context is formatted only on failure.
  if (Status status = executor.run(); !status.isOk())
    return status.withContext(
        fmt::format("updating block {}", blockName(block)));
  return Status::ok();
}

Status ServerRole::read(int block, Tensor &out) {
  ParameterId parameter = spec_.blocks[block].parameter;
  std::shared_lock<std::shared_mutex> lock(spec_.store.mutex(parameter));
  out.copyFrom(spec_.store[parameter].value);
  return Status::ok();
}
