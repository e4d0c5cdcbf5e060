//===- Executor.cpp - Runs a plan over a parameter store ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Executor.h"

#include <cassert>
#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

namespace {

/// Holds the locks of the parameters a plan touches for as long as it
/// lives: taken in the plan's (ascending) order, released in reverse.
class ParameterLocks {
public:
  ParameterLocks(const Plan &plan, const ParameterStore &store)
      : plan(plan), store(store) {
    for (const Plan::ParameterAccess &access : plan.accesses()) {
      std::shared_mutex &mutex = store.mutex(access.parameter);
      if (access.write)
        mutex.lock();
      else
        mutex.lock_shared();
    }
  }

  ~ParameterLocks() {
    const std::vector<Plan::ParameterAccess> &accesses = plan.accesses();
    for (auto it = accesses.rbegin(), e = accesses.rend(); it != e; ++it) {
      std::shared_mutex &mutex = store.mutex(it->parameter);
      if (it->write)
        mutex.unlock();
      else
        mutex.unlock_shared();
    }
  }

  ParameterLocks(const ParameterLocks &) = delete;
  ParameterLocks &operator=(const ParameterLocks &) = delete;

private:
  const Plan &plan;
  const ParameterStore &store;
};

} // namespace

StatusOr<Executor> Executor::create(const Plan &plan, ParameterStore &store,
                                    const CommunicationContext *communication) {
  assert(plan.numParameters() == store.size() &&
         "the store does not have the parameters of the plan");
  Executor executor(plan, store);
  const std::vector<Plan::Buffer> &buffers = plan.buffers();
  executor.buffers_.reserve(buffers.size());
  for (size_t id = 0, e = buffers.size(); id < e; ++id) {
    StatusOr<Tensor> buffer = Tensor::allocate(buffers[id].dtype, Shape{0});
    Status reserved =
        buffer ? buffer->tryReserve(buffers[id].capacity) : buffer.status();
    if (!reserved.isOk())
      return reserved.withContext(
          fmt::format("allocating buffer {} of a plan", id));
    executor.buffers_.push_back(std::move(*buffer));
  }

  const std::vector<Plan::Slot> &slots = plan.slots();
  executor.views_.reserve(slots.size());
  executor.slots_.reserve(slots.size());
  for (const Plan::Slot &slot : slots) {
    if (!slot.parameter) {
      Tensor &buffer = executor.buffers_[*slot.buffer];
      if (slot.constant)
        buffer.copyFrom(plan.constants()[*slot.constant]);
      executor.slots_.push_back(&buffer);
      continue;
    }
    Tensor &value = store[*slot.parameter].value;
    assert(value.dtype() == slot.dtype &&
           (slot.rows || value.numel() == slot.capacity) &&
           "the store's parameter differs from the plan's");
    if (!slot.rows) {
      executor.slots_.push_back(&value);
      continue;
    }
    executor.slots_.push_back(&executor.views_.emplace_back(
        Tensor::viewRows(value, slot.rows->first, slot.rows->count)));
  }

  // The vectors' elements keep their addresses when the executor moves, so
  // the bound calls may keep pointers to them.
  Frame frame(executor.slots_, store, communication);
  executor.kernels_.reserve(plan.instructions().size());
  for (const Plan::Instruction &instruction : plan.instructions())
    executor.kernels_.push_back(instruction.bind(frame));
  for (SlotId id : plan.inputSlots())
    executor.inputs_.push_back(executor.slots_[id]);
  for (SlotId id : plan.outputSlots())
    executor.outputs_.push_back(executor.slots_[id]);
  return executor;
}

Status Executor::run() { return runRange(0, kernels_.size()); }

Status Executor::runStage(size_t stage) {
  assert(stage < plan_->numStages() && "no such stage");
  auto [begin, end] = plan_->getStage(stage);
  return runRange(begin, end);
}

Status Executor::runRange(size_t begin, size_t end) {
  ParameterLocks locks(*plan_, *store_);
  const std::vector<Plan::Instruction> &instructions = plan_->instructions();
  for (size_t i = begin; i < end; ++i) {
    Status status = kernels_[i]();
    if (!status.isOk())
      return status.withContext(instructions[i].where);
  }
  return Status::ok();
}
