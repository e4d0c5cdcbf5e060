//===- Limits.h - The largest tensors OpenKS handles ------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The bounds on tensor shapes that the dialect verifiers enforce, so that no
// size, offset or byte count the compiler or the runtime computes from a
// verified shape can overflow, and the runtime never meets a shape it cannot
// hold; and overflow-checked arithmetic for the sizes computed from data
// (batch sizes, row sums). Needs neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_LIMITS_H
#define OPENKS_SUPPORT_LIMITS_H

#include <cstdint>
#include <optional>

namespace openks {

/// The largest rank of a tensor: the runtime stores shapes inline.
inline constexpr int kMaxTensorRank = 6;

/// The largest number of elements of one tensor, 2^40. At 8 bytes an
/// element a tensor's byte size stays below 2^43, so sums of the sizes of up
/// to a million tensors cannot overflow int64.
inline constexpr int64_t kMaxTensorElements = int64_t(1) << 40;

/// Returns `a * b`, or nothing when it overflows int64.
inline std::optional<int64_t> checkedMul(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_mul_overflow(a, b, &result))
    return std::nullopt;
  return result;
}

/// Returns `a + b`, or nothing when it overflows int64.
inline std::optional<int64_t> checkedAdd(int64_t a, int64_t b) {
  int64_t result;
  if (__builtin_add_overflow(a, b, &result))
    return std::nullopt;
  return result;
}

/// Returns the product of `dims`, or nothing when a dimension is negative or
/// the product exceeds kMaxTensorElements.
template <typename Range>
std::optional<int64_t> boundedProduct(const Range &dims) {
  int64_t product = 1;
  for (int64_t dim : dims) {
    std::optional<int64_t> next =
        dim < 0 ? std::nullopt : checkedMul(product, dim);
    if (!next || *next > kMaxTensorElements)
      return std::nullopt;
    product = *next;
  }
  return product;
}

} // namespace openks

#endif // OPENKS_SUPPORT_LIMITS_H
