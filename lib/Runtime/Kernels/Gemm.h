//===- Gemm.h - General matrix products for the kernels ---------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one GEMM every matrix kernel calls. f32 products go to oneDNN's sgemm,
// which picks its code for the CPU it runs on (AVX-512, AVX2, SSE4.1) when
// it is first called, so the binaries stay baseline x86-64 and still run at
// the machine's speed. A large product is cut into ranges of its result's
// rows or columns, as many as the calling thread's compute budget allows
// (see ComputeThreads.h), which run on that thread and a pool of its own,
// each range on one thread of oneDNN's: unlike OpenMP's threads, the pool's
// wait without spinning, so a loaded machine does not make a product wait
// for a thread that is not running. f64 products, which no example trains
// in, go to Eigen.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_KERNELS_GEMM_H
#define OPENKS_LIB_RUNTIME_KERNELS_GEMM_H

#include "openks/Support/Status.h"

#include <cstdint>

namespace openks::runtime::kernels::detail {

/// A row-major matrix operand of a product: `rows` x `cols` elements at
/// `data`, read transposed when `transposed` is set (then the product sees
/// it as `cols` x `rows`). Rows are `cols` elements apart.
template <typename T> struct GemmOperand {
  const T *data;
  int64_t rows, cols;
  bool transposed = false;

  /// Returns the number of rows of the operand as the product sees it.
  int64_t productRows() const { return transposed ? cols : rows; }
  /// Returns the number of columns of the operand as the product sees it.
  int64_t productCols() const { return transposed ? rows : cols; }
};

/// Sets the row-major matrix `out` to a * b, with a and b as they are read
/// (op(a) is m x k, op(b) is k x n, out has room for m x n elements). `op`
/// names the kernel in errors.
Status gemm(const char *op, GemmOperand<float> a, GemmOperand<float> b,
            float *out);
Status gemm(const char *op, GemmOperand<double> a, GemmOperand<double> b,
            double *out);

} // namespace openks::runtime::kernels::detail

#endif // OPENKS_LIB_RUNTIME_KERNELS_GEMM_H
