//===- LinearKernels.cpp - matmul, add, sub, mul, div, fill, scale --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Matrix products go through the kernels' GEMM (Gemm.h). add, sub, mul
// and div either combine two tensors of one shape or broadcast a rank-1 bias
// over the rows of the left operand (Paddle's elementwise ops with
// axis = -1); the bias gradient is the sum over those rows.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "Gemm.h"
#include "KernelUtils.h"
#include "Vectorized.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <type_traits>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

//===----------------------------------------------------------------------===//
// matmul
//===----------------------------------------------------------------------===//

/// Returns an error unless `a` and `b` are matrices that can be multiplied.
static Status checkMatmulOperands(const char *op, const Tensor &a,
                                  const Tensor &b) {
  OPENKS_RETURN_IF_ERROR(checkRank(op, "a", a, 2));
  OPENKS_RETURN_IF_ERROR(checkRank(op, "b", b, 2));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "b", b, a.dtype()));
  if (a.dim(1) == b.dim(0))
    return Status::ok();
  return Status::invalidArgument("{}: cannot multiply {} by {}", op,
                                 a.shape().str(), b.shape().str());
}

/// Returns the matrix `tensor` as a GEMM operand of element type T.
template <typename T>
static GemmOperand<T> operandOf(const Tensor &tensor, bool transposed = false) {
  return {tensor.data<T>(), tensor.dim(0), tensor.dim(1), transposed};
}

Status kernels::matmul(const Tensor &a, const Tensor &b, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkMatmulOperands("matmul", a, b));
  OPENKS_RETURN_IF_ERROR(checkDType("matmul", "out", out, a.dtype()));
  assert(&out != &a && &out != &b && "matmul cannot write over an operand");
  out.resize(Shape{a.dim(0), b.dim(1)});
  Status status;
  OPENKS_RETURN_IF_ERROR(dispatchFloat("matmul", a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    status = gemm("matmul", operandOf<T>(a), operandOf<T>(b), out.data<T>());
  }));
  return status;
}

Status kernels::matmulGrad(const Tensor &a, const Tensor &b, const Tensor &dout,
                           Tensor *da, Tensor *db) {
  OPENKS_RETURN_IF_ERROR(checkMatmulOperands("matmul_grad", a, b));
  OPENKS_RETURN_IF_ERROR(checkDType("matmul_grad", "dout", dout, a.dtype()));
  OPENKS_RETURN_IF_ERROR(
      checkShape("matmul_grad", "dout", dout, Shape{a.dim(0), b.dim(1)}));
  if (da) {
    OPENKS_RETURN_IF_ERROR(checkDType("matmul_grad", "da", *da, a.dtype()));
    da->resize(a.shape());
  }
  if (db) {
    OPENKS_RETURN_IF_ERROR(checkDType("matmul_grad", "db", *db, a.dtype()));
    db->resize(b.shape());
  }
  Status status;
  OPENKS_RETURN_IF_ERROR(dispatchFloat("matmul_grad", a.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if (da)
      status = gemm("matmul_grad", operandOf<T>(dout),
                    operandOf<T>(b, /*transposed=*/true), da->data<T>());
    if (db && status.isOk())
      status = gemm("matmul_grad", operandOf<T>(a, /*transposed=*/true),
                    operandOf<T>(dout), db->data<T>());
  }));
  return status;
}

//===----------------------------------------------------------------------===//
// add and mul
//===----------------------------------------------------------------------===//

/// Sets `isBias` to whether `y` is a bias broadcast over the rows of `x`
/// rather than a tensor of `x`'s shape; returns an error if it is neither.
static Status classifyRightOperand(const char *op, const Tensor &x,
                                   const Tensor &y, bool &isBias) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, "y", y, x.dtype()));
  isBias = y.shape() != x.shape();
  if (!isBias ||
      (y.rank() == 1 && x.rank() >= 1 && y.dim(0) == x.dim(x.rank() - 1)))
    return Status::ok();
  return Status::invalidArgument(
      "{}: y has shape {}, expected {} or a bias over its "
      "last dimension",
      op, y.shape().str(), x.shape().str());
}

/// out = combine(x, y) element-wise, broadcasting a bias `y` over the rows of
/// `x`. `combine` is a transparent functor such as std::plus<>.
template <typename Combine>
static Status broadcastBinary(const char *op, const Tensor &x, const Tensor &y,
                              Tensor &out, Combine combine) {
  bool isBias;
  OPENKS_RETURN_IF_ERROR(classifyRightOperand(op, x, y, isBias));
  if (!isBias)
    return elementwise(op, out, combine, x, y);
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the result", out, x.dtype()));
  out.resize(x.shape());
  return dispatchFloat(op, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int64_t width = y.numel();
    // add, on the hot path of training, runs the loop of Vectorized.h.
    if constexpr (std::is_same_v<Combine, std::plus<>>)
      addBiasLoop(x.data<T>(), y.data<T>(), out.data<T>(), x.numel(), width);
    else
      rowsOf<T>(out, width) =
          combine(rowsOf<T>(x, width).rowwise(), rowVec(y.data<T>(), width));
  });
}

