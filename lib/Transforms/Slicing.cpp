//===- Slicing.cpp - Variable slicing and dispatch math -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Transforms/Slicing.h"
#include "openks/Support/Limits.h"

#include <cassert>

using namespace openks;

static int64_t ceilDiv(int64_t numerator, int64_t denominator) {
  return (numerator + denominator - 1) / denominator;
}

llvm::SmallVector<VarBlock> openks::sliceVariable(llvm::ArrayRef<int64_t> shape,
                                                  int64_t maxSlices,
                                                  int64_t minBlockSize) {
  assert(maxSlices >= 1 && minBlockSize >= 1 && "validated by the caller");
  assert(boundedProduct(shape) && "a verified shape: positive dimensions, "
                                  "at most kMaxTensorElements elements");
  int64_t numel = 1, width = 1;
  for (auto [index, size] : llvm::enumerate(shape)) {
    numel *= size;
    if (index > 0)
      width *= size;
  }
  int64_t maxBlocks = std::max<int64_t>(numel / minBlockSize, 1);
  int64_t split = std::min(maxSlices, maxBlocks);
  int64_t block = ceilDiv(numel, split);
  // Blocks hold whole rows: round up to a multiple of the row width, then
  // count again (rounding may leave fewer blocks).
  if (block % width != 0)
    block += width - block % width;
  split = numel == 0 ? 1 : ceilDiv(numel, block);

  llvm::SmallVector<VarBlock> blocks;
  for (int64_t i = 0; i < split; ++i) {
    int64_t elements = std::min(block, numel - i * block);
    blocks.push_back({i * block / width, elements / width, elements});
  }
  return blocks;
}

std::vector<std::vector<int>>
openks::dispatchRoundRobin(llvm::ArrayRef<int64_t> blocksPerVariable,
                           int numEndpoints) {
  std::vector<std::vector<int>> placement;
  int cursor = 0;
  for (int64_t blocks : blocksPerVariable) {
    std::vector<int> &servers = placement.emplace_back();
    for (int64_t i = 0; i < blocks; ++i) {
      servers.push_back(cursor);
      cursor = (cursor + 1) % numEndpoints;
    }
  }
  return placement;
}

uint64_t openks::stableNameHash(llvm::StringRef name) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char byte : name) {
    hash ^= byte;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

std::vector<std::vector<int>>
openks::dispatchHashName(llvm::ArrayRef<std::vector<std::string>> blockNames,
                         int numEndpoints) {
  std::vector<std::vector<int>> placement;
  for (const std::vector<std::string> &names : blockNames) {
    assert(names.size() <= static_cast<size_t>(numEndpoints) &&
           "slicing makes at most one block per server");
    std::vector<bool> taken(numEndpoints, false);
    std::vector<int> &servers = placement.emplace_back();
    for (const std::string &name : names) {
      int server = static_cast<int>(stableNameHash(name) % numEndpoints);
      // At most one full turn: with more blocks than servers (which the
      // caller rules out) a block shares a server rather than loop forever.
      for (int tried = 0; taken[server] && tried < numEndpoints; ++tried)
        server = (server + 1) % numEndpoints;
      taken[server] = true;
      servers.push_back(server);
    }
  }
  return placement;
}
