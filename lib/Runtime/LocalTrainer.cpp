//===- LocalTrainer.cpp - Training in one process -------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/LocalTrainer.h"

#include "openks/Runtime/Checkpoint.h"

#include <algorithm>
#include <cmath>

using namespace openks;
using namespace openks::runtime;

StatusOr<std::unique_ptr<LocalTrainer>>
LocalTrainer::create(ParameterStore store, Plan plan, const std::string &data) {
  std::unique_ptr<LocalTrainer> trainer(
      new LocalTrainer(std::move(store), std::move(plan)));
  StatusOr<Executor> executor =
      Executor::create(trainer->plan_, trainer->store_);
  if (!executor)
    return executor.status();
  trainer->executor_.emplace(std::move(*executor));
  OPENKS_RETURN_IF_ERROR(openDataSource(data, trainer->plan_.inputSpecs(),
                                        Shard{}, trainer->source_));
  return trainer;
}

Status LocalTrainer::step(int64_t globalBatch) {
  OPENKS_RETURN_IF_ERROR(source_->next(globalBatch, executor_->inputs()));
  return executor_->run();
}

StatusOr<int64_t> LocalTrainer::resume(const std::string &dir,
                                       int64_t globalBatch) {
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir, {&store_});
  if (!info)
    return info.status();
  OPENKS_RETURN_IF_ERROR(source_->skip(globalBatch, info->step));
  return info->step;
}

/// Returns the parameter of `store` that matches `reference` by name, type
/// and shape.
static StatusOr<ParameterId> findCounterpart(const ParameterStore &store,
                                             const Parameter &reference) {
  std::optional<ParameterId> match = store.lookup(reference.name);
  if (!match)
    return Status::error(StatusCode::NotFound,
                         "parameter '{}' has no counterpart to compare with",
                         reference.name);
  const Tensor &value = store[*match].value;
  if (value.dtype() != reference.value.dtype() ||
      value.shape() != reference.value.shape())
    return Status::invalidArgument(
        "parameter '{}' is {} here and {} in the reference", reference.name,
        value.typeString(), reference.value.typeString());
  return *match;
}

Status LocalTrainer::adoptParameters(const ParameterStore &from) {
  for (ParameterId id = 0; id < store_.size(); ++id) {
    Parameter &parameter = store_[id];
    if (!parameter.trainable)
      continue;
    StatusOr<ParameterId> match = findCounterpart(from, parameter);
    if (!match)
      return match.status();
    parameter.value.copyFrom(from[*match].value);
  }
  return Status::ok();
}

/// Returns the largest |a[i] - b[i]| and the largest |b[i]|; the first is
/// NaN when an element of either is.
template <typename T>
static std::pair<double, double> getDeviation(const Tensor &a,
                                              const Tensor &b) {
  double difference = 0, magnitude = 0;
  const T *x = a.data<T>(), *y = b.data<T>();
  for (int64_t i = 0, e = b.numel(); i < e; ++i) {
    double deviation = std::fabs(double(x[i]) - double(y[i]));
    if (std::isnan(deviation))
      return {NAN, magnitude};
    difference = std::max(difference, deviation);
    magnitude = std::max(magnitude, std::fabs(double(y[i])));
  }
  return {difference, magnitude};
}

StatusOr<std::vector<ParameterDifference>>
openks::runtime::compareParameters(const ParameterStore &actual,
                                   const ParameterStore &expected) {
  std::vector<ParameterDifference> differences;
  for (ParameterId id = 0; id < expected.size(); ++id) {
    const Parameter &reference = expected[id];
    if (!reference.trainable)
      continue;
    StatusOr<ParameterId> match = findCounterpart(actual, reference);
    if (!match)
      return match.status();
    const Tensor &a = actual[*match].value, &b = reference.value;
    auto [difference, magnitude] =
        b.dtype() == DType::F32   ? getDeviation<float>(a, b)
        : b.dtype() == DType::F64 ? getDeviation<double>(a, b)
                                  : getDeviation<int64_t>(a, b);
    double relative = std::isnan(difference) ? NAN
                      : difference == 0      ? 0
                      : magnitude == 0       ? INFINITY
                                             : difference / magnitude;
    differences.push_back({reference.name, relative});
  }
  return differences;
}
