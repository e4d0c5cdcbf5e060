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

using namespace openks;
using namespace openks::runtime;

/// Returns whether every id in `ids` names a parameter of a store of `size`.
[[maybe_unused]] static bool areParameters(const std::vector<ParameterId> &ids,
                                           size_t size) {
  return std::all_of(ids.begin(), ids.end(),
                     [&](ParameterId id) { return id < size; });
}

SlotId Plan::Builder::addSlot(DType dtype, int64_t capacity) {
  plan_.slots_.push_back({dtype, capacity, std::nullopt, std::nullopt});
  return plan_.slots_.size() - 1;
}

SlotId Plan::Builder::addConstantSlot(Tensor value) {
  plan_.slots_.push_back(
      {value.dtype(), value.numel(), std::nullopt, plan_.constants_.size()});
  plan_.constants_.push_back(std::move(value));
  return plan_.slots_.size() - 1;
}

SlotId Plan::Builder::addParameterSlot(ParameterId parameter) {
  assert(parameter < store_.size() && "no such parameter in the store");
  const Tensor &value = store_[parameter].value;
  plan_.slots_.push_back(
      {value.dtype(), value.numel(), parameter, std::nullopt});
  return plan_.slots_.size() - 1;
}

void Plan::Builder::addInstruction(KernelBinder bind, std::string where,
                                   std::vector<ParameterId> reads,
                                   std::vector<ParameterId> writes) {
  assert(areParameters(reads, store_.size()) &&
         areParameters(writes, store_.size()) &&
         "no such parameter in the store");
  plan_.instructions_.push_back(
      {std::move(bind), std::move(reads), std::move(writes), std::move(where)});
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

Plan Plan::Builder::build() && {
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
                   {*parameter});
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

  plan_.numParameters_ = store_.size();
  endStage();
  return std::move(plan_);
}
