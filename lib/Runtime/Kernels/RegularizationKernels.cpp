//===- RegularizationKernels.cpp - Clipping and regularization ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What turns a gradient into the one an optimizer applies: clipping by
// value, by norm and by global norm, and the sign that L1 decay takes of a
// parameter. Norms are summed in double.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

#include <algorithm>
#include <cmath>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

/// Adds the squares of a float tensor's elements to `sum`.
template <typename T>
static void addSquares(const Tensor &tensor, double &sum) {
  const T *data = tensor.data<T>();
  for (int64_t i = 0, e = tensor.numel(); i < e; ++i)
    sum += static_cast<double>(data[i]) * data[i];
}

/// Adds the squares of `grad`'s elements to `sum`; fails unless it is a
/// float tensor.
static Status addSquaresOf(const Tensor &grad, double &sum) {
  if (grad.dtype() == DType::F32)
    addSquares<float>(grad, sum);
  else if (grad.dtype() == DType::F64)
    addSquares<double>(grad, sum);
  else
    return Status::invalidArgument("cannot clip a gradient of {}",
                                   grad.typeString());
  return Status::ok();
}

/// out = factor * in, element-wise.
template <typename T>
static void scaleInto(const Tensor &in, double factor, Tensor &out) {
  out.resize(in.shape());
  const T *source = in.data<T>();
  T *target = out.data<T>();
  for (int64_t i = 0, e = in.numel(); i < e; ++i)
    target[i] = static_cast<T>(source[i] * factor);
}

/// out = in * maxNorm / max(norm, maxNorm); `in` is a float tensor.
static void clipInto(const Tensor &in, double norm, double maxNorm,
                     Tensor &out) {
  double factor = maxNorm / std::max(norm, maxNorm);
  if (in.dtype() == DType::F32)
    scaleInto<float>(in, factor, out);
  else
    scaleInto<double>(in, factor, out);
}

Status kernels::clipByGlobalNorm(const std::vector<const Tensor *> &grads,
                                 double maxNorm,
                                 const std::vector<Tensor *> &clipped) {
  double sumOfSquares = 0;
  for (const Tensor *grad : grads)
    OPENKS_RETURN_IF_ERROR(addSquaresOf(*grad, sumOfSquares));
  double norm = std::sqrt(sumOfSquares);
  for (size_t i = 0; i < grads.size(); ++i)
    clipInto(*grads[i], norm, maxNorm, *clipped[i]);
  return Status::ok();
}

Status kernels::clipByNorm(const Tensor &x, double maxNorm, Tensor &out) {
  // The global norm of one tensor is its norm.
  return clipByGlobalNorm({&x}, maxNorm, {&out});
}

Status kernels::sumOfSquares(const Tensor &x, Tensor &out) {
  double sum = 0;
  OPENKS_RETURN_IF_ERROR(addSquaresOf(x, sum));
  out.resize(Shape{});
  *out.data<double>() = sum;
  return Status::ok();
}

Status kernels::clipToNorm(const Tensor &x, const Tensor &norm, double maxNorm,
                           Tensor &out) {
  if (x.dtype() != DType::F32 && x.dtype() != DType::F64)
    return Status::invalidArgument("cannot clip a gradient of {}",
                                   x.typeString());
  if (norm.dtype() != DType::F64 || norm.numel() != 1)
    return Status::invalidArgument("a norm must be a f64 scalar, got {}",
                                   norm.typeString());
  clipInto(x, *norm.data<double>(), maxNorm, out);
  return Status::ok();
}

Status kernels::clip(const Tensor &x, double min, double max, Tensor &out) {
  return elementwise(
      "clip", out,
      [&](auto v) {
        using T = typename decltype(v)::Scalar;
        return v.max(static_cast<T>(min)).min(static_cast<T>(max));
      },
      x);
}

Status kernels::sign(const Tensor &x, Tensor &out) {
  return elementwise(
      "sign", out,
      [](auto v) {
        using T = typename decltype(v)::Scalar;
        return v.unaryExpr(
            [](T e) { return static_cast<T>((e > 0) - (e < 0)); });
      },
      x);
}
