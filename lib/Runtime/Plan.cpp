//===- Plan.cpp - Execution plans over numbered slots ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Plan.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <queue>

using namespace openks;
using namespace openks::runtime;

/// Returns whether every id in `ids` names a parameter of a store of `size`.
[[maybe_unused]] static bool areParameters(const std::vector<ParameterId> &ids,
                                           size_t size) {
  return std::all_of(ids.begin(), ids.end(),
                     [&](ParameterId id) { return id < size; });
}

SlotId Plan::Builder::addSlot(DType dtype, int64_t capacity) {
  plan_.slots_.push_back({dtype, capacity, std::nullopt, std::nullopt,
                          std::nullopt, std::nullopt});
  return plan_.slots_.size() - 1;
}

SlotId Plan::Builder::addConstantSlot(Tensor value) {
  plan_.slots_.push_back({value.dtype(), value.numel(), std::nullopt,
                          std::nullopt, plan_.constants_.size(), std::nullopt});
  plan_.constants_.push_back(std::move(value));
  return plan_.slots_.size() - 1;
}

SlotId Plan::Builder::addParameterSlot(ParameterId parameter) {
  assert(parameter < store_.size() && "no such parameter in the store");
  const Tensor &value = store_[parameter].value;
  plan_.slots_.push_back({value.dtype(), value.numel(), parameter, std::nullopt,
                          std::nullopt, std::nullopt});
  return plan_.slots_.size() - 1;
}

SlotId Plan::Builder::addParameterRowsSlot(ParameterId parameter,
                                           int64_t firstRow, int64_t rows) {
  assert(parameter < store_.size() && "no such parameter in the store");
  const Tensor &value = store_[parameter].value;
  assert(value.rank() >= 1 && firstRow >= 0 && rows >= 0 &&
         firstRow + rows <= value.dim(0) && "rows outside the parameter");
  plan_.slots_.push_back({value.dtype(), rows * value.shape().rowWidth(),
                          parameter, RowRange{firstRow, rows}, std::nullopt,
                          std::nullopt});
  return plan_.slots_.size() - 1;
}

void Plan::Builder::addInstruction(KernelBinder bind, std::string where,
                                   std::vector<SlotId> slots,
                                   std::vector<ParameterId> reads,
                                   std::vector<ParameterId> writes) {
  assert(areParameters(reads, store_.size()) &&
         areParameters(writes, store_.size()) &&
         "no such parameter in the store");
  assert(std::all_of(slots.begin(), slots.end(),
                     [&](SlotId slot) { return slot < plan_.slots_.size(); }) &&
         "no such slot");
  plan_.instructions_.push_back({std::move(bind), std::move(reads),
                                 std::move(writes), std::move(slots),
                                 std::move(where)});
}

void Plan::Builder::addBlockReceive(ParameterId parameter, BlockAddress from) {
  assert(!plan_.instructions_.empty() &&
         std::count(plan_.instructions_.back().writes.begin(),
                    plan_.instructions_.back().writes.end(), parameter) &&
         "the last call does not write the parameter");
  plan_.blockReceives_.push_back(
      {plan_.instructions_.size() - 1, parameter, from});
}

void Plan::Builder::addInput(SlotId slot, FeedSpec spec) {
  assert(slot < plan_.slots_.size() && "no such slot");
  assert(!plan_.slots_[slot].parameter && !plan_.slots_[slot].constant &&
         "an input must be a buffer slot");
  plan_.inputSlots_.push_back(slot);
  plan_.inputSpecs_.push_back(spec);
}

void Plan::Builder::addOutput(SlotId slot, std::string name) {
  assert(slot < plan_.slots_.size() && "no such slot");
  plan_.outputSlots_.push_back(slot);
  plan_.outputNames_.push_back(std::move(name));
}

/// Binds a copy of slot `from` into slot `to`.
static KernelBinder bindCopy(SlotId from, SlotId to) {
  return [from, to](const Frame &frame) -> BoundKernel {
    return [&source = frame.slot(from), &target = frame.slot(to)] {
      target.copyFrom(source);
      return Status::ok();
    };
  };
}

