//===- Executor.cpp - Runs a plan over a parameter store ------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Executor.h"

#include <cassert>

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

Executor::Executor(const Plan &plan, ParameterStore &store)
    : plan_(&plan), store_(&store) {
  assert(plan.numParameters() == store.size() &&
         "the store does not have the parameters of the plan");
  const std::vector<Plan::Slot> &slots = plan.slots();
  buffers_.resize(slots.size());
  slots_.reserve(slots.size());
  for (size_t id = 0, e = slots.size(); id < e; ++id) {
    const Plan::Slot &slot = slots[id];
    if (slot.parameter) {
      Tensor &value = store[*slot.parameter].value;
      assert(value.dtype() == slot.dtype && value.numel() == slot.capacity &&
             "the store's parameter differs from the plan's");
      slots_.push_back(&value);
      continue;
    }
    Tensor &buffer = buffers_[id];
    buffer = Tensor(slot.dtype, Shape{0});
    buffer.reserve(slot.capacity);
    if (slot.constant)
      buffer.copyFrom(plan.constants()[*slot.constant]);
    slots_.push_back(&buffer);
  }

  Frame frame(slots_, store);
  kernels_.reserve(plan.instructions().size());
  for (const Plan::Instruction &instruction : plan.instructions())
    kernels_.push_back(instruction.bind(frame));
  for (SlotId id : plan.inputSlots())
    inputs_.push_back(slots_[id]);
  for (SlotId id : plan.outputSlots())
    outputs_.push_back(slots_[id]);
}

Status Executor::run() {
  ParameterLocks locks(*plan_, *store_);
  const std::vector<Plan::Instruction> &instructions = plan_->instructions();
  for (size_t i = 0, e = kernels_.size(); i < e; ++i) {
    Status status = kernels_[i]();
    if (!status.isOk())
      return status.withContext(instructions[i].where);
  }
  return Status::ok();
}
