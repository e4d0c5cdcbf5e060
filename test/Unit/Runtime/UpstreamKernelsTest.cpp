//===- UpstreamKernelsTest.cpp - Tests of the upstream ops' kernels -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks the kernels that run upstream arith, tensor and linalg ops:
// negation, IEEE maximum and minimum (NaN in, NaN out) against naive loops,
// transposition under every permutation of a rank-3 tensor against index
// arithmetic, and the sizes and new tensors of tensor.dim, tensor.empty and
// linalg.fill, with their errors on bad sizes and permutations.
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

template <typename T> class UpstreamKernelsTest : public TypedKernelTest<T> {};
TYPED_TEST_SUITE(UpstreamKernelsTest, FloatTypes, ElementTypeNames);

/// Returns a rank-0 i64 tensor holding `value`.
Tensor indexScalar(int64_t value) { return idTensor(Shape{}, {value}); }

TYPED_TEST(UpstreamKernelsTest, NegMaximumMinimumMatchNaiveLoops) {
  Tensor x = this->random({5, 3}), y = this->random({5, 3});
  Values xs = valuesOf(x), ys = valuesOf(y), neg, hi, lo;
  for (size_t i = 0; i < xs.size(); ++i) {
    neg.push_back(-xs[i]);
    hi.push_back(xs[i] > ys[i] ? xs[i] : ys[i]);
    lo.push_back(xs[i] < ys[i] ? xs[i] : ys[i]);
  }
  Tensor out = this->output();
  ASSERT_TRUE(kernels::neg(x, out).isOk());
  this->expectNear(out, x.shape(), neg);
  ASSERT_TRUE(kernels::maximum(x, y, out).isOk());
  this->expectNear(out, x.shape(), hi);
  ASSERT_TRUE(kernels::minimum(x, y, out).isOk());
  this->expectNear(out, x.shape(), lo);
}

TYPED_TEST(UpstreamKernelsTest, MaximumAndMinimumPropagateNaN) {
  Tensor x = this->random({2}), y = this->random({2});
  x.template data<TypeParam>()[0] = std::numeric_limits<TypeParam>::quiet_NaN();
  y.template data<TypeParam>()[1] = std::numeric_limits<TypeParam>::quiet_NaN();
  Tensor out = this->output();
  ASSERT_TRUE(kernels::maximum(x, y, out).isOk());
  EXPECT_TRUE(std::isnan(out.template data<TypeParam>()[0]));
  EXPECT_TRUE(std::isnan(out.template data<TypeParam>()[1]));
  ASSERT_TRUE(kernels::minimum(y, x, out).isOk());
  EXPECT_TRUE(std::isnan(out.template data<TypeParam>()[0]));
  EXPECT_TRUE(std::isnan(out.template data<TypeParam>()[1]));
}

TYPED_TEST(UpstreamKernelsTest, MaximumRefusesOperandsOfTwoShapes) {
  Tensor x = this->random({2, 3}), y = this->random({3});
  Tensor out = this->output();
  Status status = kernels::maximum(x, y, out);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "maximum: y has shape [3], expected [2, 3]");
}

TYPED_TEST(UpstreamKernelsTest, TransposeMatchesIndexArithmetic) {
  Tensor x = this->random({2, 3, 4});
  Values xs = valuesOf(x);
  std::vector<int64_t> permutation = {0, 1, 2};
  do {
    SCOPED_TRACE(::testing::PrintToString(permutation));
    Tensor out = this->output();
    ASSERT_TRUE(kernels::transpose(x, permutation, out).isOk());
    Shape shape;
    for (int64_t p : permutation)
      shape.push_back(x.dim(static_cast<int>(p)));
    // out[o0, o1, o2] = x[i] where i[p[j]] = o[j].
    Values expected(xs.size());
    for (int64_t o0 = 0; o0 < shape[0]; ++o0)
      for (int64_t o1 = 0; o1 < shape[1]; ++o1)
        for (int64_t o2 = 0; o2 < shape[2]; ++o2) {
          int64_t o[3] = {o0, o1, o2}, i[3];
          for (int j = 0; j < 3; ++j)
            i[permutation[j]] = o[j];
          expected[(o0 * shape[1] + o1) * shape[2] + o2] =
              xs[(i[0] * 3 + i[1]) * 4 + i[2]];
        }
    this->expectNear(out, shape, expected);
  } while (std::next_permutation(permutation.begin(), permutation.end()));
}

TYPED_TEST(UpstreamKernelsTest, TransposeRefusesWhatIsNoPermutation) {
  Tensor x = this->random({2, 3});
  Tensor out = this->output();
  for (std::vector<int64_t> bad : std::vector<std::vector<int64_t>>{
           {0}, {0, 0}, {0, 2}, {-1, 0}, {1, 0, 2}}) {
    Status status = kernels::transpose(x, bad, out);
    ASSERT_FALSE(status.isOk());
    EXPECT_EQ(status.message().rfind("transpose: the permutation has", 0), 0u)
        << status.message();
  }
  EXPECT_FALSE(kernels::transpose(x, {1, 0}, x).isOk());
}

TYPED_TEST(UpstreamKernelsTest, FillLikeTakesTheShapeOfItsInit) {
  Tensor like = this->random({3, 2});
  Tensor value(dtypeOf<TypeParam>(), Shape{});
  value.template data<TypeParam>()[0] = TypeParam(1.5);
  Tensor out = this->output();
  ASSERT_TRUE(kernels::fillLike(value, like, out).isOk());
  this->expectNear(out, like.shape(), Values(6, 1.5));
  Tensor notScalar = this->random({2});
  EXPECT_FALSE(kernels::fillLike(notScalar, like, out).isOk());
}

TEST(UpstreamShapeKernelsTest, DimSizeAndZeros) {
  Tensor x(DType::F32, Shape{7, 3});
  Tensor size(DType::I64, Shape{});
  ASSERT_TRUE(kernels::dimSize(x, 0, size).isOk());
  EXPECT_EQ(idsOf(size), std::vector<int64_t>{7});
  EXPECT_EQ(kernels::dimSize(x, 2, size).message(),
            "dim: dimension 2 of a tensor of shape [7, 3]");

  // The plan sized the buffer for 8 rows of 3.
  Tensor out(DType::F32, Shape{8, 3});
  out.data<float>()[0] = 5;
  Tensor rows = indexScalar(7);
  ASSERT_TRUE(kernels::zeros(Shape{-1, 3}, {&rows}, out).isOk());
  EXPECT_EQ(out.shape().str(), "[7, 3]");
  Values values = valuesOf(out);
  EXPECT_TRUE(std::all_of(values.begin(), values.end(),
                          [](double v) { return v == 0; }));

  Tensor negative = indexScalar(-1), huge = indexScalar(int64_t(1) << 62);
  EXPECT_EQ(kernels::zeros(Shape{-1, 3}, {&negative}, out).message(),
            "empty: size -1 of dimension 0 is negative");
  EXPECT_EQ(kernels::zeros(Shape{-1, 3}, {&huge}, out).message(),
            "empty: shape [4611686018427387904, 3] holds more than the 24 "
            "elements planned for it");
  EXPECT_FALSE(kernels::zeros(Shape{-1, -1}, {&rows}, out).isOk());
  EXPECT_FALSE(kernels::zeros(Shape{2, 3}, {&rows}, out).isOk());
}

} // namespace
