//===- ShapeKernels.cpp - reduce_sum, reshape, concat, transpose ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Kernels that move elements between layouts. reduce_sum merges adjacent
// dimensions that are all reduced or all kept, so it only ever walks
// contiguous runs. Copies that do not depend on the element type (reshape,
// concat, split, embedding lookup) move bytes. The kernels behind upstream
// ops that make and rearrange tensors (tensor.dim, tensor.empty, linalg.fill
// and linalg.transpose) are here too.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"
#include "openks/Support/Limits.h"

#include "KernelUtils.h"

#include <algorithm>
#include <array>
#include <cstring>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

/// Returns the `index`-th element of `tensor` as a byte pointer.
template <typename TensorT> static auto byteAt(TensorT &tensor, int64_t index) {
  using Byte = ElementOf<TensorT, std::byte>;
  return static_cast<Byte *>(tensor.rawData()) +
         index * static_cast<int64_t>(dtypeSize(tensor.dtype()));
}

//===----------------------------------------------------------------------===//
// reduce_sum
//===----------------------------------------------------------------------===//

namespace {
/// A reduction seen as groups of adjacent dimensions of x that are all
/// reduced or all kept (size-1 dimensions dropped), so that the innermost
/// group is a contiguous run of x that either sums into one output element
/// or maps onto a run of the output.
struct ReduceLayout {
  int numGroups = 0;
  std::array<int64_t, Shape::kMaxRank> sizes{};
  std::array<bool, Shape::kMaxRank> reduced{};
  /// The output shape, following keep_dims.
  Shape outShape;

  int64_t innerSize() const { return sizes[numGroups - 1]; }
  bool innerReduced() const { return reduced[numGroups - 1]; }
};
} // namespace

/// Builds the layout of reducing `shape` over `dims` (all when empty).
static Status makeReduceLayout(const char *op, const Shape &shape,
                               const std::vector<int64_t> &dims, bool keepDims,
                               ReduceLayout &layout) {
  std::array<bool, Shape::kMaxRank> isReduced{};
  for (int dim = 0; dim < shape.rank(); ++dim)
    isReduced[dim] = dims.empty();
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= shape.rank())
      return Status::invalidArgument(
          "{}: dimension {} is out of range for shape {}", op, dim,
          shape.str());
    if (isReduced[dim])
      return Status::invalidArgument("{}: dimension {} is listed twice", op,
                                     dim);
    isReduced[dim] = true;
  }
  for (int dim = 0; dim < shape.rank(); ++dim) {
    if (!isReduced[dim])
      layout.outShape.push_back(shape[dim]);
    else if (keepDims)
      layout.outShape.push_back(1);
    if (shape[dim] == 1)
      continue;
    int last = layout.numGroups - 1;
    if (last >= 0 && layout.reduced[last] == isReduced[dim]) {
      layout.sizes[last] *= shape[dim];
      continue;
    }
    layout.sizes[last + 1] = shape[dim];
    layout.reduced[last + 1] = isReduced[dim];
    ++layout.numGroups;
  }
  // A tensor of one element is one kept run.
  if (layout.numGroups == 0) {
    layout.sizes[0] = 1;
    layout.numGroups = 1;
  }
  return Status::ok();
}

/// Calls `fn(xOffset, outOffset)` for each contiguous run of
/// `layout.innerSize()` elements of x, in order, where `outOffset` is the
/// output element the run sums into (inner group reduced) or the start of
/// the output run it maps onto (inner group kept).
template <typename Fn>
static void forEachRun(const ReduceLayout &layout, Fn fn) {
  int numGroups = layout.numGroups;
  int64_t numel = 1;
  for (int group = 0; group < numGroups; ++group)
    numel *= layout.sizes[group];
  if (numel == 0)
    return;
  // The output stride of each group: 0 for reduced groups.
  std::array<int64_t, Shape::kMaxRank> outStride{};
  int64_t stride = 1;
  for (int group = numGroups - 1; group >= 0; --group) {
    if (layout.reduced[group])
      continue;
    outStride[group] = stride;
    stride *= layout.sizes[group];
  }
  std::array<int64_t, Shape::kMaxRank> index{};
  int64_t inner = layout.innerSize();
  int64_t outOffset = 0;
  for (int64_t xOffset = 0; xOffset < numel; xOffset += inner) {
    fn(xOffset, outOffset);
    // Step the outer groups like an odometer.
    for (int group = numGroups - 2; group >= 0; --group) {
      outOffset += outStride[group];
      if (++index[group] < layout.sizes[group])
        break;
      outOffset -= outStride[group] * layout.sizes[group];
      index[group] = 0;
    }
  }
}

