//===- Vectorized.cpp - Hot loops built for each x86 vector ISA -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Each loop is a plain C++ loop that the compiler vectorizes, once per
// instruction set of OPENKS_VECTOR_CLONES. The file is compiled with
// -ffp-contract=off (lib/Runtime/CMakeLists.txt): AVX-512 brings FMA, and a
// fused multiply-add would round `param - rate * grad` once instead of twice.
//
//===----------------------------------------------------------------------===//

#include "Vectorized.h"

#include <algorithm>

using namespace openks::runtime::kernels;

/// Whether AddressSanitizer or ThreadSanitizer instruments this build: the
/// dynamic loader runs the clones' resolvers before their runtimes start,
/// and an instrumented resolver crashes there, so those builds keep the
/// baseline loops.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define OPENKS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define OPENKS_SANITIZED 1
#endif
#endif

/// Compiles the function that follows for AVX-512, AVX2 and baseline x86-64;
/// the dynamic loader binds its calls to the version the CPU can run, once.
#if defined(__x86_64__) && defined(__ELF__) && !defined(OPENKS_SANITIZED)
#define OPENKS_VECTOR_CLONES                                                   \
  __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define OPENKS_VECTOR_CLONES
#endif

/// out[i] = fn(in[i]...) for i < n. Inlined into each clone, so that the
/// compiler vectorizes it for the clone's instruction set.
template <typename T, typename Fn, typename... In>
[[gnu::always_inline]] static inline void mapElements(T *out, int64_t n, Fn fn,
                                                      const In *...in) {
  for (int64_t i = 0; i < n; ++i)
    out[i] = fn(in[i]...);
}

template <typename T>
[[gnu::always_inline]] static inline void relu(const T *x, T *out, int64_t n) {
  // std::max(v, 0) is v < 0 ? 0 : v, as Eigen's max: v when v is NaN or -0.
  mapElements(
      out, n, [](T v) { return std::max(v, T(0)); }, x);
}

template <typename T>
[[gnu::always_inline]] static inline void reluGrad(const T *y, const T *dy,
                                                   T *dx, int64_t n) {
  mapElements(
      dx, n, [](T v, T g) { return v > T(0) ? g : T(0); }, y, dy);
}

template <typename T>
[[gnu::always_inline]] static inline void
addBias(const T *x, const T *bias, T *out, int64_t n, int64_t width) {
  for (int64_t row = 0; row < n; row += width)
    mapElements(
        out + row, width, [](T v, T b) { return v + b; }, x + row, bias);
}

template <typename T>
[[gnu::always_inline]] static inline void sgd(T *param, const T *grad, T rate,
                                              int64_t n) {
  mapElements(
      param, n, [rate](T p, T g) { return p - rate * g; }, param, grad);
}

OPENKS_VECTOR_CLONES void detail::reluLoop(const float *x, float *out,
                                           int64_t n) {
  relu(x, out, n);
}

OPENKS_VECTOR_CLONES void detail::reluLoop(const double *x, double *out,
                                           int64_t n) {
  relu(x, out, n);
}

OPENKS_VECTOR_CLONES void detail::reluGradLoop(const float *y, const float *dy,
                                               float *dx, int64_t n) {
  reluGrad(y, dy, dx, n);
}

OPENKS_VECTOR_CLONES void
detail::reluGradLoop(const double *y, const double *dy, double *dx, int64_t n) {
  reluGrad(y, dy, dx, n);
}

OPENKS_VECTOR_CLONES void detail::addBiasLoop(const float *x, const float *bias,
                                              float *out, int64_t n,
                                              int64_t width) {
  addBias(x, bias, out, n, width);
}

OPENKS_VECTOR_CLONES void detail::addBiasLoop(const double *x,
                                              const double *bias, double *out,
                                              int64_t n, int64_t width) {
  addBias(x, bias, out, n, width);
}

OPENKS_VECTOR_CLONES void detail::sgdLoop(float *param, const float *grad,
                                          float rate, int64_t n) {
  sgd(param, grad, rate, n);
}

OPENKS_VECTOR_CLONES void detail::sgdLoop(double *param, const double *grad,
                                          double rate, int64_t n) {
  sgd(param, grad, rate, n);
}
