//===- TensorTest.cpp - Tests of runtime tensors --------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Tensor.h"

#include "gtest/gtest.h"
#include <cstdint>
#include <limits>

using namespace openks;
using namespace openks::runtime;

namespace {

TEST(TensorTest, ShapesCountElements) {
  EXPECT_EQ(Shape{}.numel(), 1);
  EXPECT_EQ((Shape{3, 4, 5}).numel(), 60);
  EXPECT_EQ((Shape{3, 4, 5}).rowWidth(), 20);
  EXPECT_EQ((Shape{7}).rowWidth(), 1);
  EXPECT_EQ((Shape{2, 3}).str(), "[2, 3]");
  EXPECT_EQ((Shape{2, 3}), (Shape{2, 3}));
  EXPECT_NE((Shape{2, 3}), (Shape{3, 2}));
}

TEST(TensorTest, StartsZeroedAndAligned) {
  Tensor tensor(DType::F64, Shape{3, 5});
  EXPECT_EQ(tensor.numel(), 15);
  EXPECT_EQ(tensor.typeString(), "tensor<3x5xf64>");
  EXPECT_EQ(reinterpret_cast<uintptr_t>(tensor.rawData()) % 64, 0u);
  for (int64_t i = 0; i < tensor.numel(); ++i)
    EXPECT_EQ(tensor.data<double>()[i], 0.0);
}

TEST(TensorTest, ResizingWithinCapacityKeepsTheBuffer) {
  Tensor tensor(DType::F32, Shape{0});
  tensor.reserve(64 * 10);
  void *buffer = tensor.rawData();
  for (int64_t rows : {64, 17, 1, 64}) {
    tensor.resize(Shape{rows, 10});
    EXPECT_EQ(tensor.rawData(), buffer) << rows << " rows";
    EXPECT_EQ(tensor.numel(), rows * 10);
  }
  tensor.resize(Shape{65, 10});
  EXPECT_GE(tensor.capacity(), 650);
}

TEST(TensorTest, ViewsWriteTheirRowsOfTheBase) {
  Tensor base(DType::I64, Shape{4, 3});
  Tensor view = Tensor::viewRows(base, 1, 2);
  EXPECT_FALSE(view.ownsBuffer());
  EXPECT_EQ(view.shape(), (Shape{2, 3}));
  EXPECT_EQ(view.capacity(), 6);
  for (int64_t i = 0; i < 6; ++i)
    view.data<int64_t>()[i] = i + 1;
  for (int64_t i = 0; i < 12; ++i)
    EXPECT_EQ(base.data<int64_t>()[i], i >= 3 && i < 9 ? i - 2 : 0) << i;

  // Moved, a view stays a view of the same rows.
  Tensor moved = std::move(view);
  EXPECT_FALSE(moved.ownsBuffer());
  EXPECT_EQ(moved.data<int64_t>(), base.data<int64_t>() + 3);

  // Grown past its rows, it owns a buffer of its own and leaves the base
  // alone.
  moved.resize(Shape{3, 3});
  EXPECT_TRUE(moved.ownsBuffer());
  moved.setZero();
  EXPECT_EQ(base.data<int64_t>()[3], 1);
}

TEST(TensorTest, CopiesShapeAndContents) {
  Tensor source(DType::I64, Shape{2, 2});
  for (int64_t i = 0; i < 4; ++i)
    source.data<int64_t>()[i] = i * i;
  Tensor target(DType::I64, Shape{1});
  target.copyFrom(source);
  EXPECT_EQ(target.shape(), source.shape());
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(target.data<int64_t>()[i], i * i);
}

TEST(TensorTest, AllocationFailuresAreErrors) {
  StatusOr<Tensor> zeroed = Tensor::allocate(DType::F64, Shape{3, 2});
  ASSERT_TRUE(zeroed.isOk());
  EXPECT_EQ(zeroed->numel(), 6);
  EXPECT_EQ(zeroed->data<double>()[5], 0.0);

  // Past the element bound: refused before any size computation overflows.
  StatusOr<Tensor> tooMany =
      Tensor::allocate(DType::F32, Shape{kMaxTensorElements, 2});
  ASSERT_FALSE(tooMany.isOk());
  EXPECT_EQ(tooMany.status().code(), StatusCode::ResourceExhausted);
  Tensor grown(DType::I64, Shape{1});
  Status status = grown.tryReserve(std::numeric_limits<int64_t>::max());
  EXPECT_EQ(status.code(), StatusCode::ResourceExhausted);
  EXPECT_NE(status.message().find("elements of i64"), std::string::npos)
      << status.message();
  // A failed reservation leaves the tensor as it was.
  EXPECT_EQ(grown.capacity(), 1);
}

} // namespace
