//===- RandomTest.cpp - Tests of the Philox generator ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Known-answer tests from the Random123 distribution's kat_vectors for
// philox4x32-10, plus sanity checks of the derived distributions.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Random.h"

#include "gtest/gtest.h"
#include <cmath>

using namespace openks;
using namespace openks::runtime;

namespace {

TEST(RandomTest, MatchesPhiloxKnownAnswers) {
  // Counter 0, key 0.
  Philox::Block zero = Philox(0)(0, 0);
  EXPECT_EQ(zero,
            (Philox::Block{0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}));
  // All-ones counter and key.
  Philox::Block ones = Philox(~0ull)(~0ull, ~0ull);
  EXPECT_EQ(ones,
            (Philox::Block{0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}));
  // The digits of pi.
  Philox::Block pi = Philox(0x299f31d0a4093822ull)(0x85a308d3243f6a88ull,
                                                   0x0370734413198a2eull);
  EXPECT_EQ(pi,
            (Philox::Block{0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}));
}

TEST(RandomTest, UniformAndNormalHaveTheRightMoments) {
  Philox philox(42);
  constexpr int n = 200000;
  double sum = 0, sumSquares = 0, normalSum = 0, normalSquares = 0;
  for (int i = 0; i < n; ++i) {
    double u = philox.uniform(i);
    ASSERT_GE(u, 0.0);
    ASSERT_LT(u, 1.0);
    sum += u;
    sumSquares += u * u;
    double z = philox.normal(i);
    ASSERT_TRUE(std::isfinite(z));
    normalSum += z;
    normalSquares += z * z;
  }
  EXPECT_NEAR(sum / n, 0.5, 0.005);
  EXPECT_NEAR(sumSquares / n - 0.25, 1.0 / 12, 0.005);
  EXPECT_NEAR(normalSum / n, 0.0, 0.01);
  EXPECT_NEAR(normalSquares / n, 1.0, 0.02);
}

TEST(RandomTest, IsAPureFunctionOfSeedAndCounter) {
  EXPECT_EQ(Philox(7).uniform(123), Philox(7).uniform(123));
  EXPECT_NE(Philox(7).uniform(123), Philox(8).uniform(123));
  EXPECT_NE(Philox(7).uniform(123), Philox(7).uniform(124));
  EXPECT_NE(Philox(7).uniform(123, 0), Philox(7).uniform(123, 1));
}

} // namespace