Status kernels::reduceSum(const Tensor &x, const std::vector<int64_t> &dims,
                          bool keepDims, Tensor &out) {
  ReduceLayout layout;
  OPENKS_RETURN_IF_ERROR(
      makeReduceLayout("reduce_sum", x.shape(), dims, keepDims, layout));
  OPENKS_RETURN_IF_ERROR(checkDType("reduce_sum", "out", out, x.dtype()));
  assert(&out != &x && "reduce_sum cannot write over its operand");
  out.resize(layout.outShape);
  out.setZero();
  return dispatchFloat("reduce_sum", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *in = x.data<T>();
    T *sums = out.data<T>();
    int64_t inner = layout.innerSize();
    if (layout.innerReduced())
      forEachRun(layout, [&](int64_t xOffset, int64_t outOffset) {
        sums[outOffset] += vec(in + xOffset, inner).sum();
      });
    else
      forEachRun(layout, [&](int64_t xOffset, int64_t outOffset) {
        vec(sums + outOffset, inner) += vec(in + xOffset, inner);
      });
  });
}

Status kernels::reduceSumGrad(const Tensor &x, const Tensor &dout,
                              const std::vector<int64_t> &dims, bool keepDims,
                              Tensor &dx) {
  ReduceLayout layout;
  OPENKS_RETURN_IF_ERROR(
      makeReduceLayout("reduce_sum_grad", x.shape(), dims, keepDims, layout));
  OPENKS_RETURN_IF_ERROR(
      checkDType("reduce_sum_grad", "dout", dout, x.dtype()));
  OPENKS_RETURN_IF_ERROR(
      checkShape("reduce_sum_grad", "dout", dout, layout.outShape));
  OPENKS_RETURN_IF_ERROR(checkDType("reduce_sum_grad", "dx", dx, x.dtype()));
  dx.resize(x.shape());
  return dispatchFloat("reduce_sum_grad", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *upstream = dout.data<T>();
    T *grad = dx.data<T>();
    int64_t inner = layout.innerSize();
    if (layout.innerReduced())
      forEachRun(layout, [&](int64_t xOffset, int64_t outOffset) {
        vec(grad + xOffset, inner).setConstant(upstream[outOffset]);
      });
    else
      forEachRun(layout, [&](int64_t xOffset, int64_t outOffset) {
        vec(grad + xOffset, inner) = vec(upstream + outOffset, inner);
      });
  });
}

//===----------------------------------------------------------------------===//
// reshape
//===----------------------------------------------------------------------===//

Status kernels::copy(const Tensor &x, Tensor &out) {
  out.copyFrom(x);
  return Status::ok();
}

Status kernels::reshape(const Tensor &x, const Shape &shape, Tensor &out) {
  Shape resolved = shape;
  int inferred = -1;
  int64_t known = 1;
  for (int dim = 0; dim < shape.rank(); ++dim) {
    if (shape[dim] >= 0) {
      known *= shape[dim];
      continue;
    }
    if (shape[dim] != -1 || inferred >= 0)
      return Status::invalidArgument(
          "reshape: shape {} may hold one -1 and otherwise "
          "only sizes",
          shape.str());
    inferred = dim;
  }
  if (inferred >= 0 && known != 0 && x.numel() % known == 0)
    resolved[inferred] = x.numel() / known;
  if ((inferred >= 0 && resolved[inferred] < 0) ||
      resolved.numel() != x.numel())
    return Status::invalidArgument(
        "reshape: cannot view {} elements of shape {} as {}", x.numel(),
        x.shape().str(), shape.str());
  OPENKS_RETURN_IF_ERROR(checkDType("reshape", "out", out, x.dtype()));
  // Within the old size, resizing `out` keeps its buffer, so x == out works.
  out.resize(resolved);
  if (&out != &x)
    std::memcpy(out.rawData(), x.rawData(), x.numel() * dtypeSize(x.dtype()));
  return Status::ok();
}

Status kernels::reshapeGrad(const Tensor &x, const Tensor &dout, Tensor &dx) {
  return reshape(dout, x.shape(), dx).withContext("reshape_grad");
}

//===----------------------------------------------------------------------===//
// Sizes, new tensors and transposition
//===----------------------------------------------------------------------===//

/// Calls `fn(T())` with T the element type of `dtype`, integers included.
template <typename Fn> static void dispatchAny(DType dtype, Fn &&fn) {
  switch (dtype) {
  case DType::F32:
    return fn(float());
  case DType::F64:
    return fn(double());
  case DType::I64:
    return fn(int64_t());
  }
}

