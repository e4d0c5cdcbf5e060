//===- Vectorized.h - Hot loops built for each x86 vector ISA ---*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Private to lib/Runtime/Kernels: the element-wise loops on the hot path of
// training, over raw buffers. The binaries target baseline x86-64 (SSE2);
// these loops are also compiled for AVX2 and AVX-512, and the CPU picks its
// version once, when the program loads. Every element is computed with the
// same operations, in the same order, as the Eigen expressions they replace,
// without FMA contraction, so the results are the same bits on any CPU.
//
// An output may be one of the inputs; it must not overlap one otherwise.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_KERNELS_VECTORIZED_H
#define OPENKS_LIB_RUNTIME_KERNELS_VECTORIZED_H

#include <cstdint>

namespace openks::runtime::kernels::detail {

/// out[i] = max(x[i], 0) for i < n, keeping a NaN or a -0 of x.
void reluLoop(const float *x, float *out, int64_t n);
void reluLoop(const double *x, double *out, int64_t n);

/// dx[i] = y[i] > 0 ? dy[i] : 0 for i < n: the gradient of relu from its
/// result y.
void reluGradLoop(const float *y, const float *dy, float *dx, int64_t n);
void reluGradLoop(const double *y, const double *dy, double *dx, int64_t n);

/// out[i] = x[i] + bias[i % width] for i < n, a multiple of width: the bias
/// added to each row of x.
void addBiasLoop(const float *x, const float *bias, float *out, int64_t n,
                 int64_t width);
void addBiasLoop(const double *x, const double *bias, double *out, int64_t n,
                 int64_t width);

/// param[i] -= rate * grad[i] for i < n, the product rounded before the
/// difference.
void sgdLoop(float *param, const float *grad, float rate, int64_t n);
void sgdLoop(double *param, const double *grad, double rate, int64_t n);

} // namespace openks::runtime::kernels::detail

#endif // OPENKS_LIB_RUNTIME_KERNELS_VECTORIZED_H