/// dy = the sum over rows of `rows(T())`, which returns an Eigen expression
/// of [n, numel(y)] elements of T, for the bias `y`.
template <typename RowsFn>
static Status sumRowsIntoBias(const char *op, const Tensor &y, Tensor &dy,
                              RowsFn rows) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dy", dy, y.dtype()));
  dy.resize(y.shape());
  return dispatchFloat(op, y.dtype(), [&](auto tag) {
    using T = decltype(tag);
    rowVec(dy.data<T>(), dy.numel()) = rows(tag).colwise().sum();
  });
}

Status kernels::add(const Tensor &x, const Tensor &y, Tensor &out) {
  return broadcastBinary("add", x, y, out, std::plus<>());
}

Status kernels::mul(const Tensor &x, const Tensor &y, Tensor &out) {
  return broadcastBinary("mul", x, y, out, std::multiplies<>());
}

/// dx = dout; dy = sign * dout, summed over the leading dimensions for a
/// bias: the gradients of add (sign 1) and sub (sign -1).
static Status additiveGrad(const char *op, double sign, const Tensor &x,
                           const Tensor &y, const Tensor &dout, Tensor &dx,
                           Tensor &dy) {
  bool isBias;
  OPENKS_RETURN_IF_ERROR(classifyRightOperand(op, x, y, isBias));
  OPENKS_RETURN_IF_ERROR(checkLike(op, "dout", dout, x));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dx", dx, x.dtype()));
  dx.copyFrom(dout);
  if (!isBias)
    return elementwise(
        op, dy,
        [sign](auto upstream) {
          using T = typename decltype(upstream)::Scalar;
          return upstream * static_cast<T>(sign);
        },
        dout);
  return sumRowsIntoBias(op, y, dy, [&](auto tag) {
    using T = decltype(tag);
    return rowsOf<T>(dout, y.numel()) * static_cast<T>(sign);
  });
}

Status kernels::addGrad(const Tensor &x, const Tensor &y, const Tensor &dout,
                        Tensor &dx, Tensor &dy) {
  return additiveGrad("add_grad", 1, x, y, dout, dx, dy);
}

Status kernels::mulGrad(const Tensor &x, const Tensor &y, const Tensor &dout,
                        Tensor &dx, Tensor &dy) {
  bool isBias;
  OPENKS_RETURN_IF_ERROR(classifyRightOperand("mul_grad", x, y, isBias));
  OPENKS_RETURN_IF_ERROR(checkLike("mul_grad", "dout", dout, x));
  OPENKS_RETURN_IF_ERROR(
      broadcastBinary("mul_grad", dout, y, dx, std::multiplies<>()));
  if (!isBias)
    return elementwise("mul_grad", dy, std::multiplies<>(), dout, x);
  return sumRowsIntoBias("mul_grad", y, dy, [&](auto tag) {
    using T = decltype(tag);
    return rowsOf<T>(dout, y.numel()) * rowsOf<T>(x, y.numel());
  });
}

//===----------------------------------------------------------------------===//
// sub and div
//===----------------------------------------------------------------------===//

Status kernels::sub(const Tensor &x, const Tensor &y, Tensor &out) {
  return broadcastBinary("sub", x, y, out, std::minus<>());
}

Status kernels::div(const Tensor &x, const Tensor &y, Tensor &out) {
  return broadcastBinary("div", x, y, out, std::divides<>());
}

Status kernels::subGrad(const Tensor &x, const Tensor &y, const Tensor &dout,
                        Tensor &dx, Tensor &dy) {
  return additiveGrad("sub_grad", -1, x, y, dout, dx, dy);
}

Status kernels::divGrad(const Tensor &x, const Tensor &y, const Tensor &dout,
                        Tensor &dx, Tensor &dy) {
  bool isBias;
  OPENKS_RETURN_IF_ERROR(classifyRightOperand("div_grad", x, y, isBias));
  OPENKS_RETURN_IF_ERROR(checkLike("div_grad", "dout", dout, x));
  OPENKS_RETURN_IF_ERROR(
      broadcastBinary("div_grad", dout, y, dx, std::divides<>()));
  if (!isBias)
    return elementwise(
        "div_grad", dy,
        [](auto upstream, auto numerator, auto denominator) {
          return -upstream * numerator / denominator.square();
        },
        dout, x, y);
  return sumRowsIntoBias("div_grad", y, dy, [&](auto tag) {
    using T = decltype(tag);
    int64_t width = y.numel();
    return (-rowsOf<T>(dout, width) * rowsOf<T>(x, width)).rowwise() /
           rowVec(y.data<T>(), width).square();
  });
}

//===----------------------------------------------------------------------===//
// fill and scale
//===----------------------------------------------------------------------===//

Status kernels::fill(double value, Tensor &out) {
  if (out.dtype() != DType::I64)
    return dispatchFloat("fill", out.dtype(), [&](auto tag) {
      using T = decltype(tag);
      flat<T>(out).setConstant(static_cast<T>(value));
    });
  // Integers in [-2^63, 2^63) convert exactly; anything else is an error.
  const double limit = std::ldexp(1.0, 63);
  if (value != std::trunc(value) || value < -limit || value >= limit)
    return Status::invalidArgument("fill: {} is not an i64 value", value);
  std::fill_n(out.data<int64_t>(), out.numel(), static_cast<int64_t>(value));
  return Status::ok();
}

Status kernels::scale(const Tensor &x, double factor, Tensor &out) {
  return elementwise(
      "scale", out,
      [factor](auto values) {
        using T = typename decltype(values)::Scalar;
        return values * static_cast<T>(factor);
      },
      x);
}
