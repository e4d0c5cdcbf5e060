//===- InitializersTest.cpp - Tests of parameter initialisation -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Initializers.h"

#include "gtest/gtest.h"
#include <cmath>

using namespace openks;
using namespace openks::runtime;

namespace {

InitializerSpec spec(InitializerSpec::Kind kind, uint64_t seed = 3) {
  InitializerSpec result;
  result.kind = kind;
  result.seed = seed;
  result.min = -0.5;
  result.max = 0.25;
  result.mean = 1.0;
  result.std = 2.0;
  result.value = 1.5;
  return result;
}

/// Initialises the whole tensor of `shape`.
Tensor whole(const InitializerSpec &init, const Shape &shape,
             DType dtype = DType::F64) {
  Tensor tensor(dtype, shape);
  EXPECT_TRUE(initialize(init, shape, 0, tensor).isOk());
  return tensor;
}

TEST(InitializersTest, SlicesMatchTheWholeInitialisation) {
  Shape shape{10, 7};
  for (auto kind :
       {InitializerSpec::Kind::Constant, InitializerSpec::Kind::Uniform,
        InitializerSpec::Kind::Gaussian, InitializerSpec::Kind::Xavier}) {
    InitializerSpec init = spec(kind);
    Tensor full = whole(init, shape);
    // Rows [3, 7) and [7, 10), as two servers would hold them.
    for (auto [begin, end] : {std::pair<int64_t, int64_t>{3, 7}, {7, 10}}) {
      Tensor slice(DType::F64, Shape{end - begin, 7});
      ASSERT_TRUE(initialize(init, shape, begin, slice).isOk());
      for (int64_t i = 0; i < slice.numel(); ++i)
        EXPECT_EQ(slice.data<double>()[i], full.data<double>()[begin * 7 + i])
            << "kind " << static_cast<int>(kind) << " element " << i;
    }
  }
}

TEST(InitializersTest, DistributionsHaveTheirParameters) {
  Shape shape{400, 250};
  Tensor uniform = whole(spec(InitializerSpec::Kind::Uniform), shape);
  Tensor gaussian = whole(spec(InitializerSpec::Kind::Gaussian), shape);
  Tensor xavier = whole(spec(InitializerSpec::Kind::Xavier), shape);
  double limit = std::sqrt(6.0 / (400 + 250));
  double uniformSum = 0, gaussianSum = 0, gaussianSquares = 0;
  for (int64_t i = 0; i < uniform.numel(); ++i) {
    double u = uniform.data<double>()[i];
    EXPECT_GE(u, -0.5);
    EXPECT_LT(u, 0.25);
    uniformSum += u;
    double g = gaussian.data<double>()[i];
    gaussianSum += g;
    gaussianSquares += (g - 1.0) * (g - 1.0);
    double x = xavier.data<double>()[i];
    EXPECT_GE(x, -limit);
    EXPECT_LT(x, limit);
  }
  double n = static_cast<double>(uniform.numel());
  EXPECT_NEAR(uniformSum / n, -0.125, 0.005);
  EXPECT_NEAR(gaussianSum / n, 1.0, 0.02);
  EXPECT_NEAR(std::sqrt(gaussianSquares / n), 2.0, 0.02);
}

TEST(InitializersTest, FloatAndDoubleDrawTheSameValues) {
  InitializerSpec init = spec(InitializerSpec::Kind::Gaussian);
  Tensor f64 = whole(init, Shape{5, 3}, DType::F64);
  Tensor f32 = whole(init, Shape{5, 3}, DType::F32);
  for (int64_t i = 0; i < f64.numel(); ++i)
    EXPECT_EQ(f32.data<float>()[i], static_cast<float>(f64.data<double>()[i]));
}

TEST(InitializersTest, ConstantsFillIntegersAndScalars) {
  InitializerSpec init = spec(InitializerSpec::Kind::Constant);
  init.value = -4;
  Tensor counter = whole(init, Shape{}, DType::I64);
  EXPECT_EQ(*counter.data<int64_t>(), -4);
  Tensor rows = whole(init, Shape{3}, DType::F32);
  for (int64_t i = 0; i < 3; ++i)
    EXPECT_EQ(rows.data<float>()[i], -4.0f);
}

TEST(InitializersTest, RejectsImpossibleSlices) {
  InitializerSpec init = spec(InitializerSpec::Kind::Uniform);
  Tensor slice(DType::F32, Shape{4, 7});
  EXPECT_FALSE(initialize(init, Shape{10, 7}, 8, slice).isOk());
  Tensor wrongWidth(DType::F32, Shape{2, 6});
  EXPECT_FALSE(initialize(init, Shape{10, 7}, 0, wrongWidth).isOk());
  Tensor ids(DType::I64, Shape{2});
  Status status = initialize(init, Shape{2}, 0, ids);
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(),
            "random initializers need a float tensor, got tensor<2xi64>");
}

TEST(InitializersTest, RunSeedsChangeValuesDeterministically) {
  EXPECT_EQ(mixSeed(5, 0), 5u);
  EXPECT_EQ(mixSeed(5, 9), mixSeed(5, 9));
  EXPECT_NE(mixSeed(5, 9), mixSeed(5, 10));
  EXPECT_NE(mixSeed(5, 9), mixSeed(6, 9));
}

} // namespace