Status kernels::fillLike(const Tensor &value, const Tensor &like, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkRank("fill", "the value", value, 0));
  OPENKS_RETURN_IF_ERROR(checkDType("fill", "the result", out, value.dtype()));
  out.resize(like.shape());
  dispatchAny(value.dtype(), [&](auto tag) {
    using T = decltype(tag);
    std::fill_n(out.data<T>(), out.numel(), *value.data<T>());
  });
  return Status::ok();
}

Status kernels::zeros(const Shape &shape,
                      const std::vector<const Tensor *> &dynamicSizes,
                      Tensor &out) {
  Shape resolved = shape;
  size_t next = 0;
  for (int dim = 0; dim < shape.rank(); ++dim) {
    if (shape[dim] >= 0)
      continue;
    if (next == dynamicSizes.size())
      return Status::invalidArgument(
          "empty: shape {} has more dynamic sizes than the {} given",
          shape.str(), dynamicSizes.size());
    const Tensor &size = *dynamicSizes[next++];
    OPENKS_RETURN_IF_ERROR(checkRank("empty", "a size", size, 0));
    OPENKS_RETURN_IF_ERROR(checkDType("empty", "a size", size, DType::I64));
    resolved[dim] = *size.data<int64_t>();
    if (resolved[dim] < 0)
      return Status::invalidArgument("empty: size {} of dimension {} is "
                                     "negative",
                                     resolved[dim], dim);
  }
  if (next != dynamicSizes.size())
    return Status::invalidArgument(
        "empty: shape {} has fewer dynamic sizes than the {} given",
        shape.str(), dynamicSizes.size());
  // A size from the data is checked against what the plan sized the
  // buffer for, before anything is allocated.
  std::optional<int64_t> numel = boundedProduct(resolved);
  if (!numel || *numel > out.capacity())
    return Status::invalidArgument(
        "empty: shape {} holds more than the {} elements planned for it",
        resolved.str(), out.capacity());
  out.resize(resolved);
  out.setZero();
  return Status::ok();
}

Status kernels::dimSize(const Tensor &x, int64_t dim, Tensor &out) {
  if (dim < 0 || dim >= x.rank())
    return Status::invalidArgument("dim: dimension {} of a tensor of shape {}",
                                   dim, x.shape().str());
  OPENKS_RETURN_IF_ERROR(checkDType("dim", "the result", out, DType::I64));
  out.resize(Shape{});
  *out.data<int64_t>() = x.dim(static_cast<int>(dim));
  return Status::ok();
}

Status kernels::transpose(const Tensor &x,
                          const std::vector<int64_t> &permutation,
                          Tensor &out) {
  int rank = x.rank();
  std::vector<bool> seen(rank, false);
  bool valid = static_cast<int>(permutation.size()) == rank;
  for (size_t j = 0; valid && j < permutation.size(); ++j) {
    valid =
        permutation[j] >= 0 && permutation[j] < rank && !seen[permutation[j]];
    if (valid)
      seen[permutation[j]] = true;
  }
  if (!valid)
    return Status::invalidArgument(
        "transpose: the permutation has {} entries, not a permutation of "
        "the {} dimensions of shape {}",
        permutation.size(), rank, x.shape().str());
  OPENKS_RETURN_IF_ERROR(checkDType("transpose", "the result", out, x.dtype()));
  if (&out == &x)
    return Status::invalidArgument("transpose: the result is the input");
  Shape shape = x.shape();
  // x's stride of each of out's dimensions, in elements.
  std::vector<int64_t> xStrides(rank, 1), strides(rank);
  for (int d = rank - 2; d >= 0; --d)
    xStrides[d] = xStrides[d + 1] * x.dim(d + 1);
  for (int j = 0; j < rank; ++j) {
    shape[j] = x.dim(static_cast<int>(permutation[j]));
    strides[j] = xStrides[permutation[j]];
  }
  out.resize(shape);
  dispatchAny(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *from = x.data<T>();
    T *to = out.data<T>();
    // Walk out in order, keeping x's offset of the current index.
    std::vector<int64_t> index(rank, 0);
    int64_t offset = 0;
    for (int64_t i = 0, n = out.numel(); i < n; ++i) {
      to[i] = from[offset];
      for (int j = rank - 1; j >= 0; --j) {
        offset += strides[j];
        if (++index[j] < shape[j])
          break;
        offset -= strides[j] * shape[j];
        index[j] = 0;
      }
    }
  });
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// concat and split
//===----------------------------------------------------------------------===//

