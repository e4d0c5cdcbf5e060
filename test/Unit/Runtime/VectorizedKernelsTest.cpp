//===- VectorizedKernelsTest.cpp - Kernels on per-ISA loops, to the bit ---===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// relu, relu_grad, the bias add and sgd run loops built for AVX-512, AVX2
// and baseline x86-64 (lib/Runtime/Kernels/Vectorized.h). Checks, in f32 and
// f64, that they give the bits of a naive scalar loop written here, built
// for baseline x86-64, without FMA: on lengths around the vector widths, in
// place, on NaN, signed zeros, infinities and subnormals, and on the rows of
// a row-sparse gradient, which start at unaligned offsets.
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <cstring>
#include <iterator>
#include <limits>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

/// Element counts below, at and past the widths of SSE2, AVX2 and AVX-512
/// vectors of either float type.
const int64_t kLengths[] = {1, 7, 15, 17, 33, 1000};

template <typename T> class VectorizedKernelsTest : public TypedKernelTest<T> {
protected:
  /// Returns a tensor of `shape` with elements uniform in [-2, 2), a few of
  /// them NaN, signed zeros, infinities or subnormals.
  Tensor mixed(const Shape &shape) {
    using Limits = std::numeric_limits<T>;
    const T special[] = {Limits::quiet_NaN(),
                         T(0),
                         -T(0),
                         Limits::infinity(),
                         -Limits::infinity(),
                         Limits::denorm_min(),
                         -Limits::denorm_min()};
    Tensor tensor(dtypeOf<T>(), shape);
    std::uniform_real_distribution<double> uniform(-2, 2);
    std::uniform_int_distribution<size_t> pick(0, 4 * std::size(special));
    for (int64_t i = 0; i < tensor.numel(); ++i) {
      size_t choice = pick(this->rng);
      tensor.data<T>()[i] = choice < std::size(special)
                                ? special[choice]
                                : static_cast<T>(uniform(this->rng));
    }
    return tensor;
  }

  /// Returns a copy of `tensor`.
  static Tensor copy(const Tensor &tensor) {
    Tensor result(tensor.dtype(), tensor.shape());
    result.copyFrom(tensor);
    return result;
  }

  /// Expects `actual` to hold the bits of `expected(i)` at each element i.
  template <typename Expected>
  static void expectBits(const Tensor &actual, Expected expected) {
    for (int64_t i = 0; i < actual.numel(); ++i) {
      T want = expected(i), got = actual.data<T>()[i];
      EXPECT_EQ(std::memcmp(&got, &want, sizeof(T)), 0)
          << "element " << i << " of " << actual.numel() << ": got " << got
          << ", expected " << want;
    }
  }
};

TYPED_TEST_SUITE(VectorizedKernelsTest, FloatTypes, ElementTypeNames);

TYPED_TEST(VectorizedKernelsTest, ReluGivesTheBitsOfAScalarLoop) {
  using T = TypeParam;
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    Tensor x = this->mixed(Shape{n}), out = this->output();
    Tensor before = this->copy(x);
    ASSERT_TRUE(kernels::relu(x, out).isOk());
    auto expected = [&](int64_t i) {
      T v = before.data<T>()[i];
      return v < T(0) ? T(0) : v;
    };
    this->expectBits(out, expected);
    ASSERT_TRUE(kernels::relu(x, x).isOk());
    this->expectBits(x, expected);
  }
}

TYPED_TEST(VectorizedKernelsTest, ReluGradGivesTheBitsOfAScalarLoop) {
  using T = TypeParam;
  for (int64_t n : kLengths) {
    SCOPED_TRACE(n);
    Tensor y = this->mixed(Shape{n}), dy = this->mixed(Shape{n});
    Tensor dx = this->output(), before = this->copy(dy);
    ASSERT_TRUE(kernels::reluGrad(y, dy, dx).isOk());
    auto expected = [&](int64_t i) {
      return y.data<T>()[i] > T(0) ? before.data<T>()[i] : T(0);
    };
    this->expectBits(dx, expected);
    ASSERT_TRUE(kernels::reluGrad(y, dy, dy).isOk());
    this->expectBits(dy, expected);
  }
}

TYPED_TEST(VectorizedKernelsTest, BiasAddGivesTheBitsOfAScalarLoop) {
  using T = TypeParam;
  for (int64_t width : kLengths) {
    SCOPED_TRACE(width);
    Tensor x = this->mixed(Shape{3, width}), bias = this->mixed(Shape{width});
    Tensor out = this->output(), before = this->copy(x);
    ASSERT_TRUE(kernels::add(x, bias, out).isOk());
    auto expected = [&](int64_t i) {
      return before.data<T>()[i] + bias.data<T>()[i % width];
    };
    this->expectBits(out, expected);
    ASSERT_TRUE(kernels::add(x, bias, x).isOk());
    this->expectBits(x, expected);
  }
}

TYPED_TEST(VectorizedKernelsTest, SgdGivesTheBitsOfAScalarLoop) {
  using T = TypeParam;
  Tensor lr(dtypeOf<T>(), Shape{});
  *lr.data<T>() = static_cast<T>(0.1);
  const T rate = *lr.data<T>();
  for (int64_t width : kLengths) {
    SCOPED_TRACE(width);
    // Dense, then row-sparse over rows 1, 2 and 4 of 5: their spans start
    // at element offsets `width`, 2 `width` and 4 `width`.
    Tensor param = this->mixed(Shape{5, width});
    Tensor grad = this->mixed(Shape{5, width});
    Tensor before = this->copy(param);
    ASSERT_TRUE(kernels::sgd(param, grad, lr).isOk());
    this->expectBits(param, [&](int64_t i) {
      return before.data<T>()[i] - rate * grad.data<T>()[i];
    });

    Tensor rowIds = idTensor(Shape{3}, {1, 2, 4});
    Tensor rows = this->mixed(Shape{3, width});
    before.copyFrom(param);
    ASSERT_TRUE(kernels::sgd(param, {rowIds, rows}, lr).isOk());
    const int64_t rowOf[] = {-1, 0, 1, -1, 2};
    this->expectBits(param, [&](int64_t i) {
      T old = before.data<T>()[i];
      int64_t row = rowOf[i / width];
      return row < 0 ? old
                     : old - rate * rows.data<T>()[row * width + i % width];
    });
  }
}

} // namespace
