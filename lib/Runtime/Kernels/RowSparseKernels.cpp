//===- RowSparseKernels.cpp - Row-sparse values ---------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Row-sparse values: the table gradients that accumulate into them, their
// sum and their dense form. Sums add the rows of an id in the order a dense
// sum would, so a row-sparse gradient holds exactly the rows of the dense
// one.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <utility>
#include <vector>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

/// Returns the shape of `rows` rows of a table of shape `tableShape`.
static Shape rowsShape(const Shape &tableShape, int64_t rows) {
  Shape shape = tableShape;
  shape[0] = rows;
  return shape;
}

Status kernels::detail::checkRows(const char *op, const char *name,
                                  const Tensor &rowIds, const Tensor &values,
                                  const Shape &tableShape) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, "row ids", rowIds, DType::I64));
  OPENKS_RETURN_IF_ERROR(checkRank(op, "row ids", rowIds, 1));
  OPENKS_RETURN_IF_ERROR(
      checkShape(op, name, values, rowsShape(tableShape, rowIds.numel())));
  const int64_t *ids = rowIds.data<int64_t>();
  for (int64_t index = 0, e = rowIds.numel(); index < e; ++index) {
    if (ids[index] < 0 || ids[index] >= tableShape[0])
      return Status::outOfRange("{}: {} holds row {}, outside the table's {} "
                                "rows",
                                op, name, ids[index], tableShape[0]);
    if (index > 0 && ids[index] <= ids[index - 1])
      return Status::invalidArgument(
          "{}: the row ids of {} are not distinct and ascending: {} follows {}",
          op, name, ids[index], ids[index - 1]);
  }
  return Status::ok();
}

TableGradient TableGradient::dense(const Shape &tableShape, Tensor &values) {
  values.resize(tableShape);
  values.setZero();
  return TableGradient(values, nullptr);
}

/// Sorts the ids [first, last) ascending. Batches of non-negative ids, the
/// usual case, go through a least-significant-digit radix sort, a byte per
/// pass over only the bytes the largest id uses: a few linear passes where
/// a comparison sort costs log2(count) of them.
static void sortIds(int64_t *first, int64_t *last) {
  constexpr int kDigitBits = 8;
  constexpr int kBuckets = 1 << kDigitBits;
  int64_t count = last - first;
  int64_t largest = 0;
  bool negative = false;
  for (const int64_t *id = first; id != last; ++id) {
    largest = std::max(largest, *id);
    negative |= *id < 0;
  }
  if (negative || count < kBuckets) {
    std::sort(first, last);
    return;
  }
  int passes = 0;
  while (passes * kDigitBits < 64 && (largest >> (passes * kDigitBits)) != 0)
    ++passes;
  // Counts every digit of every pass in one read of the ids.
  std::vector<std::array<int64_t, kBuckets>> offsets(passes);
  for (std::array<int64_t, kBuckets> &pass : offsets)
    pass.fill(0);
  for (const int64_t *id = first; id != last; ++id)
    for (int pass = 0; pass < passes; ++pass)
      ++offsets[pass][(*id >> (pass * kDigitBits)) & (kBuckets - 1)];
  thread_local std::vector<int64_t> scratch;
  scratch.resize(count);
  int64_t *from = first, *to = scratch.data();
  for (int pass = 0; pass < passes; ++pass) {
    int64_t next = 0;
    for (int64_t &offset : offsets[pass])
      next += std::exchange(offset, next);
    for (const int64_t *id = from; id != from + count; ++id)
      to[offsets[pass][(*id >> (pass * kDigitBits)) & (kBuckets - 1)]++] = *id;
    std::swap(from, to);
  }
  if (from != first)
    std::copy_n(from, count, first);
}

/// Keeps the distinct ids of the rank-1 `rowIds` but `paddingIdx`, in
/// ascending order.
static void sortDistinct(std::optional<int64_t> paddingIdx, Tensor &rowIds) {
  int64_t *first = rowIds.data<int64_t>();
  int64_t *end = first + rowIds.numel();
  if (paddingIdx)
    end = std::remove(first, end, *paddingIdx);
  sortIds(first, end);
  end = std::unique(first, end);
  rowIds.resize(Shape{end - first});
}