/// Calls `copy(part, partOffset, wholeOffset, count)` for each contiguous
/// block of `count` elements that `whole` shares with `parts[part]`, where
/// the parts are consecutive slices of `whole` along `axis`.
template <typename PartPtr, typename CopyFn>
static void forEachSliceBlock(const Shape &whole, int64_t axis,
                              const std::vector<PartPtr> &parts, CopyFn copy) {
  int64_t outer = 1;
  int64_t inner = 1;
  for (int dim = 0; dim < whole.rank(); ++dim) {
    if (dim < axis)
      outer *= whole[dim];
    else if (dim > axis)
      inner *= whole[dim];
  }
  for (int64_t block = 0, wholeOffset = 0; block < outer; ++block) {
    for (size_t part = 0; part < parts.size(); ++part) {
      int64_t count = parts[part]->dim(axis) * inner;
      copy(part, block * count, wholeOffset, count);
      wholeOffset += count;
    }
  }
}

/// Copies `whole` into `parts`, consecutive slices along `axis` whose shapes
/// are already set.
static void splitInto(const Tensor &whole, int64_t axis,
                      const std::vector<Tensor *> &parts) {
  size_t elementSize = dtypeSize(whole.dtype());
  forEachSliceBlock(
      whole.shape(), axis, parts,
      [&](size_t part, int64_t partOffset, int64_t wholeOffset, int64_t count) {
        std::memcpy(byteAt(*parts[part], partOffset),
                    byteAt(whole, wholeOffset), count * elementSize);
      });
}

/// Sets `shape` to the shape of the concatenation of `inputs` along `axis`,
/// or returns an error if they do not fit together.
static Status concatShape(const char *op,
                          const std::vector<const Tensor *> &inputs,
                          int64_t axis, Shape &shape) {
  if (inputs.empty())
    return Status::invalidArgument("{}: needs at least one input", op);
  const Tensor &first = *inputs.front();
  if (axis < 0 || axis >= first.rank())
    return Status::invalidArgument("{}: axis {} is out of range for rank {}",
                                   op, axis, first.rank());
  shape = first.shape();
  shape[axis] = 0;
  for (size_t index = 0; index < inputs.size(); ++index) {
    const Tensor &input = *inputs[index];
    Shape expected = shape;
    expected[axis] = input.rank() == first.rank() ? input.dim(axis) : 0;
    if (input.dtype() != first.dtype() || input.shape() != expected)
      return Status::invalidArgument(
          "{}: input {} is {}, which does not concatenate "
          "with {} along axis {}",
          op, index, input.typeString(), first.typeString(), axis);
    shape[axis] += input.dim(axis);
  }
  return Status::ok();
}

Status kernels::concat(const std::vector<const Tensor *> &inputs, int64_t axis,
                       Tensor &out) {
  Shape shape;
  OPENKS_RETURN_IF_ERROR(concatShape("concat", inputs, axis, shape));
  OPENKS_RETURN_IF_ERROR(
      checkDType("concat", "out", out, inputs.front()->dtype()));
  assert(std::find(inputs.begin(), inputs.end(), &out) == inputs.end() &&
         "concat cannot write over an input");
  out.resize(shape);
  size_t elementSize = dtypeSize(out.dtype());
  forEachSliceBlock(
      shape, axis, inputs,
      [&](size_t part, int64_t partOffset, int64_t wholeOffset, int64_t count) {
        std::memcpy(byteAt(out, wholeOffset), byteAt(*inputs[part], partOffset),
                    count * elementSize);
      });
  return Status::ok();
}

