//===- MathKernelsTest.cpp - Tests of the math and loss kernels -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks the element-wise unary kernels, the norms, the cosine similarity,
// the squared error and the margin loss, in f32 and f64, against naive
// references over doubles; their edge cases (zero vectors, log and sqrt at
// and below 0); and their errors. (sub and div are tested with add and mul
// in KernelsTest.cpp.)
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <fmt/format.h>
#include <limits>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

template <typename T> class MathKernelsTest : public TypedKernelTest<T> {};
TYPED_TEST_SUITE(MathKernelsTest, FloatTypes, ElementTypeNames);

/// Applies `fn` to each element of `values`.
Values mapValues(Values values, const std::function<double(double)> &fn) {
  for (double &value : values)
    value = fn(value);
  return values;
}

//===----------------------------------------------------------------------===//
// Element-wise unary math
//===----------------------------------------------------------------------===//

TYPED_TEST(MathKernelsTest, UnaryMathMatchesReference) {
  struct Case {
    const char *name;
    Status (*kernel)(const Tensor &, Tensor &);
    std::function<double(double)> reference;
    double low, high;
  };
  for (const Case &op :
       {Case{"abs", kernels::abs, [](double x) { return std::abs(x); }, -5, 5},
        Case{"square", kernels::square, [](double x) { return x * x; }, -5, 5},
        Case{"sqrt", kernels::sqrt, [](double x) { return std::sqrt(x); }, 0,
             9},
        Case{"exp", kernels::exp, [](double x) { return std::exp(x); }, -8, 8},
        Case{"log", kernels::log, [](double x) { return std::log(x); }, 0.01,
             9},
        Case{"softsign", kernels::softsign,
             [](double x) { return x / (1 + std::abs(x)); }, -20, 20}}) {
    SCOPED_TRACE(op.name);
    Tensor x = this->random({4, 7, 3}, op.low, op.high);
    Tensor out = this->output();
    ASSERT_TRUE(op.kernel(x, out).isOk());
    this->expectNear(out, x.shape(), mapValues(valuesOf(x), op.reference));
  }
}

TYPED_TEST(MathKernelsTest, LogAndSqrtAtAndBelowZeroFollowIEEE) {
  Tensor x = this->random({3});
  x.template data<TypeParam>()[0] = 0;
  x.template data<TypeParam>()[1] = -1;
  Tensor out = this->output();
  ASSERT_TRUE(kernels::log(x, out).isOk());
  EXPECT_EQ(out.template data<TypeParam>()[0],
            -std::numeric_limits<TypeParam>::infinity());
  EXPECT_TRUE(std::isnan(out.template data<TypeParam>()[1]));
  ASSERT_TRUE(kernels::sqrt(x, out).isOk());
  EXPECT_EQ(out.template data<TypeParam>()[0], TypeParam(0));
  EXPECT_TRUE(std::isnan(out.template data<TypeParam>()[1]));
}

//===----------------------------------------------------------------------===//
// Norms and cosines
//===----------------------------------------------------------------------===//

TYPED_TEST(MathKernelsTest, PNormMatchesReferenceAlongEachAxis) {
  const Shape shape{3, 4, 5};
  Tensor x = this->random(shape);
  Values xs = valuesOf(x);
  for (int64_t p : {1, 2}) {
    for (int axis : {0, 1, 2}) {
      for (bool keepDims : {false, true}) {
        SCOPED_TRACE(
            fmt::format("p {} axis {} keep_dims {}", p, axis, keepDims));
        Shape expectedShape;
        for (int dim = 0; dim < 3; ++dim)
          if (dim != axis || keepDims)
            expectedShape.push_back(dim == axis ? 1 : shape[dim]);
        // Sum |x|^p into the element the axis collapses to, then take the
        // p-th root.
        Values expected(shape.numel() / shape[axis], 0.0);
        int64_t inner = 1;
        for (int dim = axis + 1; dim < 3; ++dim)
          inner *= shape[dim];
        for (size_t i = 0; i < xs.size(); ++i) {
          int64_t outer = i / (inner * shape[axis]);
          expected[outer * inner + i % inner] +=
              p == 1 ? std::abs(xs[i]) : xs[i] * xs[i];
        }
        if (p == 2)
          expected = mapValues(expected, [](double v) { return std::sqrt(v); });
        Tensor out = this->output();
        ASSERT_TRUE(kernels::pNorm(x, p, axis, keepDims, out).isOk());
        this->expectNear(out, expectedShape, expected);
      }
    }
  }
}

