//===- PlanTest.cpp - Tests of building plans by hand ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds plans with Plan::Builder and checks what they record: slots,
// inputs, outputs, the parameter accesses an executor locks and which slots
// share a buffer.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Plan.h"

#include "gtest/gtest.h"
#include <set>

using namespace openks;
using namespace openks::runtime;

namespace {

/// Returns a store of f32 parameters named "p0", "p1", ... of `shapes`.
ParameterStore makeStore(std::initializer_list<Shape> shapes) {
  ParameterStore store;
  for (const Shape &shape : shapes) {
    Parameter parameter;
    parameter.name = "p" + std::to_string(store.size());
    parameter.wholeShape = shape;
    parameter.value = Tensor(DType::F32, shape);
    store.add(std::move(parameter));
  }
  return store;
}

/// A kernel call that does nothing.
KernelBinder nothing() {
  return
      [](const Frame &) -> BoundKernel { return [] { return Status::ok(); }; };
}

/// Returns the plan's accesses as (parameter, write) pairs.
std::vector<std::pair<ParameterId, bool>> accessesOf(const Plan &plan) {
  std::vector<std::pair<ParameterId, bool>> result;
  for (const Plan::ParameterAccess &access : plan.accesses())
    result.emplace_back(access.parameter, access.write);
  return result;
}

TEST(PlanTest, RecordsSlotsInputsAndOutputs) {
  ParameterStore store = makeStore({Shape{2, 3}});
  Plan::Builder builder(store);
  SlotId x = builder.addSlot(DType::F64, 12);
  SlotId one = builder.addConstantSlot(Tensor(DType::F32, Shape{}));
  SlotId w = builder.addParameterSlot(0);
  builder.addInput(x, FeedSpec{DType::F64, Shape{-1, 3}});
  builder.addOutput(x, "x");
  builder.addOutput(one, "one");
  EXPECT_EQ(builder.getParameterOf(w), std::optional<ParameterId>(0));
  EXPECT_EQ(builder.getParameterOf(x), std::nullopt);
  Plan plan = std::move(builder).build();

  ASSERT_EQ(plan.slots().size(), 3u);
  EXPECT_EQ(plan.slots()[x].dtype, DType::F64);
  EXPECT_EQ(plan.slots()[x].capacity, 12);
  EXPECT_EQ(plan.slots()[one].constant, std::optional<size_t>(0));
  EXPECT_EQ(plan.constants().size(), 1u);
  EXPECT_EQ(plan.slots()[w].parameter, std::optional<ParameterId>(0));
  EXPECT_EQ(plan.slots()[w].capacity, 6);
  EXPECT_EQ(plan.inputSlots(), std::vector<SlotId>{x});
  EXPECT_EQ(plan.inputSpecs()[0].shape, (Shape{-1, 3}));
  EXPECT_EQ(plan.outputSlots(), (std::vector<SlotId>{x, one}));
  EXPECT_EQ(plan.outputNames(), (std::vector<std::string>{"x", "one"}));
  EXPECT_EQ(plan.numParameters(), 1u);
}

TEST(PlanTest, AccessesAreSortedOncePerParameterWritesWinning) {
  ParameterStore store = makeStore({Shape{1}, Shape{1}, Shape{1}, Shape{1}});
  Plan::Builder builder(store);
  builder.addParameterSlot(3);
  builder.addInstruction(nothing(), "a", {}, /*reads=*/{2, 0}, /*writes=*/{});
  builder.addInstruction(nothing(), "b", {}, /*reads=*/{}, /*writes=*/{2});
  builder.addInstruction(nothing(), "c", {}, /*reads=*/{3, 2}, /*writes=*/{});
  Plan plan = std::move(builder).build();

  // Parameter 1 is not touched; 2 is read and written, so it is written.
  std::vector<std::pair<ParameterId, bool>> expected = {
      {0, false}, {2, true}, {3, false}};
  EXPECT_EQ(accessesOf(plan), expected);
  ASSERT_EQ(plan.instructions().size(), 3u);
  EXPECT_EQ(plan.instructions()[1].writes, std::vector<ParameterId>{2});
  EXPECT_EQ(plan.instructions()[2].where, "c");
}

TEST(PlanTest, OutputsOfParameterSlotsBecomeCopies) {
  ParameterStore store = makeStore({Shape{4}, Shape{2, 2}});
  Plan::Builder builder(store);
  SlotId w = builder.addParameterSlot(1);
  builder.addOutput(w, "w");
  Plan plan = std::move(builder).build();

  // The output is a buffer of its own, filled by a last kernel call that
  // reads the parameter.
  ASSERT_EQ(plan.outputSlots().size(), 1u);
  SlotId output = plan.outputSlots()[0];
  EXPECT_NE(output, w);
  EXPECT_EQ(plan.slots()[output].parameter, std::nullopt);
  EXPECT_EQ(plan.slots()[output].dtype, DType::F32);
  EXPECT_EQ(plan.slots()[output].capacity, 4);
  ASSERT_EQ(plan.instructions().size(), 1u);
  EXPECT_EQ(plan.instructions()[0].reads, std::vector<ParameterId>{1});
  EXPECT_EQ(plan.instructions()[0].where, "fetching output 'w'");
  std::vector<std::pair<ParameterId, bool>> expected = {{1, false}};
  EXPECT_EQ(accessesOf(plan), expected);
}

TEST(PlanTest, SlotsLiveAtDifferentTimesShareBuffers) {
  ParameterStore store = makeStore({Shape{4, 2}});
  Plan::Builder builder(store);
  SlotId input = builder.addSlot(DType::F32, 8);
  SlotId a = builder.addSlot(DType::F32, 10);
  SlotId b = builder.addSlot(DType::F32, 20);
  SlotId c = builder.addSlot(DType::F32, 30);
  SlotId ids = builder.addSlot(DType::I64, 5);
  SlotId d = builder.addSlot(DType::F32, 5);
  SlotId sent = builder.addSlot(DType::F32, 4);
  SlotId e = builder.addSlot(DType::F32, 4);
  SlotId output = builder.addSlot(DType::F32, 1);
  SlotId unused = builder.addSlot(DType::F32, 100);
  SlotId rows = builder.addParameterRowsSlot(0, 1, 2);
  builder.addInput(input, FeedSpec{DType::F32, Shape{-1, 2}});
  builder.keepOwnBuffer(sent);
  // a: [0, 1], b: [1, 2], c: [2, 3], ids: [3, 4], d: [4, 4], sent: [4, 5],
  // e: [5, 6]; the output is written last.
  builder.addInstruction(nothing(), "0", {input, a});
  builder.addInstruction(nothing(), "1", {a, b});
  builder.addInstruction(nothing(), "2", {b, c});
  builder.addInstruction(nothing(), "3", {c, ids, rows}, {}, {0});
  builder.addInstruction(nothing(), "4", {ids, d, sent});
  builder.addInstruction(nothing(), "5", {sent, e});
  builder.addInstruction(nothing(), "6", {e, output});
  builder.addOutput(output, "output");
  Plan plan = std::move(builder).build();

  const std::vector<Plan::Slot> &slots = plan.slots();
  auto bufferOf = [&](SlotId slot) { return *slots[slot].buffer; };
  // a's buffer is free again when c needs one, and grows to hold it; d and
  // e reuse b's (the smallest free one that holds them), one after the
  // other; ids, of another dtype, get one of their own.
  EXPECT_EQ(bufferOf(c), bufferOf(a));
  EXPECT_EQ(plan.buffers()[bufferOf(c)].capacity, 30);
  EXPECT_EQ(bufferOf(d), bufferOf(b));
  EXPECT_EQ(bufferOf(e), bufferOf(b));
  EXPECT_EQ(plan.buffers()[bufferOf(b)].capacity, 20);
  EXPECT_NE(bufferOf(ids), bufferOf(a));
  EXPECT_EQ(plan.buffers()[bufferOf(ids)].dtype, DType::I64);
  // Inputs, outputs and handed-away slots keep their own buffers, of their
  // capacity; a slot nothing touches holds nothing.
  std::set<size_t> buffers;
  for (SlotId slot : {input, a, b, ids, sent, output, unused})
    EXPECT_TRUE(buffers.insert(bufferOf(slot)).second) << slot;
  EXPECT_EQ(plan.buffers()[bufferOf(sent)].capacity, 4);
  EXPECT_EQ(plan.buffers()[bufferOf(unused)].capacity, 0);
  EXPECT_EQ(plan.buffers().size(), buffers.size());
  // The rows of the parameter are a view, not a buffer; writing them is a
  // write of the parameter.
  EXPECT_EQ(slots[rows].buffer, std::nullopt);
  ASSERT_TRUE(slots[rows].rows);
  EXPECT_EQ(slots[rows].rows->first, 1);
  EXPECT_EQ(slots[rows].rows->count, 2);
  EXPECT_EQ(slots[rows].capacity, 4);
  std::vector<std::pair<ParameterId, bool>> expected = {{0, true}};
  EXPECT_EQ(accessesOf(plan), expected);
}

TEST(PlanTest, UnsharedBuffersAreOnePerSlot) {
  ParameterStore store = makeStore({});
  Plan::Builder builder(store);
  SlotId a = builder.addSlot(DType::F32, 10);
  SlotId b = builder.addSlot(DType::F32, 20);
  SlotId c = builder.addSlot(DType::F32, 30);
  builder.addInstruction(nothing(), "0", {a, b});
  builder.addInstruction(nothing(), "1", {b, c});
  Plan plan = std::move(builder).build(/*shareBuffers=*/false);
  ASSERT_EQ(plan.buffers().size(), 3u);
  for (SlotId slot : {a, b, c})
    EXPECT_EQ(plan.buffers()[*plan.slots()[slot].buffer].capacity,
              plan.slots()[slot].capacity);
}

} // namespace
