//===- TranspilerConfig.cpp - How the transpiler slices and places --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TranspilerConfig.h"

using namespace openks;
using namespace openks::fleet;

const char *fleet::splitMethodName(SplitMethod method) {
  switch (method) {
  case SplitMethod::RoundRobin:
    return "round-robin";
  case SplitMethod::HashName:
    return "hash-name";
  }
  return "unknown";
}

Status DistributeTranspilerConfig::validate() const {
  if (minBlockSize < 1)
    return Status::invalidArgument(
        "transpiler config: minBlockSize must be at least 1, got {}",
        minBlockSize);
  if (geoSgdNeedPushNums < 1)
    return Status::invalidArgument(
        "transpiler config: geoSgdNeedPushNums must be at least 1, got {}",
        geoSgdNeedPushNums);
  if (syncMode) {
    // Paddle refuses runtime_split_send_recv with sync_mode; half_async and
    // geo_sgd_mode with it are as contradictory, though Paddle lets the
    // first flag it looks at win.
    for (auto [set, name] :
         {std::pair{runtimeSplitSendRecv, "runtimeSplitSendRecv"},
          std::pair{halfAsync, "halfAsync"},
          std::pair{geoSgdMode, "geoSgdMode"}})
      if (set)
        return Status::invalidArgument(
            "transpiler config: {} contradicts syncMode; set syncMode to "
            "false for a mode other than sync",
            name);
  }
  if (geoSgdMode && halfAsync)
    return Status::invalidArgument(
        "transpiler config: geoSgdMode and halfAsync ask for two different "
        "modes; set one of them");
  return Status::ok();
}
