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

#include <dnnl.h>

#include <algorithm>
#include <cassert>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

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

Status kernels::detail::gemm(const char *op, GemmOperand<float> a,
                             GemmOperand<float> b, float *out) {
  assert(a.productCols() == b.productRows() && "inner dimensions differ");
  if (isEmptyProduct(a, b, out))
    return Status::ok();
  int64_t m = a.productRows(), k = a.productCols(), n = b.productCols();
#ifdef OPENKS_THREAD_SANITIZER
  // ThreadSanitizer cannot see how OpenMP's uninstrumented threads hand
  // their results back: under it, products run on the calling thread alone.
  setComputeThreads(1);
#endif
  dnnl_status_t status =
      dnnl_sgemm(a.transposed ? 'T' : 'N', b.transposed ? 'T' : 'N', m, n, k,
                 1.0f, a.data, a.cols, b.data, b.cols, 0.0f, out, n);
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
