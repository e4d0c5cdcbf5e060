//===- PipelineOptions.h - Strategies as pipeline options -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns a Fleet strategy and a job's shape into the typed options of the
// openks-transpile pipeline. This is the one part of the Fleet configuration
// that needs MLIR: it is in OpenKSFleet (lib/Fleet), the rest in
// OpenKSFleetConfig (lib/Fleet/Config), which does not.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_PIPELINEOPTIONS_H
#define OPENKS_FLEET_PIPELINEOPTIONS_H

#include "openks/Fleet/DistributedStrategy.h"
#include "openks/Pipelines/Pipelines.h"
#include "openks/Support/Status.h"

#include <string>
#include <vector>

namespace openks::fleet {

/// Fills `out` for a job of `trainers` trainers and the servers at
/// `serverEndpoints` (in server order) that trains with `strategy`: mode,
/// GEO push steps, slicing and placement, and the endpoints in canonical
/// form. Fails, leaving `out` untouched, when the strategy is invalid, the
/// endpoint list is empty, malformed or names a server twice, or `trainers`
/// is below 1.
Status buildTranspileOptions(const DistributedStrategy &strategy,
                             const std::vector<std::string> &serverEndpoints,
                             int trainers, TranspileOptions &out);

} // namespace openks::fleet

#endif // OPENKS_FLEET_PIPELINEOPTIONS_H
