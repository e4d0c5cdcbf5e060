//===- PipelineOptions.cpp - Strategies as pipeline options ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PipelineOptions.h"

#include "openks/Support/Endpoint.h"

#include "llvm/Support/ErrorHandling.h"

using namespace openks;
using namespace openks::fleet;

static ps::Mode toPipelineMode(DistributedMode mode) {
  switch (mode) {
  case DistributedMode::Sync:
    return ps::Mode::Sync;
  case DistributedMode::Async:
    return ps::Mode::Async;
  case DistributedMode::HalfAsync:
    return ps::Mode::HalfAsync;
  case DistributedMode::Geo:
    return ps::Mode::Geo;
  }
  llvm_unreachable("unknown distributed mode");
}

static ps::SplitMethod toPipelineSplitMethod(SplitMethod method) {
  switch (method) {
  case SplitMethod::RoundRobin:
    return ps::SplitMethod::RoundRobin;
  case SplitMethod::HashName:
    return ps::SplitMethod::HashName;
  }
  llvm_unreachable("unknown split method");
}

Status
fleet::buildTranspileOptions(const DistributedStrategy &strategy,
                             const std::vector<std::string> &serverEndpoints,
                             int trainers, TranspileOptions &out) {
  OPENKS_RETURN_IF_ERROR(strategy.validate());
  StatusOr<std::vector<std::string>> endpoints =
      canonicalEndpointList(serverEndpoints, "server endpoints");
  if (!endpoints)
    return endpoints.status();
  if (trainers < 1)
    return Status::invalidArgument(
        "a job needs at least 1 trainer, got {} trainers", trainers);

  const DistributeTranspilerConfig &config = strategy.programConfig();
  out.pservers = *endpoints;
  out.trainers = trainers;
  out.mode = toPipelineMode(strategy.mode());
  out.sliceVarUp = config.sliceVarUp;
  out.splitMethod = toPipelineSplitMethod(config.splitMethod);
  out.minBlockSize = config.minBlockSize;
  out.geoPushSteps = strategy.geoPushSteps();
  return Status::ok();
}
