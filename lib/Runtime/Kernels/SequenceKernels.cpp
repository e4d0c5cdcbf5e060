//===- SequenceKernels.cpp - Pooling of variable-length sequences ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// sequence_pool and the fused embedding_pool: the rows of B sequences lie one
// after another, and a tensor of B lengths says where each ends (the running
// sums of the lengths are the offsets of Paddle's LoD). The lengths come from
// data, so they are checked: none negative, their sum the number of rows,
// computed without overflow.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

/// Returns an error unless `lengths` is a rank-1 i64 tensor of non-negative
/// lengths that sum to `rows`.
static Status checkLengths(const char *op, const Tensor &lengths,
                           int64_t rows) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, "lengths", lengths, DType::I64));
  OPENKS_RETURN_IF_ERROR(checkRank(op, "lengths", lengths, 1));
  const int64_t *data = lengths.data<int64_t>();
  int64_t sum = 0;
  for (int64_t index = 0; index < lengths.numel(); ++index) {
    if (data[index] < 0)
      return Status::invalidArgument("{}: length {} of sequence {} is negative",
                                     op, data[index], index);
    std::optional<int64_t> next = checkedAdd(sum, data[index]);
    if (!next || *next > rows)
      return Status::invalidArgument(
          "{}: the lengths up to sequence {} cover more than the {} rows", op,
          index, rows);
    sum = *next;
  }
  if (sum == rows)
    return Status::ok();
  return Status::invalidArgument("{}: the lengths sum to {}, but there are {} "
                                 "rows",
                                 op, sum, rows);
}

/// Returns the factor the sum of a sequence of `length` rows is scaled by.
template <typename T>
static T poolScale(kernels::PoolType type, int64_t length) {
  if (type == kernels::PoolType::Sum || length == 0)
    return T(1);
  if (type == kernels::PoolType::Mean)
    return T(1) / static_cast<T>(length);
  return T(1) / std::sqrt(static_cast<T>(length));
}

/// Calls `fn(sequence, begin, length, scale)` for each sequence, where the
/// rows [begin, begin + length) are its rows.
template <typename T, typename Fn>
static void forEachSequence(const Tensor &lengths, kernels::PoolType type,
                            Fn fn) {
  const int64_t *data = lengths.data<int64_t>();
  int64_t begin = 0;
  for (int64_t sequence = 0; sequence < lengths.numel(); ++sequence) {
    int64_t length = data[sequence];
    fn(sequence, begin, length, poolScale<T>(type, length));
    begin += length;
  }
}

//===----------------------------------------------------------------------===//
// sequence_pool
//===----------------------------------------------------------------------===//

/// Returns the shape of the pooling of `x`'s rows into `numSequences` rows.
static Shape pooledShape(const Shape &x, int64_t numSequences) {
  Shape shape = x;
  shape[0] = numSequences;
  return shape;
}

/// Returns an error unless `x` has rows and `lengths` splits them.
static Status checkSequences(const char *op, const Tensor &x,
                             const Tensor &lengths) {
  if (x.rank() == 0)
    return Status::invalidArgument("{}: x must have rank 1 or more", op);
  return checkLengths(op, lengths, x.dim(0));
}

Status kernels::sequencePool(const Tensor &x, const Tensor &lengths,
                             PoolType type, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkSequences("sequence_pool", x, lengths));
  OPENKS_RETURN_IF_ERROR(checkDType("sequence_pool", "out", out, x.dtype()));
  assert(&out != &x && "sequence_pool cannot write over its operand");
  out.resize(pooledShape(x.shape(), lengths.numel()));
  return dispatchFloat("sequence_pool", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int64_t width = x.shape().rowWidth();
    auto rows = rowsOf<T>(x, width);
    auto pooled = rowsOf<T>(out, width);
    forEachSequence<T>(
        lengths, type,
        [&](int64_t sequence, int64_t begin, int64_t length, T scale) {
          pooled.row(sequence) =
              rows.middleRows(begin, length).colwise().sum() * scale;
        });
  });
}

Status kernels::sequencePoolGrad(const Tensor &x, const Tensor &lengths,
                                 const Tensor &dout, PoolType type,
                                 Tensor &dx) {
  const char *op = "sequence_pool_grad";
  OPENKS_RETURN_IF_ERROR(checkSequences(op, x, lengths));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dout", dout, x.dtype()));
  OPENKS_RETURN_IF_ERROR(
      checkShape(op, "dout", dout, pooledShape(x.shape(), lengths.numel())));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dx", dx, x.dtype()));
  dx.resize(x.shape());
  return dispatchFloat(op, x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    int64_t width = x.shape().rowWidth();
    auto upstream = rowsOf<T>(dout, width);
    auto grad = rowsOf<T>(dx, width);
    forEachSequence<T>(
        lengths, type,
        [&](int64_t sequence, int64_t begin, int64_t length, T scale) {
          grad.middleRows(begin, length).rowwise() =
              upstream.row(sequence) * scale;
        });
  });
}

//===----------------------------------------------------------------------===//
// embedding_pool
//===----------------------------------------------------------------------===//

