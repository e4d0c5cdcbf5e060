//===- KernelUtils.h - Helpers shared by the CPU kernels --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime/Kernels: Eigen views over tensor buffers, the dtype
// dispatch of the float kernels, and the cheap checks that turn bad shapes
// and element types into error Statuses.
//
// The views are Eigen::Maps; they are const exactly when the tensor (or the
// pointer) they view is const, so one helper serves inputs and outputs.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_KERNELS_KERNELUTILS_H
#define OPENKS_LIB_RUNTIME_KERNELS_KERNELUTILS_H

#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <Eigen/Core>
#include <cassert>
#include <cmath>
#include <optional>
#include <type_traits>

namespace openks::runtime::kernels::detail {

//===----------------------------------------------------------------------===//
// Eigen views
//===----------------------------------------------------------------------===//

/// An Eigen::Map of `Plain` over elements of type `Elem`, read-only when
/// `Elem` is const.
template <typename Elem, typename Plain>
using MapOf =
    Eigen::Map<std::conditional_t<std::is_const_v<Elem>, const Plain, Plain>>;

/// `T`, const when `TensorT` is: the element type a view of a `TensorT`
/// holding T reads (and maybe writes).
template <typename TensorT, typename T>
using ElementOf = std::conditional_t<std::is_const_v<TensorT>, const T, T>;

/// Row-major dynamic 2-D array and matrix of T.
template <typename T>
using RowMajorArray =
    Eigen::Array<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <typename T>
using RowMajorMatrix =
    Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// Returns the `size` elements at `data` as a 1-D array.
template <typename Elem> auto vec(Elem *data, int64_t size) {
  using Plain = Eigen::Array<std::remove_const_t<Elem>, Eigen::Dynamic, 1>;
  return MapOf<Elem, Plain>(data, size);
}

/// Returns the `size` elements at `data` as a 1-row array, the operand of a
/// broadcast along rows.
template <typename Elem> auto rowVec(Elem *data, int64_t size) {
  using Plain = Eigen::Array<std::remove_const_t<Elem>, 1, Eigen::Dynamic>;
  return MapOf<Elem, Plain>(data, size);
}

/// Returns every element of `tensor` as a 1-D array of T.
template <typename T, typename TensorT> auto flat(TensorT &tensor) {
  return vec(tensor.template data<T>(), tensor.numel());
}

/// Returns `tensor` as a row-major 2-D array of rows `width` elements wide
/// (a tensor [..., width] seen as [numel / width, width]).
template <typename T, typename TensorT>
auto rowsOf(TensorT &tensor, int64_t width) {
  int64_t rows = width == 0 ? 0 : tensor.numel() / width;
  return MapOf<ElementOf<TensorT, T>, RowMajorArray<T>>(
      tensor.template data<T>(), rows, width);
}

//===----------------------------------------------------------------------===//
// Dispatch and checks
//===----------------------------------------------------------------------===//

/// Calls `fn(T())` with T the element type of the float dtype `dtype`, or
/// returns an error naming `op` when `dtype` is not a float type.
template <typename Fn>
Status dispatchFloat(const char *op, DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::F32:
    fn(float());
    return Status::ok();
  case DType::F64:
    fn(double());
    return Status::ok();
  case DType::I64:
    break;
  }
  return Status::invalidArgument("{}: expected an f32 or f64 tensor, got {}",
                                 op, dtypeName(dtype));
}

/// Returns an error unless `tensor` (called `name` in `op`) has `dtype`.
inline Status checkDType(const char *op, const char *name, const Tensor &tensor,
                         DType dtype) {
  if (tensor.dtype() == dtype)
    return Status::ok();
  return Status::invalidArgument("{}: {} has element type {}, expected {}", op,
                                 name, dtypeName(tensor.dtype()),
                                 dtypeName(dtype));
}

/// Returns an error unless `tensor` (called `name` in `op`) has `rank`.
inline Status checkRank(const char *op, const char *name, const Tensor &tensor,
                        int rank) {
  if (tensor.rank() == rank)
    return Status::ok();
  return Status::invalidArgument(
      "{}: {} has rank {} (shape {}), expected rank {}", op, name,
      tensor.rank(), tensor.shape().str(), rank);
}

/// Returns an error unless `tensor` (called `name` in `op`) has `shape`.
inline Status checkShape(const char *op, const char *name, const Tensor &tensor,
                         const Shape &shape) {
  if (tensor.shape() == shape)
    return Status::ok();
  return Status::invalidArgument("{}: {} has shape {}, expected {}", op, name,
                                 tensor.shape().str(), shape.str());
}

/// Returns an error unless `tensor` (called `name` in `op`) has the element
/// type and shape of `like`.
inline Status checkLike(const char *op, const char *name, const Tensor &tensor,
                        const Tensor &like) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, name, tensor, like.dtype()));
  return checkShape(op, name, tensor, like.shape());
}

//===----------------------------------------------------------------------===//
// Element-wise kernels
//===----------------------------------------------------------------------===//

