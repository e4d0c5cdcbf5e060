//===- ScheduleKernels.cpp - Learning-rate schedules ----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The small kernels `openks-append-optimizer` adds before the updates: the
// step counter and the learning-rate schedules.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include <cmath>

using namespace openks;
using namespace openks::runtime;

/// Returns the value of a rank-0 tensor of any dtype as a double.
static double scalarOf(const Tensor &tensor) {
  switch (tensor.dtype()) {
  case DType::F32:
    return *tensor.data<float>();
  case DType::F64:
    return *tensor.data<double>();
  case DType::I64:
    return static_cast<double>(*tensor.data<int64_t>());
  }
  return 0;
}

/// Stores `value` into a rank-0 float tensor.
static Status setScalar(Tensor &tensor, double value) {
  tensor.resize(Shape{});
  switch (tensor.dtype()) {
  case DType::F32:
    *tensor.data<float>() = static_cast<float>(value);
    return Status::ok();
  case DType::F64:
    *tensor.data<double>() = value;
    return Status::ok();
  case DType::I64:
    break;
  }
  return Status::invalidArgument("a learning rate must be a float, got {}",
                                 tensor.typeString());
}

Status kernels::increment(const Tensor &x, Tensor &out) {
  out.resize(Shape{});
  if (x.dtype() == DType::I64) {
    *out.data<int64_t>() = *x.data<int64_t>() + 1;
    return Status::ok();
  }
  return setScalar(out, scalarOf(x) + 1);
}

Status kernels::exponentialDecay(const Tensor &step, double learningRate,
                                 double decayRate, int64_t decaySteps,
                                 bool staircase, Tensor &lr) {
  double exponent = scalarOf(step) / static_cast<double>(decaySteps);
  if (staircase)
    exponent = std::floor(exponent);
  return setScalar(lr, learningRate * std::pow(decayRate, exponent));
}

Status kernels::piecewiseDecay(const Tensor &step,
                               const std::vector<int64_t> &boundaries,
                               const std::vector<double> &values, Tensor &lr) {
  double now = scalarOf(step);
  size_t index = 0;
  while (index < boundaries.size() &&
         static_cast<double>(boundaries[index]) <= now)
    ++index;
  return setScalar(lr, values[index]);
}
