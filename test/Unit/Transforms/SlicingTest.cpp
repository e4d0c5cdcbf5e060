//===- SlicingTest.cpp - Tests of slicing and dispatch math ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The worked examples of Paddle's slice_variable, then properties over many
// random shapes, then the dispatchers.
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Slicing.h"

#include "gtest/gtest.h"
#include <random>
#include <set>

using namespace openks;

namespace {

std::vector<int64_t> rowsOf(llvm::ArrayRef<VarBlock> blocks) {
  std::vector<int64_t> rows;
  for (const VarBlock &block : blocks)
    rows.push_back(block.rows);
  return rows;
}

TEST(SlicingTest, ReproducesPaddlesWorkedExamples) {
  EXPECT_EQ(rowsOf(sliceVariable({784, 512}, 2, 8192)),
            (std::vector<int64_t>{392, 392}));
  // 70007 / 4 = 17502 elements, rounded up to 2501 rows of 7.
  EXPECT_EQ(rowsOf(sliceVariable({10001, 7}, 4, 8192)),
            (std::vector<int64_t>{2501, 2501, 2501, 2498}));
  EXPECT_EQ(rowsOf(sliceVariable({100000}, 3, 8192)),
            (std::vector<int64_t>{33334, 33334, 33332}));
  // Fewer elements than one block: never split.
  EXPECT_EQ(rowsOf(sliceVariable({1000, 3}, 3, 8192)),
            (std::vector<int64_t>{1000}));
  EXPECT_EQ(rowsOf(sliceVariable({512}, 5, 8192)),
            (std::vector<int64_t>{512}));
  // The MLP of the docs on two servers: fc1.w splits, fc2.w does not.
  EXPECT_EQ(rowsOf(sliceVariable({784, 256}, 2, 8192)),
            (std::vector<int64_t>{392, 392}));
  EXPECT_EQ(rowsOf(sliceVariable({256, 10}, 2, 8192)),
            (std::vector<int64_t>{256}));
  // A scalar (the learning rate) is one block.
  EXPECT_EQ(rowsOf(sliceVariable({}, 4, 8192)), (std::vector<int64_t>{1}));
}

TEST(SlicingTest, BlocksCoverRandomVariablesExactly) {
  std::mt19937_64 random(20261202);
  for (int trial = 0; trial < 20000; ++trial) {
    int rank = 1 + static_cast<int>(random() % 3);
    std::vector<int64_t> shape;
    int64_t numel = 1;
    for (int i = 0; i < rank; ++i) {
      shape.push_back(1 + static_cast<int64_t>(random() % (i == 0 ? 5000 : 40)));
      numel *= shape.back();
    }
    int64_t servers = 1 + static_cast<int64_t>(random() % 8);
    int64_t minBlock = 1 + static_cast<int64_t>(random() % 20000);
    llvm::SmallVector<VarBlock> blocks =
        sliceVariable(shape, servers, minBlock);
    int64_t width = numel / shape[0];

    SCOPED_TRACE(::testing::Message()
                 << "shape " << ::testing::PrintToString(shape) << " servers "
                 << servers << " min block " << minBlock);
    ASSERT_FALSE(blocks.empty());
    EXPECT_LE(static_cast<int64_t>(blocks.size()), servers);
    EXPECT_LE(static_cast<int64_t>(blocks.size()),
              std::max<int64_t>(numel / minBlock, 1));
    int64_t row = 0, elements = 0;
    for (const VarBlock &block : blocks) {
      EXPECT_EQ(block.rowBegin, row);
      EXPECT_GT(block.rows, 0);
      EXPECT_EQ(block.elements, block.rows * width);
      // All blocks but the last have the same size.
      if (&block != &blocks.back()) {
        EXPECT_EQ(block.rows, blocks.front().rows);
      }
      row += block.rows;
      elements += block.elements;
    }
    EXPECT_EQ(row, shape[0]);
    EXPECT_EQ(elements, numel);
  }
}

TEST(SlicingTest, RoundRobinRotatesAcrossVariables) {
  // The IR sketch's MLP on two servers, in parameter-name order:
  // fc1.b, fc1.w (two blocks), fc2.b, fc2.w.
  std::vector<std::vector<int>> placement =
      dispatchRoundRobin({1, 2, 1, 1}, 2);
  EXPECT_EQ(placement, (std::vector<std::vector<int>>{{0}, {1, 0}, {1}, {0}}));
  EXPECT_EQ(dispatchRoundRobin({3, 3}, 4),
            (std::vector<std::vector<int>>{{0, 1, 2}, {3, 0, 1}}));
}

TEST(SlicingTest, HashNameIsStableAndSpreadsBlocks) {
  // FNV-1a 64 of the empty string and of "a" (published test vectors).
  EXPECT_EQ(stableNameHash(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(stableNameHash("a"), 0xaf63dc4c8601ec8cull);
  std::vector<std::vector<std::string>> names = {
      {"fc1.w.block0", "fc1.w.block1", "fc1.w.block2"}, {"fc1.b"}};
  std::vector<std::vector<int>> placement = dispatchHashName(names, 3);
  EXPECT_EQ(placement, dispatchHashName(names, 3));
  std::set<int> servers(placement[0].begin(), placement[0].end());
  EXPECT_EQ(servers.size(), 3u) << "two blocks of fc1.w on one server";
  EXPECT_EQ(placement[1][0], static_cast<int>(stableNameHash("fc1.b") % 3));

  // Many variables with as many blocks as servers: never a repeat.
  for (int var = 0; var < 200; ++var) {
    std::vector<std::string> blocks;
    for (int i = 0; i < 5; ++i)
      blocks.push_back("v" + std::to_string(var) + ".block" + std::to_string(i));
    std::vector<int> onServers = dispatchHashName({blocks}, 5).front();
    EXPECT_EQ(std::set<int>(onServers.begin(), onServers.end()).size(), 5u);
  }
}

} // namespace
