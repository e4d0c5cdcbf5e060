//===- TrainTypeInferenceTest.cpp - Tests of the train shape rules --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainTypeInference.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/MLIRContext.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace openks::train;

namespace {

constexpr int64_t kDyn = ShapedType::kDynamic;

class TrainTypeInferenceTest : public ::testing::Test {
protected:
  RankedTensorType f32(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, Float32Type::get(&context));
  }
  RankedTensorType i64(ArrayRef<int64_t> shape) {
    return RankedTensorType::get(shape, IntegerType::get(&context, 64));
  }

  MLIRContext context;
  // No location: the rules fail silently, which is what these tests need.
  OptionalLoc noLoc = std::nullopt;
};

TEST_F(TrainTypeInferenceTest, MatmulKeepsOuterDimensions) {
  auto type = inferMatmulType(noLoc, f32({kDyn, 784}), f32({784, 256}));
  ASSERT_TRUE(succeeded(type));
  EXPECT_EQ(*type, f32({kDyn, 256}));
  EXPECT_TRUE(failed(inferMatmulType(noLoc, f32({4, 3}), f32({4, 3}))));
  EXPECT_TRUE(failed(inferMatmulType(noLoc, f32({4}), f32({4, 3}))));
}

TEST_F(TrainTypeInferenceTest, BiasBroadcastsAlongLastDimension) {
  EXPECT_EQ(*inferBroadcastBiasType(noLoc, f32({kDyn, 8}), f32({8})),
            f32({kDyn, 8}));
  EXPECT_EQ(*inferBroadcastBiasType(noLoc, f32({2, 8}), f32({2, 8})),
            f32({2, 8}));
  EXPECT_TRUE(failed(inferBroadcastBiasType(noLoc, f32({2, 8}), f32({2}))));
}

TEST_F(TrainTypeInferenceTest, ReduceSumDropsOrKeepsDimensions) {
  EXPECT_EQ(*inferReduceSumType(noLoc, f32({kDyn, 4, 8}), {1}, false),
            f32({kDyn, 8}));
  EXPECT_EQ(*inferReduceSumType(noLoc, f32({kDyn, 4, 8}), {1, 2}, true),
            f32({kDyn, 1, 1}));
  EXPECT_EQ(*inferReduceSumType(noLoc, f32({3, 4}), {}, false), f32({}));
  EXPECT_TRUE(failed(inferReduceSumType(noLoc, f32({3, 4}), {2}, false)));
  EXPECT_TRUE(failed(inferReduceSumType(noLoc, f32({3, 4}), {1, 1}, false)));
}

TEST_F(TrainTypeInferenceTest, ConcatSumsTheAxis) {
  SmallVector<Type> inputs = {f32({kDyn, 8}), f32({kDyn, 4})};
  EXPECT_EQ(*inferConcatType(noLoc, inputs, 1), f32({kDyn, 12}));
  SmallVector<Type> rows = {f32({392, 256}), f32({392, 256})};
  EXPECT_EQ(*inferConcatType(noLoc, rows, 0), f32({784, 256}));
  SmallVector<Type> dynamicRows = {f32({kDyn, 2}), f32({3, 2})};
  EXPECT_EQ(*inferConcatType(noLoc, dynamicRows, 0), f32({kDyn, 2}));
  EXPECT_TRUE(failed(inferConcatType(noLoc, inputs, 0)));
  EXPECT_TRUE(failed(inferConcatType(noLoc, {}, 0)));
}

TEST_F(TrainTypeInferenceTest, EmbeddingAppendsTheRowWidth) {
  EXPECT_EQ(
      *inferEmbeddingType(noLoc, f32({1000, 16}), i64({kDyn, 3}), std::nullopt),
      f32({kDyn, 3, 16}));
  EXPECT_TRUE(
      failed(inferEmbeddingType(noLoc, f32({1000, 16}), i64({kDyn}), 1000)));
  EXPECT_TRUE(
      succeeded(inferEmbeddingType(noLoc, f32({1000, 16}), i64({kDyn}), 999)));
}

TEST_F(TrainTypeInferenceTest, CrossEntropiesKeepTheBatch) {
  EXPECT_EQ(*inferSoftmaxCrossEntropyType(noLoc, f32({kDyn, 10}), i64({32})),
            f32({32}));
  EXPECT_TRUE(
      failed(inferSoftmaxCrossEntropyType(noLoc, f32({16, 10}), i64({32}))));
  EXPECT_TRUE(
      failed(inferSigmoidCrossEntropyType(noLoc, f32({16, 1}), f32({16}))));
}

TEST_F(TrainTypeInferenceTest, ReshapeKeepsTheElementCount) {
  EXPECT_TRUE(
      succeeded(verifyReshape(noLoc, f32({kDyn, 4, 8}), f32({kDyn, 32}))));
  EXPECT_TRUE(succeeded(verifyReshape(noLoc, f32({6, 4}), f32({3, 8}))));
  EXPECT_TRUE(failed(verifyReshape(noLoc, f32({6, 4}), f32({3, 9}))));
  EXPECT_TRUE(failed(verifyReshape(noLoc, f32({kDyn, 4}), f32({4, 4}))));
  EXPECT_TRUE(failed(verifyReshape(noLoc, f32({kDyn, 4}), f32({kDyn, 8}))));
}

} // namespace
