//===- Slicing.h - Variable slicing and dispatch math -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The arithmetic behind the transpiler's slicing and dispatch, kept apart
// from the IR so it can be tested exhaustively: Paddle's `slice_variable`
// block math (reproduced exactly) and the two dispatchers that place blocks
// on parameter servers.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TRANSFORMS_SLICING_H
#define OPENKS_TRANSFORMS_SLICING_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>
#include <vector>

namespace openks {

/// One block of a sliced variable: `rows` whole rows starting at `rowBegin`
/// (for a rank-1 variable a row is one element).
struct VarBlock {
  int64_t rowBegin;
  int64_t rows;
  /// The number of elements, rows times the row width.
  int64_t elements;
};

/// Splits a variable of `shape` into at most `maxSlices` row blocks as
/// Paddle's DistributeTranspiler does: as many blocks as fit
/// `minBlockSize` elements (at least one) but no more than `maxSlices`, each
/// rounded up to whole rows, the last one possibly shorter. `maxSlices` is
/// the number of servers with slice-var-up, else 1. `shape` is a verified
/// parameter shape (positive dimensions, at most kMaxTensorElements
/// elements), so no count overflows.
llvm::SmallVector<VarBlock> sliceVariable(llvm::ArrayRef<int64_t> shape,
                                          int64_t maxSlices,
                                          int64_t minBlockSize);

/// Places blocks round-robin: one cursor over the `numEndpoints` servers
/// that continues across variables, so the blocks of one variable land on
/// distinct servers. `blocksPerVariable` lists each variable's block count in
/// dispatch order; the result lists each block's server index.
std::vector<std::vector<int>>
dispatchRoundRobin(llvm::ArrayRef<int64_t> blocksPerVariable, int numEndpoints);

/// The stable hash HashName dispatch uses: 64-bit FNV-1a of the UTF-8 bytes
/// of `name`. Unlike Python's salted `hash`, every process agrees on it.
uint64_t stableNameHash(llvm::StringRef name);

/// Places each block on server `stableNameHash(name) % numEndpoints`, moving
/// to the next server (cyclically) whenever that one already holds a block
/// of the same variable. `blockNames` lists each variable's block names;
/// a variable must not have more blocks than there are servers (if it has,
/// blocks share servers; the search never goes round more than once).
std::vector<std::vector<int>>
dispatchHashName(llvm::ArrayRef<std::vector<std::string>> blockNames,
                 int numEndpoints);

} // namespace openks

#endif // OPENKS_TRANSFORMS_SLICING_H
