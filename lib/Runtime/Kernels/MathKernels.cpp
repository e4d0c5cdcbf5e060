//===- MathKernels.cpp - Element-wise math, norms, cosines ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// abs, square, sqrt, exp, log and softsign with their gradients (sqrt's and
// exp's from the forward result, the others' from the input, as Paddle's);
// negation and IEEE maximum and minimum (arith.negf, maximumf, minimumf);
// L1 and L2 norms along one dimension, whose gradient is zero at a zero
// vector; and row-wise cosine similarity, zero for a zero row.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

#include <algorithm>
#include <limits>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

//===----------------------------------------------------------------------===//
// Element-wise unary math
//===----------------------------------------------------------------------===//

Status kernels::abs(const Tensor &x, Tensor &out) {
  return elementwise(
      "abs", out, [](auto values) { return values.abs(); }, x);
}

Status kernels::neg(const Tensor &x, Tensor &out) {
  return elementwise(
      "neg", out, [](auto values) { return -values; }, x);
}

/// out = pick(x, y) element-wise for x and y of one shape, NaN where either
/// is NaN; `pick` chooses between two numbers.
template <typename Pick>
static Status extremum(const char *op, const Tensor &x, const Tensor &y,
                       Tensor &out, Pick pick) {
  OPENKS_RETURN_IF_ERROR(checkLike(op, "y", y, x));
  return elementwise(
      op, out,
      [&](auto a, auto b) {
        using T = typename decltype(a)::Scalar;
        return a.binaryExpr(b, [&](T u, T v) {
          return std::isnan(u) || std::isnan(v)
                     ? std::numeric_limits<T>::quiet_NaN()
                     : pick(u, v);
        });
      },
      x, y);
}

Status kernels::maximum(const Tensor &x, const Tensor &y, Tensor &out) {
  return extremum("maximum", x, y, out,
                  [](auto u, auto v) { return std::max(u, v); });
}

Status kernels::minimum(const Tensor &x, const Tensor &y, Tensor &out) {
  return extremum("minimum", x, y, out,
                  [](auto u, auto v) { return std::min(u, v); });
}

Status kernels::square(const Tensor &x, Tensor &out) {
  return elementwise(
      "square", out, [](auto values) { return values.square(); }, x);
}

Status kernels::sqrt(const Tensor &x, Tensor &out) {
  return elementwise(
      "sqrt", out, [](auto values) { return values.sqrt(); }, x);
}

Status kernels::exp(const Tensor &x, Tensor &out) {
  return elementwise(
      "exp", out, [](auto values) { return values.exp(); }, x);
}

Status kernels::log(const Tensor &x, Tensor &out) {
  return elementwise(
      "log", out, [](auto values) { return values.log(); }, x);
}

Status kernels::softsign(const Tensor &x, Tensor &out) {
  return elementwise(
      "softsign", out,
      [](auto values) {
        using T = typename decltype(values)::Scalar;
        return values / (T(1) + values.abs());
      },
      x);
}

Status kernels::absGrad(const Tensor &x, const Tensor &dout, Tensor &dx) {
  return unaryGrad("abs_grad", x, dout, dx,
                   [](auto in, auto dy) { return dy * in.sign(); });
}

Status kernels::squareGrad(const Tensor &x, const Tensor &dout, Tensor &dx) {
  return unaryGrad("square_grad", x, dout, dx, [](auto in, auto dy) {
    using T = typename decltype(in)::Scalar;
    return T(2) * in * dy;
  });
}

Status kernels::sqrtGrad(const Tensor &out, const Tensor &dout, Tensor &dx) {
  return unaryGrad("sqrt_grad", out, dout, dx, [](auto y, auto dy) {
    using T = typename decltype(y)::Scalar;
    return dy / (T(2) * y);
  });
}

Status kernels::expGrad(const Tensor &out, const Tensor &dout, Tensor &dx) {
  return unaryGrad("exp_grad", out, dout, dx,
                   [](auto y, auto dy) { return dy * y; });
}

Status kernels::logGrad(const Tensor &x, const Tensor &dout, Tensor &dx) {
  return unaryGrad("log_grad", x, dout, dx,
                   [](auto in, auto dy) { return dy / in; });
}

