//===- GemmTest.cpp - Tests of the matrix products on oneDNN --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// matmul and matmul_grad against a naive product in doubles, on shapes that
// cross the blocking of a tuned GEMM (odd sizes, single rows and columns,
// empty dimensions, the MLP's layers), in f32 and f64 and on one and two
// threads. An element may be off by the rounding of its dot product: k
// units in the last place of the sum of the magnitudes of its terms.
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include "openks/Runtime/ComputeThreads.h"

#include <fmt/format.h>
#include <limits>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

/// Returns op(a) * op(b) and, in `magnitudes`, the sums of |terms| of each
/// element, computed naively in doubles.
Values referenceProduct(const Values &a, const Values &b, int64_t m, int64_t k,
                        int64_t n, bool transposeA, bool transposeB,
                        Values &magnitudes) {
  Values out(m * n, 0.0);
  magnitudes.assign(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p) {
        double left = transposeA ? a[p * m + i] : a[i * k + p];
        double right = transposeB ? b[j * k + p] : b[p * n + j];
        out[i * n + j] += left * right;
        magnitudes[i * n + j] += std::abs(left * right);
      }
  return out;
}

/// The shapes m x k x n the tests multiply.
const int64_t kShapes[][3] = {
    {1, 1, 1},    {1, 37, 1},     {1, 64, 300},  {300, 64, 1},
    {17, 33, 65}, {64, 784, 256}, {64, 256, 10}, {129, 7, 3},
    {0, 5, 4},    {4, 0, 5},      {5, 4, 0},
};

template <typename T> class GemmTest : public TypedKernelTest<T> {
protected:
  /// Expects `actual` to be `expected` within the rounding of dot products
  /// of `k` terms whose magnitudes sum to `magnitudes`.
  static void expectProduct(const Tensor &actual, const Shape &shape,
                            const Values &expected, const Values &magnitudes,
                            int64_t k) {
    ASSERT_EQ(actual.shape().str(), shape.str());
    Values values = valuesOf(actual);
    double ulp = std::numeric_limits<T>::epsilon();
    for (size_t i = 0; i < expected.size(); ++i)
      ASSERT_NEAR(values[i], expected[i], (k + 2) * ulp * magnitudes[i] + 1e-30)
          << "element " << i << " of " << shape.str();
  }

  /// Calls `check(m, k, n)` for each shape of kShapes on one thread and on
  /// two, naming the case in failures.
  template <typename Check> void forEachCase(Check check) {
    for (int threads : {1, 2}) {
      setComputeThreads(threads);
      for (const auto &[m, k, n] : kShapes) {
        SCOPED_TRACE(fmt::format("{}x{}x{} on {} threads", m, k, n, threads));
        check(m, k, n);
      }
    }
  }

  ~GemmTest() override { setComputeThreads(getAvailableCpus()); }
};
TYPED_TEST_SUITE(GemmTest, FloatTypes, ElementTypeNames);

TYPED_TEST(GemmTest, MatmulMatchesNaiveProductOnOneAndTwoThreads) {
  this->forEachCase([&](int64_t m, int64_t k, int64_t n) {
    Tensor a = this->random({m, k}), b = this->random({k, n});
    Tensor out = this->output();
    ASSERT_TRUE(kernels::matmul(a, b, out).isOk());
    Values magnitudes;
    Values expected = referenceProduct(valuesOf(a), valuesOf(b), m, k, n, false,
                                       false, magnitudes);
    this->expectProduct(out, {m, n}, expected, magnitudes, k);
  });
}

TYPED_TEST(GemmTest, MatmulGradMatchesNaiveProducts) {
  this->forEachCase([&](int64_t m, int64_t k, int64_t n) {
    Tensor a = this->random({m, k}), b = this->random({k, n});
    Tensor dout = this->random({m, n});
    Tensor da = this->output(), db = this->output();
    ASSERT_TRUE(kernels::matmulGrad(a, b, dout, &da, &db).isOk());
    Values magnitudes;
    // da = dout * b^T (m x n x k), db = a^T * dout (k x m x n).
    Values expected = referenceProduct(valuesOf(dout), valuesOf(b), m, n, k,
                                       false, true, magnitudes);
    this->expectProduct(da, {m, k}, expected, magnitudes, n);
    expected = referenceProduct(valuesOf(a), valuesOf(dout), k, m, n, true,
                                false, magnitudes);
    this->expectProduct(db, {k, n}, expected, magnitudes, m);
  });
}

TEST(ComputeThreadsTest, EachThreadKeepsItsOwnBudget) {
  setComputeThreads(1);
  int seenByOther = 0;
  std::thread other([&] {
    setComputeThreads(2);
    seenByOther = getComputeThreads();
  });
  other.join();
  EXPECT_EQ(getComputeThreads(), 1);
  EXPECT_EQ(seenByOther, 2);
  setComputeThreads(getAvailableCpus());
}

TEST(ComputeThreadsTest, SplitGivesEveryRoleAThreadAndTrainersTheRest) {
  // Servers first, then trainers.
  EXPECT_EQ(splitComputeThreads(8, 2, 2), (std::vector<int>{2, 2, 2, 2}));
  EXPECT_EQ(splitComputeThreads(7, 1, 2), (std::vector<int>{2, 3, 2}));
  EXPECT_EQ(splitComputeThreads(2, 2, 2), (std::vector<int>{1, 1, 1, 1}));
  EXPECT_EQ(splitComputeThreads(5, 0, 1), (std::vector<int>{5}));
  std::vector<int> all = splitComputeThreads(0, 1, 1);
  EXPECT_EQ(all[0] + all[1], std::max(2, getAvailableCpus()));
}

} // namespace