TableGradient TableGradient::sparse(const Tensor &ids,
                                    std::optional<int64_t> paddingIdx,
                                    const Shape &tableShape, Tensor &rowIds,
                                    Tensor &values) {
  rowIds.resize(Shape{ids.numel()});
  std::copy_n(ids.data<int64_t>(), ids.numel(), rowIds.data<int64_t>());
  sortDistinct(paddingIdx, rowIds);
  values.resize(rowsShape(tableShape, rowIds.numel()));
  values.setZero();
  return TableGradient(values, &rowIds);
}

int64_t TableGradient::rowOf(int64_t id) const {
  if (!rowIds_)
    return id;
  const int64_t *first = rowIds_->data<int64_t>();
  const int64_t *last = first + rowIds_->numel();
  const int64_t *found = std::lower_bound(first, last, id);
  assert(found != last && *found == id && "no row for this id");
  return found - first;
}

Status kernels::mergeRows(const std::vector<const Tensor *> &rowIds,
                          const std::vector<const Tensor *> &values,
                          const Shape &tableShape, Tensor &outIds,
                          Tensor &outValues) {
  const char *op = "merge_rows";
  if (rowIds.size() != values.size() || rowIds.empty())
    return Status::invalidArgument(
        "{}: needs as many row id lists as row values, and at least one", op);
  OPENKS_RETURN_IF_ERROR(
      checkDType(op, "the result", outValues, values.front()->dtype()));
  int64_t total = 0;
  for (size_t input = 0; input < rowIds.size(); ++input) {
    OPENKS_RETURN_IF_ERROR(
        checkDType(op, "an input", *values[input], outValues.dtype()));
    OPENKS_RETURN_IF_ERROR(
        checkRows(op, "an input", *rowIds[input], *values[input], tableShape));
    total += rowIds[input]->numel();
  }
  // The union of the inputs' ids: all of them, sorted, without repeats.
  outIds.resize(Shape{total});
  int64_t *ids = outIds.data<int64_t>();
  for (const Tensor *input : rowIds)
    ids = std::copy_n(input->data<int64_t>(), input->numel(), ids);
  sortDistinct(std::nullopt, outIds);
  int64_t width = tableShape.rowWidth();
  outValues.resize(rowsShape(tableShape, outIds.numel()));
  outValues.setZero();
  return dispatchFloat(op, outValues.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto sum = rowsOf<T>(outValues, width);
    const int64_t *first = outIds.data<int64_t>();
    const int64_t *last = first + outIds.numel();
    for (size_t input = 0; input < rowIds.size(); ++input) {
      auto rows = rowsOf<T>(*values[input], width);
      const int64_t *inputIds = rowIds[input]->data<int64_t>();
      // Both id lists ascend: walk them together.
      const int64_t *at = first;
      for (int64_t row = 0, e = rowIds[input]->numel(); row < e; ++row) {
        at = std::lower_bound(at, last, inputIds[row]);
        sum.row(at - first) += rows.row(row);
      }
    }
  });
}

Status kernels::rowsToDense(const Tensor &rowIds, const Tensor &values,
                            const Shape &tableShape, Tensor &out) {
  const char *op = "rows_to_dense";
  OPENKS_RETURN_IF_ERROR(
      checkRows(op, "the value", rowIds, values, tableShape));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the result", out, values.dtype()));
  TableGradient dense = TableGradient::dense(tableShape, out);
  int64_t width = tableShape.rowWidth();
  return dispatchFloat(op, values.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto rows = rowsOf<T>(values, width);
    auto table = rowsOf<T>(dense.values(), width);
    const int64_t *ids = rowIds.data<int64_t>();
    for (int64_t row = 0, e = rowIds.numel(); row < e; ++row)
      table.row(ids[row]) = rows.row(row);
  });
}

Status kernels::changedRows(const Tensor &lhs, const Tensor &rhs,
                            Tensor &outIds, Tensor &outValues) {
  const char *op = "changed_rows";
  if (lhs.rank() < 1)
    return Status::invalidArgument("{}: cannot compare rank-0 tensors", op);
  OPENKS_RETURN_IF_ERROR(checkShape(op, "the right side", rhs, lhs.shape()));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the right side", rhs, lhs.dtype()));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the result", outValues, lhs.dtype()));
  int64_t width = lhs.shape().rowWidth();
  int64_t tableRows = lhs.dim(0);
  // At most every row differs; the buffers grow once to the table's size.
  outIds.resize(Shape{tableRows});
  outValues.resize(lhs.shape());
  int64_t changed = 0;
  OPENKS_RETURN_IF_ERROR(dispatchFloat(op, lhs.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *left = lhs.data<T>(), *right = rhs.data<T>();
    T *difference = outValues.data<T>();
    int64_t *ids = outIds.data<int64_t>();
    for (int64_t row = 0; row < tableRows; ++row) {
      const T *l = left + row * width, *r = right + row * width;
      if (std::equal(l, l + width, r))
        continue;
      T *out = difference + changed * width;
      for (int64_t column = 0; column < width; ++column)
        out[column] = l[column] - r[column];
      ids[changed++] = row;
    }
  }));
  outIds.resize(Shape{changed});
  outValues.resize(rowsShape(lhs.shape(), changed));
  return Status::ok();
}

