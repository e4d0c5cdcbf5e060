//===- ActivationKernels.cpp - relu, sigmoid, tanh, softmax ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Element-wise activations and softmax over the last dimension. The gradients
// are written in terms of the forward output, as the train dialect's
// activation gradient ops take it. relu and its gradient, on the hot path of
// training, run the loops of Vectorized.h.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"
#include "Vectorized.h"

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

//===----------------------------------------------------------------------===//
// Element-wise activations
//===----------------------------------------------------------------------===//

Status kernels::relu(const Tensor &x, Tensor &out) {
  return elementwiseLoop(
      "relu", out, [](auto... buffers) { reluLoop(buffers...); }, x);
}

Status kernels::sigmoid(const Tensor &x, Tensor &out) {
  return elementwise(
      "sigmoid", out, [](auto values) { return values.logistic(); }, x);
}

Status kernels::tanh(const Tensor &x, Tensor &out) {
  return elementwise(
      "tanh", out, [](auto values) { return values.tanh(); }, x);
}

Status kernels::reluGrad(const Tensor &out, const Tensor &dout, Tensor &dx) {
  OPENKS_RETURN_IF_ERROR(checkLike("relu_grad", "dout", dout, out));
  return elementwiseLoop(
      "relu_grad", dx, [](auto... buffers) { reluGradLoop(buffers...); }, out,
      dout);
}

Status kernels::sigmoidGrad(const Tensor &out, const Tensor &dout, Tensor &dx) {
  return unaryGrad("sigmoid_grad", out, dout, dx, [](auto y, auto dy) {
    using T = typename decltype(y)::Scalar;
    return dy * y * (T(1) - y);
  });
}

Status kernels::tanhGrad(const Tensor &out, const Tensor &dout, Tensor &dx) {
  return unaryGrad("tanh_grad", out, dout, dx, [](auto y, auto dy) {
    using T = typename decltype(y)::Scalar;
    return dy * (T(1) - y.square());
  });
}

//===----------------------------------------------------------------------===//
// Softmax
//===----------------------------------------------------------------------===//

Status kernels::softmax(const Tensor &x, Tensor &out) {
  if (x.rank() == 0)
    return Status::invalidArgument("softmax: x must have rank 1 or more");
  OPENKS_RETURN_IF_ERROR(checkDType("softmax", "out", out, x.dtype()));
  out.resize(x.shape());
  return dispatchFloat("softmax", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int64_t width = x.dim(x.rank() - 1);
    auto in = rowsOf<T>(x, width);
    auto probs = rowsOf<T>(out, width);
    for (Eigen::Index row = 0; row < in.rows(); ++row)
      softmaxRow(in.row(row), probs.row(row), T(1));
  });
}

Status kernels::softmaxGrad(const Tensor &out, const Tensor &dout, Tensor &dx) {
  if (out.rank() == 0)
    return Status::invalidArgument(
        "softmax_grad: out must have rank 1 or more");
  OPENKS_RETURN_IF_ERROR(checkLike("softmax_grad", "dout", dout, out));
  OPENKS_RETURN_IF_ERROR(checkDType("softmax_grad", "dx", dx, out.dtype()));
  dx.resize(out.shape());
  return dispatchFloat("softmax_grad", out.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int64_t width = out.dim(out.rank() - 1);
    auto y = rowsOf<T>(out, width);
    auto dy = rowsOf<T>(dout, width);
    auto result = rowsOf<T>(dx, width);
    for (Eigen::Index row = 0; row < y.rows(); ++row) {
      T dot = (dy.row(row) * y.row(row)).sum();
      result.row(row) = y.row(row) * (dy.row(row) - dot);
    }
  });
}
