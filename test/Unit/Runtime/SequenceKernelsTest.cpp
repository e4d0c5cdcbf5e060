//===- SequenceKernelsTest.cpp - Tests of the pooling kernels -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks sequence_pool and embedding_pool, in f32 and f64, against naive
// references over doubles, embedding_pool against sequence_pool of
// embedding, and that bad lengths and ids are errors.
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <fmt/format.h>
#include <limits>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

template <typename T> class SequenceKernelsTest : public TypedKernelTest<T> {};
TYPED_TEST_SUITE(SequenceKernelsTest, FloatTypes, ElementTypeNames);

constexpr kernels::PoolType kPoolTypes[] = {
    kernels::PoolType::Sum, kernels::PoolType::Mean, kernels::PoolType::Sqrt};

/// Pools `rows` (each `width` values, looked up by `rowOf`) in sequences of
/// `lengths` as `type` does; a row for which `rowOf` returns null is zero.
Values referencePool(const std::vector<int64_t> &lengths, int64_t width,
                     kernels::PoolType type,
                     const std::function<const double *(int64_t)> &rowOf) {
  Values out;
  int64_t begin = 0;
  for (int64_t length : lengths) {
    Values sum(width, 0.0);
    for (int64_t row = begin; row < begin + length; ++row)
      if (const double *values = rowOf(row))
        for (int64_t j = 0; j < width; ++j)
          sum[j] += values[j];
    double divisor = length == 0                       ? 1
                     : type == kernels::PoolType::Mean ? double(length)
                     : type == kernels::PoolType::Sqrt
                         ? std::sqrt(double(length))
                         : 1;
    for (double value : sum)
      out.push_back(value / divisor);
    begin += length;
  }
  return out;
}

TYPED_TEST(SequenceKernelsTest, SequencePoolMatchesReference) {
  const std::vector<int64_t> lengths = {3, 0, 1, 5};
  Tensor lengthsTensor = idTensor({4}, lengths);
  for (const Shape &shape : {Shape{9, 4}, Shape{9}, Shape{9, 2, 3}}) {
    Tensor x = this->random(shape);
    Values xs = valuesOf(x);
    int64_t width = shape.rowWidth();
    Shape outShape = shape;
    outShape[0] = 4;
    for (kernels::PoolType type : kPoolTypes) {
      SCOPED_TRACE(
          fmt::format("x {} type {}", shape.str(), static_cast<int>(type)));
      Tensor out = this->output();
      ASSERT_TRUE(kernels::sequencePool(x, lengthsTensor, type, out).isOk());
      this->expectNear(out, outShape,
                       referencePool(lengths, width, type, [&](int64_t row) {
                         return &xs[row * width];
                       }));
    }
  }
}

TYPED_TEST(SequenceKernelsTest, EmbeddingPoolMatchesReferenceAndComposition) {
  Tensor table = this->random({10, 4});
  Values rows = valuesOf(table);
  const std::vector<int64_t> ids = {3, 2, 9, 0, 2, 3, 7, 2};
  const std::vector<int64_t> lengths = {2, 4, 0, 2};
  Tensor idsTensor = idTensor({8}, ids);
  Tensor lengthsTensor = idTensor({4}, lengths);
  for (std::optional<int64_t> padding :
       {std::optional<int64_t>(), std::optional<int64_t>(2)}) {
    for (kernels::PoolType type : kPoolTypes) {
      SCOPED_TRACE(fmt::format("type {} {}", static_cast<int>(type),
                               padding ? "padding_idx 2" : "no padding_idx"));
      Tensor out = this->output();
      ASSERT_TRUE(kernels::embeddingPool(table, idsTensor, lengthsTensor, type,
                                         padding, out)
                      .isOk());
      Values expected =
          referencePool(lengths, 4, type, [&](int64_t row) -> const double * {
            return padding == ids[row] ? nullptr : &rows[ids[row] * 4];
          });
      this->expectNear(out, {4, 4}, expected);

      // The fused op is sequence_pool of embedding.
      Tensor looked = this->output(), composed = this->output();
      ASSERT_TRUE(kernels::embedding(table, idsTensor, padding, looked).isOk());
      ASSERT_TRUE(
          kernels::sequencePool(looked, lengthsTensor, type, composed).isOk());
      this->expectNear(out, composed.shape(), valuesOf(composed));
    }
  }
}

TYPED_TEST(SequenceKernelsTest, BadLengthsAndIdsAreErrors) {
  Tensor x = this->random({5, 2});
  Tensor out = this->output();
  auto pool = [&](const std::vector<int64_t> &lengths) {
    return kernels::sequencePool(x,
                                 idTensor({int64_t(lengths.size())}, lengths),
                                 kernels::PoolType::Sum, out)
        .message();
  };
  EXPECT_EQ(pool({2, -1, 4}),
            "sequence_pool: length -1 of sequence 1 is negative");
  EXPECT_EQ(pool({2, 2}),
            "sequence_pool: the lengths sum to 4, but there are 5 rows");
  EXPECT_EQ(pool({4, 4}), "sequence_pool: the lengths up to sequence 1 cover "
                          "more than the 5 rows");
  // A sum that would overflow int64 is caught, not wrapped around.
  const int64_t huge = std::numeric_limits<int64_t>::max();
  EXPECT_EQ(pool({3, huge}), "sequence_pool: the lengths up to sequence 1 "
                             "cover more than the 5 rows");
  EXPECT_EQ(kernels::sequencePool(x, idTensor({1, 1}, {5}),
                                  kernels::PoolType::Sum, out)
                .message(),
            "sequence_pool: lengths has rank 2 (shape [1, 1]), expected "
            "rank 1");
  Tensor dout = this->random({2, 2});
  Tensor dx = this->output();
  EXPECT_EQ(kernels::sequencePoolGrad(x, idTensor({3}, {1, 1, 3}), dout,
                                      kernels::PoolType::Mean, dx)
                .message(),
            "sequence_pool_grad: dout has shape [2, 2], expected [3, 2]");

  Tensor table = this->random({4, 2});
  EXPECT_EQ(kernels::embeddingPool(table, idTensor({3}, {0, 4, 1}),
                                   idTensor({1}, {3}), kernels::PoolType::Sum,
                                   std::nullopt, out)
                .message(),
            "embedding_pool: id 4 at position 1 is outside the table's 4 rows");
  EXPECT_EQ(kernels::embeddingPool(table, idTensor({3, 1}, {0, 1, 1}),
                                   idTensor({1}, {3}), kernels::PoolType::Sum,
                                   std::nullopt, out)
                .message(),
            "embedding_pool: ids has rank 2 (shape [3, 1]), expected rank 1");
}

} // namespace