Status kernels::softsignGrad(const Tensor &x, const Tensor &dout, Tensor &dx) {
  return unaryGrad("softsign_grad", x, dout, dx, [](auto in, auto dy) {
    using T = typename decltype(in)::Scalar;
    return dy / (T(1) + in.abs()).square();
  });
}

//===----------------------------------------------------------------------===//
// Norms
//===----------------------------------------------------------------------===//

namespace {
/// A tensor seen as [outer, axis, inner] around one of its dimensions.
struct AxisLayout {
  int64_t outer = 1, size = 1, inner = 1;
  /// The shape of the norm: the axis dropped, or kept as 1.
  Shape normShape;
};
} // namespace

/// Builds the layout of `shape` around `axis`, after checking `axis` and
/// the norm's order `p`.
static Status makeAxisLayout(const char *op, const Shape &shape, int64_t p,
                             int64_t axis, bool keepDims, AxisLayout &layout) {
  if (p != 1 && p != 2)
    return Status::invalidArgument("{}: p must be 1 or 2, got {}", op, p);
  if (axis < 0 || axis >= shape.rank())
    return Status::invalidArgument("{}: axis {} is out of range for shape {}",
                                   op, axis, shape.str());
  for (int dim = 0; dim < shape.rank(); ++dim) {
    if (dim < axis)
      layout.outer *= shape[dim];
    else if (dim > axis)
      layout.inner *= shape[dim];
    if (dim != axis)
      layout.normShape.push_back(shape[dim]);
    else if (keepDims)
      layout.normShape.push_back(1);
  }
  layout.size = shape[static_cast<int>(axis)];
  return Status::ok();
}

/// Returns block `index` of `tensor` as an [axis, inner] row-major array.
template <typename T, typename TensorT>
static auto axisBlock(TensorT &tensor, const AxisLayout &layout,
                      int64_t index) {
  return MapOf<ElementOf<TensorT, T>, RowMajorArray<T>>(
      tensor.template data<T>() + index * layout.size * layout.inner,
      layout.size, layout.inner);
}

Status kernels::pNorm(const Tensor &x, int64_t p, int64_t axis, bool keepDims,
                      Tensor &out) {
  AxisLayout layout;
  OPENKS_RETURN_IF_ERROR(
      makeAxisLayout("p_norm", x.shape(), p, axis, keepDims, layout));
  OPENKS_RETURN_IF_ERROR(checkDType("p_norm", "out", out, x.dtype()));
  assert(&out != &x && "p_norm cannot write over its operand");
  out.resize(layout.normShape);
  return dispatchFloat("p_norm", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto norms = rowsOf<T>(out, layout.inner);
    for (int64_t index = 0; index < layout.outer; ++index) {
      auto block = axisBlock<T>(x, layout, index);
      if (p == 1)
        norms.row(index) = block.abs().colwise().sum();
      else
        norms.row(index) = block.square().colwise().sum().sqrt();
    }
  });
}

Status kernels::pNormGrad(const Tensor &x, const Tensor &out,
                          const Tensor &dout, int64_t p, int64_t axis,
                          bool keepDims, double epsilon, Tensor &dx) {
  const char *op = "p_norm_grad";
  AxisLayout layout;
  OPENKS_RETURN_IF_ERROR(
      makeAxisLayout(op, x.shape(), p, axis, keepDims, layout));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "out", out, x.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "out", out, layout.normShape));
  OPENKS_RETURN_IF_ERROR(checkLike(op, "dout", dout, out));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dx", dx, x.dtype()));
  assert(&dx != &x && "p_norm_grad cannot write over its operands");
  dx.resize(x.shape());
  return dispatchFloat(op, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto norms = rowsOf<T>(out, layout.inner);
    auto upstream = rowsOf<T>(dout, layout.inner);
    for (int64_t index = 0; index < layout.outer; ++index) {
      auto in = axisBlock<T>(x, layout, index);
      auto grad = axisBlock<T>(dx, layout, index);
      if (p == 1)
        grad = in.sign().rowwise() * upstream.row(index);
      else
        grad = in.rowwise() *
               (upstream.row(index) / (norms.row(index) + T(epsilon)));
    }
  });
}