Status kernels::concatGrad(const std::vector<const Tensor *> &inputs,
                           const Tensor &dout, int64_t axis,
                           const std::vector<Tensor *> &dinputs) {
  Shape shape;
  OPENKS_RETURN_IF_ERROR(concatShape("concat_grad", inputs, axis, shape));
  OPENKS_RETURN_IF_ERROR(
      checkDType("concat_grad", "dout", dout, inputs.front()->dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape("concat_grad", "dout", dout, shape));
  if (dinputs.size() != inputs.size())
    return Status::invalidArgument("concat_grad: {} gradients for {} inputs",
                                   dinputs.size(), inputs.size());
  for (size_t index = 0; index < inputs.size(); ++index) {
    OPENKS_RETURN_IF_ERROR(
        checkDType("concat_grad", "dinputs", *dinputs[index], dout.dtype()));
    dinputs[index]->resize(inputs[index]->shape());
  }
  splitInto(dout, axis, dinputs);
  return Status::ok();
}

Status kernels::splitRows(const Tensor &x, const std::vector<int64_t> &rows,
                          const std::vector<Tensor *> &outs) {
  if (x.rank() == 0)
    return Status::invalidArgument("split_rows: x must have rank 1 or more");
  if (outs.size() != rows.size())
    return Status::invalidArgument("split_rows: {} outputs for {} row sections",
                                   outs.size(), rows.size());
  int64_t total = 0;
  for (int64_t count : rows) {
    if (count < 0)
      return Status::invalidArgument("split_rows: negative section size {}",
                                     count);
    total += count;
  }
  if (total != x.dim(0))
    return Status::invalidArgument(
        "split_rows: sections of {} rows in total do not "
        "split {}",
        total, x.shape().str());
  for (size_t index = 0; index < outs.size(); ++index) {
    OPENKS_RETURN_IF_ERROR(
        checkDType("split_rows", "outs", *outs[index], x.dtype()));
    Shape shape = x.shape();
    shape[0] = rows[index];
    outs[index]->resize(shape);
  }
  splitInto(x, 0, outs);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// embedding
//===----------------------------------------------------------------------===//

Status kernels::embedding(const Tensor &table, const Tensor &ids,
                          std::optional<int64_t> paddingIdx, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkRank("embedding", "table", table, 2));
  OPENKS_RETURN_IF_ERROR(checkIds("embedding", ids, table.dim(0), paddingIdx));
  OPENKS_RETURN_IF_ERROR(checkDType("embedding", "out", out, table.dtype()));
  int64_t width = table.dim(1);
  Shape shape = ids.shape();
  shape.push_back(width);
  out.resize(shape);
  const int64_t *data = ids.data<int64_t>();
  size_t rowBytes = width * dtypeSize(table.dtype());
  for (int64_t position = 0, e = ids.numel(); position < e; ++position) {
    std::byte *row = byteAt(out, position * width);
    if (paddingIdx == data[position])
      std::memset(row, 0, rowBytes);
    else
      std::memcpy(row, byteAt(table, data[position] * width), rowBytes);
  }
  return Status::ok();
}

/// Checks the operands of an embedding gradient: ids within a rank-2 table
/// of `tableShape`, and a `dout` row for each id, of the gradient's element
/// type `values`.
static Status checkEmbeddingGrad(const Tensor &ids, const Tensor &dout,
                                 const Shape &tableShape,
                                 std::optional<int64_t> paddingIdx,
                                 const Tensor &values) {
  if (tableShape.rank() != 2)
    return Status::invalidArgument(
        "embedding_grad: the table shape {} is not rank 2", tableShape.str());
  OPENKS_RETURN_IF_ERROR(
      checkIds("embedding_grad", ids, tableShape[0], paddingIdx));
  Shape expected = ids.shape();
  expected.push_back(tableShape[1]);
  OPENKS_RETURN_IF_ERROR(checkShape("embedding_grad", "dout", dout, expected));
  return checkDType("embedding_grad", "dtable", values, dout.dtype());
}

/// Scatter-adds the rows of `dout` at `ids` into `grad`, skipping
/// `paddingIdx`.
static Status scatterEmbeddingGrad(const Tensor &ids, const Tensor &dout,
                                   std::optional<int64_t> paddingIdx,
                                   const TableGradient &grad) {
  int64_t width = grad.values().shape().rowWidth();
  return dispatchFloat("embedding_grad", dout.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto rows = rowsOf<T>(grad.values(), width);
    auto upstream = rowsOf<T>(dout, width);
    const int64_t *data = ids.data<int64_t>();
    for (Eigen::Index position = 0; position < upstream.rows(); ++position)
      if (paddingIdx != data[position])
        rows.row(grad.rowOf(data[position])) += upstream.row(position);
  });
}

Status kernels::embeddingGrad(const Tensor &ids, const Tensor &dout,
                              const Shape &tableShape,
                              std::optional<int64_t> paddingIdx,
                              Tensor &dtable) {
  OPENKS_RETURN_IF_ERROR(
      checkEmbeddingGrad(ids, dout, tableShape, paddingIdx, dtable));
  return scatterEmbeddingGrad(ids, dout, paddingIdx,
                              TableGradient::dense(tableShape, dtable));
}

Status kernels::embeddingGradRows(const Tensor &ids, const Tensor &dout,
                                  const Shape &tableShape,
                                  std::optional<int64_t> paddingIdx,
                                  Tensor &rowIds, Tensor &values) {
  OPENKS_RETURN_IF_ERROR(
      checkEmbeddingGrad(ids, dout, tableShape, paddingIdx, values));
  return scatterEmbeddingGrad(
      ids, dout, paddingIdx,
      TableGradient::sparse(ids, paddingIdx, tableShape, rowIds, values));
}
