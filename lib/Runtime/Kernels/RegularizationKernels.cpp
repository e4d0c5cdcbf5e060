//===- RegularizationKernels.cpp - Clipping and regularization ------------===//
//
// Part of the OpenKS Fleet compiler.
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

/// out = factor * in, element-wise.
template <typename T>
static void scaleInto(const Tensor &in, double factor, Tensor &out) {
  out.resize(in.shape());
  const T *source = in.data<T>();
  T *target = out.data<T>();
  for (int64_t i = 0, e = in.numel(); i < e; ++i)
    target[i] = static_cast<T>(source[i] * factor);
}

Status kernels::clipByGlobalNorm(const std::vector<const Tensor *> &grads,
                                 double maxNorm,
                                 const std::vector<Tensor *> &clipped) {
  double sumOfSquares = 0;
  for (const Tensor *grad : grads) {
    if (grad->dtype() == DType::F32)
      addSquares<float>(*grad, sumOfSquares);
    else if (grad->dtype() == DType::F64)
      addSquares<double>(*grad, sumOfSquares);
    else
      return Status::invalidArgument("cannot clip a gradient of {}",
                                     grad->typeString());
  }
  double norm = std::sqrt(sumOfSquares);
  double factor = maxNorm / std::max(norm, maxNorm);
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i]->dtype() == DType::F32)
      scaleInto<float>(*grads[i], factor, *clipped[i]);
    else
      scaleInto<double>(*grads[i], factor, *clipped[i]);
  }
  return Status::ok();
}

Status kernels::clipByNorm(const Tensor &x, double maxNorm, Tensor &out) {
  // The global norm of one tensor is its norm.
  return clipByGlobalNorm({&x}, maxNorm, {&out});
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