Status kernels::scatterRows(const Tensor &rowIds, const Tensor &values,
                            bool accumulate, Tensor &param) {
  const char *op = "scatter_rows";
  OPENKS_RETURN_IF_ERROR(
      checkRows(op, "the value", rowIds, values, param.shape()));
  OPENKS_RETURN_IF_ERROR(
      checkDType(op, "the parameter", param, values.dtype()));
  int64_t width = param.shape().rowWidth();
  return dispatchFloat(op, values.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto rows = rowsOf<T>(values, width);
    auto table = rowsOf<T>(param, width);
    const int64_t *ids = rowIds.data<int64_t>();
    for (int64_t row = 0, e = rowIds.numel(); row < e; ++row)
      if (accumulate)
        table.row(ids[row]) += rows.row(row);
      else
        table.row(ids[row]) = rows.row(row);
  });
}

Status kernels::splitRowSections(const Tensor &rowIds, const Tensor &values,
                                 const std::vector<int64_t> &rows,
                                 const std::vector<Tensor *> &outIds,
                                 const std::vector<Tensor *> &outValues) {
  const char *op = "ps.split";
  if (rows.size() != outIds.size() || rows.size() != outValues.size())
    return Status::invalidArgument("{}: needs one result per section", op);
  if (values.rank() < 1)
    return Status::invalidArgument("{}: cannot split rank-0 rows", op);
  Shape tableShape = values.shape();
  tableShape[0] = 0;
  for (int64_t sectionRows : rows)
    tableShape[0] += sectionRows;
  OPENKS_RETURN_IF_ERROR(
      checkRows(op, "the value", rowIds, values, tableShape));
  int64_t width = tableShape.rowWidth();
  int64_t bytesPerRow = width * static_cast<int64_t>(dtypeSize(values.dtype()));
  const int64_t *ids = rowIds.data<int64_t>();
  const char *source = static_cast<const char *>(values.rawData());
  // The ids ascend: each section takes the next run of them.
  int64_t row = 0, sectionBegin = 0;
  for (size_t section = 0; section < rows.size(); ++section) {
    int64_t sectionEnd = sectionBegin + rows[section];
    int64_t first = row;
    while (row < rowIds.numel() && ids[row] < sectionEnd)
      ++row;
    Tensor &sectionIds = *outIds[section];
    Tensor &sectionValues = *outValues[section];
    OPENKS_RETURN_IF_ERROR(
        checkDType(op, "a section", sectionValues, values.dtype()));
    sectionIds.resize(Shape{row - first});
    for (int64_t index = first; index < row; ++index)
      sectionIds.data<int64_t>()[index - first] = ids[index] - sectionBegin;
    sectionValues.resize(rowsShape(values.shape(), row - first));
    std::copy_n(source + first * bytesPerRow, (row - first) * bytesPerRow,
                static_cast<char *>(sectionValues.rawData()));
    sectionBegin = sectionEnd;
  }
  return Status::ok();
}