Plan Plan::Builder::build(bool shareBuffers) && {
  // Whatever leaves a run is the executor's own: an output that would be a
  // parameter's buffer gets a copy, made after every other kernel call.
  for (size_t i = 0, e = plan_.outputSlots_.size(); i < e; ++i) {
    SlotId &output = plan_.outputSlots_[i];
    std::optional<ParameterId> parameter = plan_.slots_[output].parameter;
    if (!parameter)
      continue;
    SlotId copy =
        addSlot(plan_.slots_[output].dtype, plan_.slots_[output].capacity);
    addInstruction(bindCopy(output, copy),
                   "fetching output '" + plan_.outputNames_[i] + "'",
                   {output, copy}, {*parameter});
    output = copy;
  }

  // The union of every access, by ascending index; a write subsumes a read.
  std::vector<ParameterAccess> &accesses = plan_.accesses_;
  for (const Slot &slot : plan_.slots_)
    if (slot.parameter)
      accesses.push_back({*slot.parameter, false});
  for (const Instruction &instruction : plan_.instructions_) {
    for (ParameterId id : instruction.reads)
      accesses.push_back({id, false});
    for (ParameterId id : instruction.writes)
      accesses.push_back({id, true});
  }
  std::sort(accesses.begin(), accesses.end(),
            [](const ParameterAccess &a, const ParameterAccess &b) {
              return a.parameter < b.parameter ||
                     (a.parameter == b.parameter && a.write > b.write);
            });
  // After sorting, the first access of each parameter is its write, if any.
  accesses.erase(
      std::unique(accesses.begin(), accesses.end(),
                  [](const ParameterAccess &a, const ParameterAccess &b) {
                    return a.parameter == b.parameter;
                  }),
      accesses.end());

  assignBuffers(shareBuffers);
  plan_.numParameters_ = store_.size();
  endStage();
  return std::move(plan_);
}

void Plan::Builder::assignBuffers(bool shareBuffers) {
  std::vector<Slot> &slots = plan_.slots_;
  std::vector<Buffer> &buffers = plan_.buffers_;
  auto addBuffer = [&](SlotId slot, int64_t capacity) {
    slots[slot].buffer = buffers.size();
    buffers.push_back({slots[slot].dtype, capacity});
  };

  // The instructions that touch each slot first and last; a run's inputs
  // and outputs, the constants and the slots kernels hand away are live
  // throughout.
  constexpr size_t kUntouched = ~size_t(0);
  std::vector<size_t> first(slots.size(), kUntouched), last(slots.size(), 0);
  for (size_t i = 0, e = plan_.instructions_.size(); i < e; ++i)
    for (SlotId slot : plan_.instructions_[i].slots) {
      first[slot] = std::min(first[slot], i);
      last[slot] = std::max(last[slot], i);
    }
  std::vector<char> ownBuffer(slots.size(), !shareBuffers);
  for (const std::vector<SlotId> *pinned :
       {&plan_.inputSlots_, &plan_.outputSlots_, &ownBuffers_})
    for (SlotId slot : *pinned)
      ownBuffer[slot] = true;

  std::vector<SlotId> shared;
  for (SlotId slot = 0, e = slots.size(); slot < e; ++slot) {
    if (slots[slot].parameter)
      continue;
    if (ownBuffer[slot] || slots[slot].constant)
      addBuffer(slot, slots[slot].capacity);
    else if (first[slot] == kUntouched)
      addBuffer(slot, 0); // Nothing reads or writes it.
    else
      shared.push_back(slot);
  }

  // Greedy, in order of first use: a slot takes the smallest free buffer of
  // its dtype that holds it, else the largest (which grows), else a new one.
  // A buffer is free once the last instruction of its slot has run, so no
  // instruction sees two slots in one buffer.
  std::stable_sort(shared.begin(), shared.end(),
                   [&](SlotId a, SlotId b) { return first[a] < first[b]; });
  using Release = std::pair<size_t, size_t>; // (last use, buffer)
  std::priority_queue<Release, std::vector<Release>, std::greater<Release>>
      busy;
  std::vector<size_t> free;
  for (SlotId slot : shared) {
    for (; !busy.empty() && busy.top().first < first[slot]; busy.pop())
      free.push_back(busy.top().second);
    Slot &layout = slots[slot];
    auto best = free.end();
    for (auto it = free.begin(); it != free.end(); ++it) {
      const Buffer &candidate = buffers[*it];
      if (candidate.dtype != layout.dtype)
        continue;
      if (best == free.end())
        best = it;
      const Buffer &chosen = buffers[*best];
      bool fits = candidate.capacity >= layout.capacity;
      bool chosenFits = chosen.capacity >= layout.capacity;
      if (fits ? !chosenFits || candidate.capacity < chosen.capacity
               : !chosenFits && candidate.capacity > chosen.capacity)
        best = it;
    }
    if (best == free.end()) {
      addBuffer(slot, layout.capacity);
    } else {
      layout.buffer = *best;
      buffers[*best].capacity =
          std::max(buffers[*best].capacity, layout.capacity);
      free.erase(best);
    }
    busy.push({last[slot], *layout.buffer});
  }
}