/// Checks that `out` can hold the result of the element-wise `op` of `x`
/// and `others`, shapes it like `x`, and calls `fn(T())` with T the element
/// type. The caller has checked that `others` have the element type and
/// shape of `x`.
template <typename Fn, typename... Others>
Status dispatchElementwise(const char *op, Tensor &out, Fn &&fn,
                           const Tensor &x, const Others &...others) {
  assert(
      ((others.dtype() == x.dtype() && others.shape() == x.shape()) && ...) &&
      "element-wise operands differ");
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the result", out, x.dtype()));
  out.resize(x.shape());
  return dispatchFloat(op, x.dtype(), fn);
}

/// out = fn(x, others...) element-wise. `fn` takes 1-D Eigen arrays of the
/// inputs' elements and returns an expression of their size. The caller has
/// checked that `others` have the element type and shape of `x`; `out` may
/// be one of the inputs.
template <typename Fn, typename... Others>
Status elementwise(const char *op, Tensor &out, Fn &&fn, const Tensor &x,
                   const Others &...others) {
  return dispatchElementwise(
      op, out,
      [&](auto tag) {
        using T = decltype(tag);
        flat<T>(out) = fn(flat<T>(x), flat<T>(others)...);
      },
      x, others...);
}

/// elementwise() through `loop(x, others..., out, numel)`, one of the loops
/// of Vectorized.h, called on the tensors' buffers.
template <typename Loop, typename... Others>
Status elementwiseLoop(const char *op, Tensor &out, Loop &&loop,
                       const Tensor &x, const Others &...others) {
  return dispatchElementwise(
      op, out,
      [&](auto tag) {
        using T = decltype(tag);
        loop(x.template data<T>(), others.template data<T>()...,
             out.template data<T>(), x.numel());
      },
      x, others...);
}

/// dx = rule(first, dout) element-wise, for the gradient `op` of a unary op
/// whose rule takes `first`: the forward input or the forward result.
template <typename Rule>
Status unaryGrad(const char *op, const Tensor &first, const Tensor &dout,
                 Tensor &dx, Rule rule) {
  OPENKS_RETURN_IF_ERROR(checkLike(op, "dout", dout, first));
  return elementwise(op, dx, rule, first, dout);
}

//===----------------------------------------------------------------------===//
// Table lookups
//===----------------------------------------------------------------------===//

/// Returns an error unless every element of `ids` is `paddingIdx` or a row of
/// a table of `numRows` rows, and a row dimension fits after ids' shape.
inline Status checkIds(const char *op, const Tensor &ids, int64_t numRows,
                       std::optional<int64_t> paddingIdx) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, "ids", ids, DType::I64));
  if (ids.rank() >= Shape::kMaxRank)
    return Status::invalidArgument(
        "{}: ids of rank {} leave no room for the row "
        "dimension",
        op, ids.rank());
  const int64_t *data = ids.data<int64_t>();
  for (int64_t position = 0, e = ids.numel(); position < e; ++position) {
    int64_t id = data[position];
    if (paddingIdx != id && (id < 0 || id >= numRows))
      return Status::outOfRange(
          "{}: id {} at position {} is outside the table's "
          "{} rows",
          op, id, position, numRows);
  }
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Softmax rows
//===----------------------------------------------------------------------===//

/// Returns log(sum(exp(row))) of a 1-row array, shifted by the row's maximum
/// so that no exp overflows.
template <typename Row> typename Row::Scalar logSumExp(const Row &row) {
  typename Row::Scalar max = row.maxCoeff();
  return max + std::log((row - max).exp().sum());
}

/// Writes scale * softmax(in) into `out`; both are 1-row arrays of one size
/// and may be the same row.
template <typename In, typename Out>
void softmaxRow(const In &in, Out &&out, typename In::Scalar scale) {
  using T = typename In::Scalar;
  T max = in.maxCoeff();
  out = (in - max).exp();
  out *= scale / out.sum();
}

//===----------------------------------------------------------------------===//
// Table gradients, dense or row-sparse
//===----------------------------------------------------------------------===//

/// Returns an error unless `rowIds` and `values` (the operand `name` of `op`)
/// form a row-sparse value of a table of shape `tableShape`: distinct ids in
/// ascending order within the table, and one row of values per id.
Status checkRows(const char *op, const char *name, const Tensor &rowIds,
                 const Tensor &values, const Shape &tableShape);

/// Where the scatter-add of a table gradient accumulates: every row of a
/// dense tensor of the table's shape, or the rows of a row-sparse value for
/// the distinct ids a batch looks up.
class TableGradient {
public:
  /// Makes `values` a zero tensor of `tableShape`, with a row per id.
  static TableGradient dense(const Shape &tableShape, Tensor &values);
  /// Makes `rowIds` the distinct elements of `ids` but `paddingIdx`,
  /// ascending, and `values` a zero row of `tableShape` for each.
  static TableGradient sparse(const Tensor &ids,
                              std::optional<int64_t> paddingIdx,
                              const Shape &tableShape, Tensor &rowIds,
                              Tensor &values);

  /// Returns the row of values() that the gradient of table row `id` is in;
  /// `id` is one the gradient was made for.
  int64_t rowOf(int64_t id) const;
  /// Returns the rows.
  Tensor &values() const { return values_; }

private:
  TableGradient(Tensor &values, const Tensor *rowIds)
      : values_(values), rowIds_(rowIds) {}

  Tensor &values_;
  const Tensor *rowIds_;
};

} // namespace openks::runtime::kernels::detail

#endif // OPENKS_LIB_RUNTIME_KERNELS_KERNELUTILS_H