//===----------------------------------------------------------------------===//
// Cosine similarity
//===----------------------------------------------------------------------===//

/// Returns an error unless x is [N, D] and y is [N, D] or [1, D].
static Status checkCosSimOperands(const char *op, const Tensor &x,
                                  const Tensor &y) {
  OPENKS_RETURN_IF_ERROR(checkRank(op, "x", x, 2));
  OPENKS_RETURN_IF_ERROR(checkRank(op, "y", y, 2));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "y", y, x.dtype()));
  if (y.dim(1) == x.dim(1) && (y.dim(0) == x.dim(0) || y.dim(0) == 1))
    return Status::ok();
  return Status::invalidArgument(
      "{}: y has shape {}, expected [{}, {}] or [1, {}]", op, y.shape().str(),
      x.dim(0), x.dim(1), x.dim(1));
}

namespace {
/// The dot products of one row of x with its row of y.
template <typename T> struct RowProducts {
  T xx, yy, xy;
  /// Returns the cosine, 0 when either row is zero.
  T cosine() const {
    return xx > 0 && yy > 0 ? xy / (std::sqrt(xx) * std::sqrt(yy)) : T(0);
  }
};
} // namespace

/// Calls `fn(row, xRow, yRow, products)` for each row of x.
template <typename T, typename Fn>
static void forEachRowPair(const Tensor &x, const Tensor &y, Fn fn) {
  auto xs = rowsOf<T>(x, x.dim(1));
  auto ys = rowsOf<T>(y, y.dim(1));
  bool broadcast = y.dim(0) != x.dim(0);
  for (Eigen::Index row = 0; row < xs.rows(); ++row) {
    auto xRow = xs.row(row);
    auto yRow = ys.row(broadcast ? 0 : row);
    RowProducts<T> products{xRow.square().sum(), yRow.square().sum(),
                            (xRow * yRow).sum()};
    fn(row, xRow, yRow, products);
  }
}

Status kernels::cosSim(const Tensor &x, const Tensor &y, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkCosSimOperands("cos_sim", x, y));
  OPENKS_RETURN_IF_ERROR(checkDType("cos_sim", "out", out, x.dtype()));
  assert(&out != &x && &out != &y && "cos_sim cannot write over an operand");
  out.resize(Shape{x.dim(0), 1});
  return dispatchFloat("cos_sim", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T *cosines = out.data<T>();
    forEachRowPair<T>(x, y, [&](Eigen::Index row, auto, auto, auto products) {
      cosines[row] = products.cosine();
    });
  });
}

Status kernels::cosSimGrad(const Tensor &x, const Tensor &y, const Tensor &dout,
                           Tensor &dx, Tensor &dy) {
  const char *op = "cos_sim_grad";
  OPENKS_RETURN_IF_ERROR(checkCosSimOperands(op, x, y));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dout", dout, x.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "dout", dout, Shape{x.dim(0), 1}));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dx", dx, x.dtype()));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dy", dy, x.dtype()));
  dx.resize(x.shape());
  dy.resize(y.shape());
  dy.setZero();
  return dispatchFloat(op, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto dxs = rowsOf<T>(dx, x.dim(1));
    auto dys = rowsOf<T>(dy, y.dim(1));
    const T *upstream = dout.data<T>();
    bool broadcast = y.dim(0) != x.dim(0);
    forEachRowPair<T>(
        x, y, [&](Eigen::Index row, auto xRow, auto yRow, auto products) {
          auto dyRow = dys.row(broadcast ? 0 : row);
          if (!(products.xx > 0 && products.yy > 0)) {
            dxs.row(row).setZero();
            return;
          }
          T inverse = T(1) / (std::sqrt(products.xx) * std::sqrt(products.yy));
          T cosine = products.xy * inverse;
          T g = upstream[row];
          dxs.row(row) = g * (yRow * inverse - cosine / products.xx * xRow);
          dyRow += g * (xRow * inverse - cosine / products.yy * yRow);
        });
  });
}
