//===- Gemm.cpp - General matrix products for the kernels -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Gemm.h"

#include "KernelUtils.h"

#include "openks/Runtime/ComputeThreads.h"
#include "openks/Support/TaskPool.h"

#include <dnnl.h>

#include <algorithm>
#include <atomic>
#include <cassert>
#include <memory>

// oneDNN's OpenMP runtime, by its C ABI (<omp.h> ships with the compiler
// that provides the runtime, not with the runtime).
extern "C" void omp_set_num_threads(int threads);

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

/// The fewest multiply-adds worth a thread of their own: about 40 us of
/// work. With a quarter of that, the MLP's batch-64 products ran slower on
/// two threads than on one (docs/performance.md).
static constexpr int64_t kMinMacsPerPart = int64_t(1) << 23;
/// Parts of a product are multiples of this many rows or columns, the
/// blocking of sgemm's kernels.
static constexpr int64_t kPartAlignment = 16;

/// Returns whether the product is empty, after writing its zeros (an inner
/// dimension of 0 sums nothing).
template <typename T>
static bool isEmptyProduct(const GemmOperand<T> &a, const GemmOperand<T> &b,
                           T *out) {
  int64_t m = a.productRows(), k = a.productCols(), n = b.productCols();
  if (m != 0 && n != 0 && k != 0)
    return false;
  std::fill_n(out, m * n, T(0));
  return true;
}

namespace {
/// One f32 product, cut into parts along the larger of the result's rows
/// and columns, each part a product of its own.
struct SplitProduct {
  GemmOperand<float> a, b;
  float *out;
  int64_t m, k, n;
  /// Whether the parts are row ranges of the result (else column ranges).
  bool byRows;
  /// The rows or columns of a part (the last may have fewer).
  int64_t partSize;
  std::atomic<int> failure{dnnl_success};

  /// Multiplies part `part` with oneDNN's sgemm on the calling thread.
  void runPart(int part) {
    // oneDNN runs each part on one thread: the parts are the parallelism.
    static thread_local bool singleThreaded = (omp_set_num_threads(1), true);
    (void)singleThreaded;
    int64_t begin = part * partSize;
    int64_t size = std::min(partSize, (byRows ? m : n) - begin);
    // Rows of op(a) are rows of a, or its columns when read transposed;
    // likewise columns of op(b).
    const float *left = a.data, *right = b.data;
    float *result = out;
    if (byRows) {
      left += a.transposed ? begin : begin * a.cols;
      result += begin * n;
    } else {
      right += b.transposed ? begin * b.cols : begin;
      result += begin;
    }
    dnnl_status_t status =
        dnnl_sgemm(a.transposed ? 'T' : 'N', b.transposed ? 'T' : 'N',
                   byRows ? size : m, byRows ? n : size, k, 1.0f, left, a.cols,
                   right, b.cols, 0.0f, result, n);
    if (status != dnnl_success) {
      int expected = dnnl_success;
      failure.compare_exchange_strong(expected, status);
    }
  }
};
} // namespace

/// Returns the calling thread's pool of `helpers` threads for the parts of
/// products, or null when it cannot be had (the product then runs whole).
static TaskPool *getProductPool(int helpers) {
  static thread_local std::unique_ptr<TaskPool> pool;
  static thread_local int poolHelpers = 0;
  if (poolHelpers != helpers) {
    pool.reset();
    StatusOr<std::unique_ptr<TaskPool>> created =
        TaskPool::create(helpers, "the matrix products' threads");
    pool = created ? std::move(*created) : nullptr;
    poolHelpers = pool ? helpers : 0;
  }
  return pool.get();
}

Status kernels::detail::gemm(const char *op, GemmOperand<float> a,
                             GemmOperand<float> b, float *out) {
  assert(a.productCols() == b.productRows() && "inner dimensions differ");
  if (isEmptyProduct(a, b, out))
    return Status::ok();
  int64_t m = a.productRows(), k = a.productCols(), n = b.productCols();

  // As many parts as the budget allows, each of at least kMinMacsPerPart
  // and kPartAlignment rows or columns.
  SplitProduct product{a, b, out, m, k, n, m >= n, 0};
  int64_t length = product.byRows ? m : n;
  int64_t parts = std::min<int64_t>(
      getComputeThreads(), (length + kPartAlignment - 1) / kPartAlignment);
  double work = static_cast<double>(m) * static_cast<double>(k) *
                static_cast<double>(n) / kMinMacsPerPart;
  if (work < static_cast<double>(parts))
    parts = std::max<int64_t>(1, static_cast<int64_t>(work));
  TaskPool *pool =
      parts > 1 ? getProductPool(getComputeThreads() - 1) : nullptr;
  if (!pool)
    parts = 1;
  int64_t perPart = (length + parts - 1) / parts;
  product.partSize =
      (perPart + kPartAlignment - 1) / kPartAlignment * kPartAlignment;
  parts = (length + product.partSize - 1) / product.partSize;
  if (parts == 1) {
    product.partSize = length;
    product.runPart(0);
  } else {
    SplitProduct *shared = &product;
    pool->run(static_cast<int>(parts),
              [shared](int part) { shared->runPart(part); });
  }
  auto status = static_cast<dnnl_status_t>(product.failure.load());
  if (status == dnnl_success)
    return Status::ok();
  if (status == dnnl_out_of_memory)
    return Status::error(StatusCode::ResourceExhausted,
                         "{}: out of memory in a {}x{}x{} product", op, m, k,
                         n);
  return Status::internal("{}: oneDNN's sgemm failed on a {}x{}x{} product "
                          "(status {})",
                          op, m, k, n, static_cast<int>(status));
}

/// Calls `fn` with `operand` as an Eigen matrix, transposed if it is read so.
template <typename T, typename Fn>
static void withMatrix(const GemmOperand<T> &operand, Fn &&fn) {
  MapOf<const T, RowMajorMatrix<T>> matrix(operand.data, operand.rows,
                                           operand.cols);
  if (operand.transposed)
    fn(matrix.transpose());
  else
    fn(matrix);
}

Status kernels::detail::gemm(const char *, GemmOperand<double> a,
                             GemmOperand<double> b, double *out) {
  assert(a.productCols() == b.productRows() && "inner dimensions differ");
  if (isEmptyProduct(a, b, out))
    return Status::ok();
  MapOf<double, RowMajorMatrix<double>> result(out, a.productRows(),
                                               b.productCols());
  withMatrix(a, [&](const auto &left) {
    withMatrix(b, [&](const auto &right) { result.noalias() = left * right; });
  });
  return Status::ok();
}
