//===- ParameterStore.cpp - The parameters of one role --------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ParameterStore.h"

#include <cassert>
#include <mutex>
#include <shared_mutex>

using namespace openks;
using namespace openks::runtime;

ParameterId ParameterStore::add(Parameter parameter) {
  ParameterId id = entries_.size();
  if (parameter.origin.empty())
    parameter.origin = parameter.name;
  [[maybe_unused]] bool inserted = ids_.emplace(parameter.name, id).second;
  assert(inserted && "a parameter of this name is already in the store");
  entries_.emplace_back(std::move(parameter));
  return id;
}

std::optional<ParameterId>
ParameterStore::lookup(const std::string &name) const {
  auto it = ids_.find(name);
  if (it == ids_.end())
    return std::nullopt;
  return it->second;
}

Status ParameterStore::initialize() {
  for (Entry &entry : entries_) {
    if (entry.borrowed)
      continue;
    std::unique_lock<std::shared_mutex> lock(entry.mutex);
    Parameter &parameter = entry.parameter;
    OPENKS_RETURN_IF_ERROR(
        runtime::initialize(parameter.initializer, parameter.wholeShape,
                            parameter.rowBegin, parameter.value)
            .withContext("initializing parameter '" + parameter.name + "'"));
  }
  return Status::ok();
}

void ParameterStore::borrow(ParameterId id, Tensor &storage) {
  Entry &entry = entries_[id];
  assert(storage.dtype() == entry.parameter.value.dtype() &&
         storage.shape() == entry.parameter.value.shape() &&
         storage.rank() >= 1 && "the storage is not laid out as the value");
  entry.parameter.value = Tensor::viewRows(storage, 0, storage.dim(0));
  entry.borrowed = true;
}

/// Returns a parameter laid out as `parameter`, with a zeroed value.
static StatusOr<Parameter> cloneParameterLayout(const Parameter &parameter) {
  StatusOr<Tensor> value =
      Tensor::allocate(parameter.value.dtype(), parameter.value.shape());
  if (!value)
    return value.status().withContext("copying parameter '" + parameter.name +
                                      "'");
  Parameter copy;
  copy.name = parameter.name;
  copy.origin = parameter.origin;
  copy.initializer = parameter.initializer;
  copy.wholeShape = parameter.wholeShape;
  copy.rowBegin = parameter.rowBegin;
  copy.trainable = parameter.trainable;
  copy.persistable = parameter.persistable;
  copy.value = std::move(*value);
  return copy;
}

StatusOr<ParameterStore> ParameterStore::cloneLayout() const {
  ParameterStore clone;
  for (const Entry &entry : entries_) {
    StatusOr<Parameter> copy = cloneParameterLayout(entry.parameter);
    if (!copy)
      return copy.status();
    clone.add(std::move(*copy));
  }
  return std::move(clone);
}

StatusOr<ParameterStore>
ParameterStore::copyOf(const std::vector<ParameterId> &ids) const {
  ParameterStore copies;
  for (ParameterId id : ids) {
    StatusOr<Parameter> copy = cloneParameterLayout((*this)[id]);
    if (!copy)
      return copy.status();
    {
      std::shared_lock<std::shared_mutex> lock(mutex(id));
      copy->value.copyFrom((*this)[id].value);
    }
    copies.add(std::move(*copy));
  }
  return std::move(copies);
}
