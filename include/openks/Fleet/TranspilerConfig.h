//===- TranspilerConfig.h - How the transpiler slices and places -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Fleet API's DistributeTranspilerConfig: how parameters are cut into
// blocks and placed on servers, and (for programs written against Paddle's
// config object) Paddle's flags that choose a synchronisation mode. A
// DistributedStrategy is built from it by StrategyFactory::fromConfig.
// Needs neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_TRANSPILERCONFIG_H
#define OPENKS_FLEET_TRANSPILERCONFIG_H

#include "openks/Support/Status.h"

#include <cstdint>

namespace openks::fleet {

/// How the blocks of sliced parameters are placed on servers.
enum class SplitMethod : uint8_t {
  /// One cursor over the servers, continued across variables.
  RoundRobin,
  /// A stable hash of the block name (the same in every process).
  HashName,
};

/// Returns the pipeline option spelling: "round-robin" or "hash-name".
const char *splitMethodName(SplitMethod method);

/// Paddle's DistributeTranspilerConfig, limited to the fields that mean
/// something to OpenKS (docs/Fleet.md lists the others and why they are not
/// taken).
struct DistributeTranspilerConfig {
  /// Split parameters and gradients into row blocks across the servers;
  /// false keeps every variable whole on one server.
  bool sliceVarUp = true;
  /// How blocks are placed on servers.
  SplitMethod splitMethod = SplitMethod::RoundRobin;
  /// Minimum number of elements of a block (Paddle's 8192: messages of
  /// about 32 KB of floats and more).
  int64_t minBlockSize = 8192;

  /// Paddle's mode flags. They only choose the synchronisation mode when a
  /// config rather than a strategy is given (StrategyFactory::fromConfig):
  /// `syncMode` picks Sync; otherwise `geoSgdMode` picks Geo, `halfAsync`
  /// HalfAsync, `runtimeSplitSendRecv` Async, and neither HalfAsync.
  bool syncMode = true;
  /// Paddle: the communicator splits and merges variables at run time. Here
  /// it only tells Async (true) from Paddle's compatibility HalfAsync
  /// (false).
  bool runtimeSplitSendRecv = false;
  /// Trainers meet at a barrier each step; servers apply gradients on
  /// arrival.
  bool halfAsync = false;
  /// GEO-SGD: trainers train locally and push their deltas every
  /// `geoSgdNeedPushNums` steps.
  bool geoSgdMode = false;
  /// Local steps between GEO pushes.
  int64_t geoSgdNeedPushNums = 100;

  /// Checks the fields: `minBlockSize` and `geoSgdNeedPushNums` at least 1,
  /// and mode flags that do not contradict each other (`syncMode` with any
  /// of `runtimeSplitSendRecv`, `halfAsync` or `geoSgdMode`, or `geoSgdMode`
  /// with `halfAsync`). The message names the field.
  Status validate() const;
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_TRANSPILERCONFIG_H