/// The cosine of rows `a` and `b` of `width` elements, 0 if either is zero.
double referenceCosine(const double *a, const double *b, int64_t width) {
  double aa = 0, bb = 0, ab = 0;
  for (int64_t j = 0; j < width; ++j) {
    aa += a[j] * a[j];
    bb += b[j] * b[j];
    ab += a[j] * b[j];
  }
  return aa == 0 || bb == 0 ? 0 : ab / std::sqrt(aa * bb);
}

TYPED_TEST(MathKernelsTest, CosSimMatchesReferenceRowWiseAndBroadcast) {
  for (int64_t yRows : {6, 1}) {
    SCOPED_TRACE(fmt::format("y rows {}", yRows));
    Tensor x = this->random({6, 5});
    Tensor y = this->random({yRows, 5});
    // A zero row of x has cosine 0.
    std::fill_n(x.template data<TypeParam>() + 10, 5, TypeParam(0));
    Tensor out = this->output();
    ASSERT_TRUE(kernels::cosSim(x, y, out).isOk());
    Values xs = valuesOf(x), ys = valuesOf(y), expected;
    for (int64_t row = 0; row < 6; ++row)
      expected.push_back(
          referenceCosine(&xs[row * 5], &ys[(yRows == 1 ? 0 : row) * 5], 5));
    EXPECT_EQ(expected[2], 0.0);
    this->expectNear(out, {6, 1}, expected);
  }
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

TYPED_TEST(MathKernelsTest, SquareErrorAndMarginLossMatchReference) {
  Tensor a = this->random({8, 3});
  Tensor b = this->random({8, 3});
  Values as = valuesOf(a), bs = valuesOf(b), squared, margin;
  for (size_t i = 0; i < as.size(); ++i) {
    squared.push_back((as[i] - bs[i]) * (as[i] - bs[i]));
    margin.push_back(std::max(0.0, 0.75 + as[i] - bs[i]));
  }
  Tensor out = this->output();
  ASSERT_TRUE(kernels::squareError(a, b, out).isOk());
  this->expectNear(out, {8, 3}, squared);
  ASSERT_TRUE(kernels::marginLoss(a, b, 0.75, out).isOk());
  this->expectNear(out, {8, 3}, margin);
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TYPED_TEST(MathKernelsTest, BadShapesAndAttributesAreErrors) {
  Tensor out = this->output();
  EXPECT_EQ(
      kernels::div(this->random({2, 3}), this->random({2}), out).message(),
      "div: y has shape [2], expected [2, 3] or a bias over its last "
      "dimension");
  EXPECT_EQ(kernels::pNorm(this->random({2, 3}), 3, 1, false, out).message(),
            "p_norm: p must be 1 or 2, got 3");
  EXPECT_EQ(kernels::pNorm(this->random({2, 3}), 2, 2, false, out).message(),
            "p_norm: axis 2 is out of range for shape [2, 3]");
  EXPECT_EQ(kernels::cosSim(this->random({4, 3}), this->random({2, 3}), out)
                .message(),
            "cos_sim: y has shape [2, 3], expected [4, 3] or [1, 3]");
  EXPECT_EQ(
      kernels::squareError(this->random({4, 3}), this->random({3, 4}), out)
          .message(),
      "square_error: label has shape [3, 4], expected [4, 3]");
  Tensor dx = this->output(), dy = this->output();
  Tensor x = this->random({4, 3}), norms = this->random({4});
  EXPECT_EQ(kernels::pNormGrad(x, norms, this->random({3}), 2, 1, false, 0, dx)
                .message(),
            "p_norm_grad: dout has shape [3], expected [4]");
  EXPECT_EQ(
      kernels::marginLossGrad(x, x, this->random({4}), 1, dx, dy).message(),
      "margin_loss_grad: dout has shape [4], expected [4, 3]");
}

} // namespace