Status kernels::concatRowSections(const std::vector<const Tensor *> &rowIds,
                                  const std::vector<const Tensor *> &values,
                                  const std::vector<int64_t> &rows,
                                  Tensor &outIds, Tensor &outValues) {
  const char *op = "ps.concat";
  if (rowIds.size() != rows.size() || values.size() != rows.size() ||
      rows.empty())
    return Status::invalidArgument("{}: needs one row-sparse value per section",
                                   op);
  int64_t total = 0;
  for (size_t section = 0; section < rows.size(); ++section) {
    Shape sectionShape = values[section]->shape();
    if (sectionShape.rank() < 1)
      return Status::invalidArgument("{}: cannot stack rank-0 rows", op);
    sectionShape[0] = rows[section];
    OPENKS_RETURN_IF_ERROR(checkRows(op, "a section", *rowIds[section],
                                     *values[section], sectionShape));
    OPENKS_RETURN_IF_ERROR(
        checkDType(op, "the result", outValues, values[section]->dtype()));
    total += rowIds[section]->numel();
  }
  int64_t bytesPerRow = values.front()->shape().rowWidth() *
                        static_cast<int64_t>(dtypeSize(outValues.dtype()));
  outIds.resize(Shape{total});
  outValues.resize(rowsShape(values.front()->shape(), total));
  int64_t *ids = outIds.data<int64_t>();
  char *target = static_cast<char *>(outValues.rawData());
  int64_t sectionBegin = 0;
  for (size_t section = 0; section < rows.size(); ++section) {
    int64_t count = rowIds[section]->numel();
    const int64_t *local = rowIds[section]->data<int64_t>();
    for (int64_t row = 0; row < count; ++row)
      *ids++ = local[row] + sectionBegin;
    target = std::copy_n(static_cast<const char *>(values[section]->rawData()),
                         count * bytesPerRow, target);
    sectionBegin += rows[section];
  }
  return Status::ok();
}

Status kernels::routeIds(const std::vector<const Tensor *> &ids,
                         const std::string &table,
                         const std::vector<int64_t> &rows,
                         const std::vector<Tensor *> &outs) {
  const char *op = "ps.route_ids";
  if (outs.size() != rows.size() || rows.empty())
    return Status::invalidArgument("{}: needs one result per section", op);
  int64_t tableRows = 0;
  for (int64_t sectionRows : rows)
    tableRows += sectionRows;
  // The ids of all inputs, sorted without repeats; the buffer is kept.
  thread_local std::vector<int64_t> distinct;
  distinct.clear();
  for (const Tensor *input : ids) {
    OPENKS_RETURN_IF_ERROR(checkDType(op, "ids", *input, DType::I64));
    const int64_t *data = input->data<int64_t>();
    for (int64_t position = 0, e = input->numel(); position < e; ++position) {
      if (data[position] < 0 || data[position] >= tableRows)
        return Status::outOfRange("{}: id {} is outside the {} rows of table "
                                  "@{}",
                                  op, data[position], tableRows, table);
      distinct.push_back(data[position]);
    }
  }
  sortIds(distinct.data(), distinct.data() + distinct.size());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  // Each section takes the next run of ids, made local to it.
  auto id = distinct.begin();
  int64_t sectionBegin = 0;
  for (size_t section = 0; section < rows.size(); ++section) {
    Tensor &out = *outs[section];
    OPENKS_RETURN_IF_ERROR(checkDType(op, "a section", out, DType::I64));
    int64_t sectionEnd = sectionBegin + rows[section];
    auto end = std::lower_bound(id, distinct.end(), sectionEnd);
    out.resize(Shape{end - id});
    std::transform(id, end, out.data<int64_t>(),
                   [&](int64_t global) { return global - sectionBegin; });
    id = end;
    sectionBegin = sectionEnd;
  }
  return Status::ok();
}

Status kernels::findRows(const Tensor &rowIds, const Tensor &ids,
                         int64_t tableRows, std::optional<int64_t> paddingIdx,
                         Tensor &out) {
  const char *op = "embedding";
  OPENKS_RETURN_IF_ERROR(checkDType(op, "ids", ids, DType::I64));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "row ids", rowIds, DType::I64));
  out.resize(ids.shape());
  const int64_t *first = rowIds.data<int64_t>();
  const int64_t *last = first + rowIds.numel();
  const int64_t *data = ids.data<int64_t>();
  int64_t *positions = out.data<int64_t>();
  for (int64_t position = 0, e = ids.numel(); position < e; ++position) {
    int64_t id = data[position];
    if (paddingIdx == id) {
      positions[position] = -1;
      continue;
    }
    const int64_t *found = std::lower_bound(first, last, id);
    if (found == last || *found != id)
      return Status::outOfRange(
          id < 0 || id >= tableRows
              ? fmt::format("{}: id {} at position {} is outside the table's "
                            "{} rows",
                            op, id, position, tableRows)
              : fmt::format("{}: id {} at position {} is not among the {} "
                            "rows fetched of the table",
                            op, id, position, rowIds.numel()));
    positions[position] = found - first;
  }
  return Status::ok();
}
