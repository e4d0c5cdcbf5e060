//===- ParameterStoreTest.cpp - Tests of the parameter store --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks lookups by name and index, initialisation of whole parameters and
// row slices, and that moving a store leaves its parameters in place.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ParameterStore.h"

#include "gtest/gtest.h"

using namespace openks;
using namespace openks::runtime;

namespace {

/// Returns a parameter `name` holding rows [rowBegin, rowBegin + rows) of a
/// uniformly initialised f32 tensor of shape `whole`.
Parameter uniformRows(std::string name, const Shape &whole, int64_t rowBegin,
                      int64_t rows) {
  Parameter parameter;
  parameter.name = std::move(name);
  parameter.initializer.kind = InitializerSpec::Kind::Uniform;
  parameter.initializer.min = -1;
  parameter.initializer.max = 1;
  parameter.initializer.seed = 11;
  parameter.wholeShape = whole;
  parameter.rowBegin = rowBegin;
  Shape shape = whole;
  shape[0] = rows;
  parameter.value = Tensor(DType::F32, shape);
  return parameter;
}

TEST(ParameterStoreTest, LooksUpByNameAndIndex) {
  ParameterStore store;
  EXPECT_EQ(store.add(uniformRows("a", Shape{4, 2}, 0, 4)), 0u);
  EXPECT_EQ(store.add(uniformRows("b", Shape{3}, 0, 3)), 1u);
  ASSERT_EQ(store.size(), 2u);
  EXPECT_EQ(store.lookup("b"), std::optional<ParameterId>(1));
  EXPECT_EQ(store.lookup("a"), std::optional<ParameterId>(0));
  EXPECT_EQ(store.lookup("c"), std::nullopt);
  EXPECT_EQ(store[1].name, "b");
  EXPECT_EQ(store[0].value.shape(), (Shape{4, 2}));
}

TEST(ParameterStoreTest, SlicesInitialiseAsRowsOfTheWholeParameter) {
  ParameterStore store;
  ParameterId whole = store.add(uniformRows("w", Shape{5, 3}, 0, 5));
  ParameterId top = store.add(uniformRows("w.block0", Shape{5, 3}, 0, 2));
  ParameterId bottom = store.add(uniformRows("w.block1", Shape{5, 3}, 2, 3));
  ASSERT_TRUE(store.initialize().isOk());

  const float *all = store[whole].value.data<float>();
  const float *first = store[top].value.data<float>();
  const float *rest = store[bottom].value.data<float>();
  for (int64_t i = 0; i < 2 * 3; ++i)
    EXPECT_EQ(first[i], all[i]) << i;
  for (int64_t i = 0; i < 3 * 3; ++i)
    EXPECT_EQ(rest[i], all[2 * 3 + i]) << i;
  EXPECT_NE(all[0], all[1]);
}

TEST(ParameterStoreTest, InitializationErrorsNameTheParameter) {
  ParameterStore store;
  // Rows [4, 6) of a 5-row parameter do not exist.
  store.add(uniformRows("w.block1", Shape{5, 3}, 4, 2));
  Status status = store.initialize();
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  EXPECT_EQ(status.message().rfind("initializing parameter 'w.block1': ", 0),
            0u)
      << status.message();
}

TEST(ParameterStoreTest, MovingKeepsParametersAndLocksInPlace) {
  ParameterStore store;
  store.add(uniformRows("a", Shape{2}, 0, 2));
  const Tensor *value = &store[0].value;
  const std::shared_mutex *mutex = &store.mutex(0);
  ParameterStore moved = std::move(store);
  EXPECT_EQ(&moved[0].value, value);
  EXPECT_EQ(&moved.mutex(0), mutex);
  EXPECT_EQ(moved.lookup("a"), std::optional<ParameterId>(0));
}

TEST(ParameterStoreTest, BorrowedParametersAreTheirOwnersStorage) {
  // The owner: a server's store, initialised.
  ParameterStore server;
  server.add(uniformRows("w", Shape{3, 2}, 0, 3));
  ASSERT_TRUE(server.initialize().isOk());
  Tensor &block = server[0].value;
  std::vector<float> before(block.data<float>(), block.data<float>() + 6);

  // A trainer's store borrows "w" and keeps "b" its own.
  ParameterStore trainer;
  ParameterId w = trainer.add(uniformRows("w", Shape{3, 2}, 0, 3));
  ParameterId b = trainer.add(uniformRows("b", Shape{2}, 0, 2));
  // Unlike the owner, the borrower would start "w" at zero.
  trainer[w].initializer.kind = InitializerSpec::Kind::Constant;
  trainer[w].initializer.value = 0;
  trainer.borrow(w, block);
  EXPECT_TRUE(trainer.isBorrowed(w));
  EXPECT_FALSE(trainer.isBorrowed(b));
  EXPECT_EQ(trainer[w].value.rawData(), block.rawData());
  EXPECT_EQ(trainer[w].value.shape(), block.shape());
  EXPECT_FALSE(trainer[w].value.ownsBuffer());

  // Initialising the trainer leaves the owner's values alone.
  ASSERT_TRUE(trainer.initialize().isOk());
  EXPECT_EQ(std::vector<float>(block.data<float>(), block.data<float>() + 6),
            before);
  EXPECT_NE(trainer[b].value.data<float>()[0], 0.0f);

  // The owner's writes are the borrower's values; a copy of the owner's
  // value onto the borrower's (a pull) copies nothing and changes nothing.
  block.data<float>()[5] = 42.0f;
  EXPECT_EQ(trainer[w].value.data<float>()[5], 42.0f);
  trainer[w].value.copyFrom(block);
  EXPECT_EQ(trainer[w].value.data<float>()[5], 42.0f);
  EXPECT_EQ(trainer[w].value.rawData(), block.rawData());
}

} // namespace
