//===- ServerRole.cpp - A server's program over its parameters ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ServerRole.h"

#include <cstring>
#include <fmt/format.h>
#include <mutex>
#include <shared_mutex>

using namespace openks;
using namespace openks::runtime;

/// Returns whether no two blocks of `spec` share an update and no update
/// writes a parameter that another one reads or writes.
static bool areIndependent(const ServerProgramSpec &spec) {
  std::vector<int> users(spec.store.size()), writers(spec.store.size());
  std::vector<bool> used(spec.updates.size());
  for (const ServerBlockSpec &block : spec.blocks) {
    if (!block.update)
      continue;
    if (used[*block.update])
      return false;
    used[*block.update] = true;
    for (const Plan::ParameterAccess &access :
         spec.updates[*block.update].accesses()) {
      ++users[access.parameter];
      writers[access.parameter] += access.write;
    }
  }
  for (size_t parameter = 0; parameter < users.size(); ++parameter)
    if (writers[parameter] > 0 && users[parameter] > 1)
      return false;
  return true;
}

StatusOr<std::unique_ptr<ServerRole>>
ServerRole::create(ServerProgramSpec &spec, const std::string &name) {
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
      return executor.status().withContext(name);
    role->updates_.push_back(std::move(*executor));
  }
  role->independent_ = areIndependent(spec);
  return role;
}

std::string_view ServerRole::blockName(int block) const {
  return spec_.store[spec_.blocks[block].parameter].name;
}

DType ServerRole::dtype(int block) const { return dtypes_[block]; }

const Shape &ServerRole::shape(int block) const { return shapes_[block]; }

StatusOr<Executor *> ServerRole::startUpdate(int block) {
  const ServerBlockSpec &target = spec_.blocks[block];
  if (!target.update)
    return Status::invalidArgument("block {} has no update", blockName(block));
  int64_t count = ++updateCount_;
  if (faultAt_ && count == *faultAt_)
    return Status::error(StatusCode::Internal,
                         "injected fault in update {} (block {})", count,
                         blockName(block));
  return &updates_[*target.update];
}

Status ServerRole::runUpdate(int block, Executor &executor,
                             std::optional<size_t> stage) {
  // Every push runs an update: the context is formatted only on failure.
  if (Status status = stage ? executor.runStage(*stage) : executor.run();
      !status.isOk())
    return status.withContext(
        fmt::format("updating block {}", blockName(block)));
  return Status::ok();
}

void ServerRole::feed(Executor &executor, Tensor &received, Tensor *rowIds) {
  // The executor's input buffers and the received ones change hands.
  std::swap(*executor.inputs()[0], received);
  if (rowIds)
    std::swap(*executor.inputs()[1], *rowIds);
}

Status ServerRole::update(int block, Tensor &received, Tensor *rowIds) {
  StatusOr<Executor *> executor = startUpdate(block);
  if (!executor)
    return executor.status();
  feed(**executor, received, rowIds);
  return runUpdate(block, **executor, std::nullopt);
}

Status ServerRole::beginUpdate(int block, Tensor &received, Tensor *rowIds,
                               double &squares) {
  if (!clipNorm(block))
    return ServerProgram::beginUpdate(block, received, rowIds, squares);
  StatusOr<Executor *> executor = startUpdate(block);
  if (!executor)
    return executor.status();
  feed(**executor, received, rowIds);
  OPENKS_RETURN_IF_ERROR(runUpdate(block, **executor, 0));
  squares = *(*executor)->outputs().front()->data<double>();
  return Status::ok();
}

Status ServerRole::endUpdate(int block, double norm) {
  if (!clipNorm(block))
    return ServerProgram::endUpdate(block, norm);
  Executor &executor = updates_[*spec_.blocks[block].update];
  Tensor &input = *executor.inputs().back();
  input.resize(Shape{});
  *input.data<double>() = norm;
  return runUpdate(block, executor, 1);
}

Status ServerRole::readRows(int block, const Tensor &rowIds, Tensor &out) {
  ParameterId parameter = spec_.blocks[block].parameter;
  std::shared_lock<std::shared_mutex> lock(spec_.store.mutex(parameter));
  const Tensor &value = spec_.store[parameter].value;
  Shape shape = value.shape();
  shape[0] = rowIds.numel();
  out.resize(shape);
  size_t rowBytes = shape.rowWidth() * dtypeSize(value.dtype());
  const auto *source = static_cast<const std::byte *>(value.rawData());
  auto *target = static_cast<std::byte *>(out.rawData());
  const int64_t *ids = rowIds.data<int64_t>();
  for (int64_t row = 0, e = rowIds.numel(); row < e; ++row)
    std::memcpy(target + row * rowBytes, source + ids[row] * rowBytes,
                rowBytes);
  return Status::ok();
}

Status ServerRole::read(int block, Tensor &out) {
  ParameterId parameter = spec_.blocks[block].parameter;
  std::shared_lock<std::shared_mutex> lock(spec_.store.mutex(parameter));
  out.copyFrom(spec_.store[parameter].value);
  return Status::ok();
}