/// Returns an error unless `ids` is a rank-1 list of rows of a table of
/// `numRows` rows (or `paddingIdx`), split into lists by `lengths`.
static Status checkIdLists(const char *op, const Tensor &ids,
                           const Tensor &lengths, int64_t numRows,
                           std::optional<int64_t> paddingIdx) {
  OPENKS_RETURN_IF_ERROR(checkRank(op, "ids", ids, 1));
  OPENKS_RETURN_IF_ERROR(checkIds(op, ids, numRows, paddingIdx));
  return checkLengths(op, lengths, ids.dim(0));
}

/// Calls `fn(sequence, id, scale)` for each id of each list but `paddingIdx`,
/// with the factor its list's pooling scales a row by.
template <typename T, typename Fn>
static void forEachPooledId(const Tensor &ids, const Tensor &lengths,
                            kernels::PoolType type,
                            std::optional<int64_t> paddingIdx, Fn fn) {
  const int64_t *data = ids.data<int64_t>();
  forEachSequence<T>(
      lengths, type,
      [&](int64_t sequence, int64_t begin, int64_t length, T scale) {
        for (int64_t position = begin; position < begin + length; ++position)
          if (paddingIdx != data[position])
            fn(sequence, data[position], scale);
      });
}

Status kernels::embeddingPool(const Tensor &table, const Tensor &ids,
                              const Tensor &lengths, PoolType type,
                              std::optional<int64_t> paddingIdx, Tensor &out) {
  const char *op = "embedding_pool";
  OPENKS_RETURN_IF_ERROR(checkRank(op, "table", table, 2));
  OPENKS_RETURN_IF_ERROR(
      checkIdLists(op, ids, lengths, table.dim(0), paddingIdx));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "out", out, table.dtype()));
  assert(&out != &table && "embedding_pool cannot write over its table");
  int64_t width = table.dim(1);
  out.resize(Shape{lengths.numel(), width});
  return dispatchFloat(op, table.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto rows = rowsOf<T>(table, width);
    auto pooled = rowsOf<T>(out, width);
    pooled.setZero();
    forEachPooledId<T>(ids, lengths, type, paddingIdx,
                       [&](int64_t sequence, int64_t id, T scale) {
                         pooled.row(sequence) += rows.row(id) * scale;
                       });
  });
}

/// Checks the operands of an embedding_pool gradient: id lists within a
/// rank-2 table of `tableShape`, and a `dout` row per list, of the
/// gradient's element type `values`.
static Status checkEmbeddingPoolGrad(const Tensor &ids, const Tensor &lengths,
                                     const Tensor &dout,
                                     const Shape &tableShape,
                                     std::optional<int64_t> paddingIdx,
                                     const Tensor &values) {
  const char *op = "embedding_pool_grad";
  if (tableShape.rank() != 2)
    return Status::invalidArgument("{}: the table shape {} is not rank 2", op,
                                   tableShape.str());
  OPENKS_RETURN_IF_ERROR(
      checkIdLists(op, ids, lengths, tableShape[0], paddingIdx));
  OPENKS_RETURN_IF_ERROR(
      checkShape(op, "dout", dout, Shape{lengths.numel(), tableShape[1]}));
  return checkDType(op, "dtable", values, dout.dtype());
}

/// Scatter-adds `dout[b]`, divided as the pooling divides, into `grad` at
/// each id of list `b` but `paddingIdx`.
static Status scatterEmbeddingPoolGrad(const Tensor &ids, const Tensor &lengths,
                                       const Tensor &dout,
                                       kernels::PoolType type,
                                       std::optional<int64_t> paddingIdx,
                                       const TableGradient &grad) {
  int64_t width = grad.values().shape().rowWidth();
  return dispatchFloat("embedding_pool_grad", dout.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto rows = rowsOf<T>(grad.values(), width);
    auto upstream = rowsOf<T>(dout, width);
    forEachPooledId<T>(ids, lengths, type, paddingIdx,
                       [&](int64_t sequence, int64_t id, T scale) {
                         rows.row(grad.rowOf(id)) +=
                             upstream.row(sequence) * scale;
                       });
  });
}

Status kernels::embeddingPoolGrad(const Tensor &ids, const Tensor &lengths,
                                  const Tensor &dout, const Shape &tableShape,
                                  PoolType type,
                                  std::optional<int64_t> paddingIdx,
                                  Tensor &dtable) {
  OPENKS_RETURN_IF_ERROR(checkEmbeddingPoolGrad(ids, lengths, dout, tableShape,
                                                paddingIdx, dtable));
  return scatterEmbeddingPoolGrad(ids, lengths, dout, type, paddingIdx,
                                  TableGradient::dense(tableShape, dtable));
}

Status kernels::embeddingPoolGradRows(const Tensor &ids, const Tensor &lengths,
                                      const Tensor &dout,
                                      const Shape &tableShape, PoolType type,
                                      std::optional<int64_t> paddingIdx,
                                      Tensor &rowIds, Tensor &values) {
  OPENKS_RETURN_IF_ERROR(checkEmbeddingPoolGrad(ids, lengths, dout, tableShape,
                                                paddingIdx, values));
  return scatterEmbeddingPoolGrad(
      ids, lengths, dout, type, paddingIdx,
      TableGradient::sparse(ids, paddingIdx, tableShape, rowIds, values));
}
