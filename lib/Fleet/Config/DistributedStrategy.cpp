//===- DistributedStrategy.cpp - Synchronisation strategies ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/DistributedStrategy.h"

using namespace openks;
using namespace openks::fleet;

const char *fleet::distributedModeName(DistributedMode mode) {
  switch (mode) {
  case DistributedMode::Sync:
    return "sync";
  case DistributedMode::Async:
    return "async";
  case DistributedMode::HalfAsync:
    return "half-async";
  case DistributedMode::Geo:
    return "geo";
  }
  return "unknown";
}

DistributedStrategy::DistributedStrategy(DistributedMode mode,
                                         int64_t geoPushSteps)
    : mode_(mode), geoPushSteps_(geoPushSteps) {
  imposeModeFlags();
}

void DistributedStrategy::imposeModeFlags() {
  // The flags that StrategyFactory::fromConfig maps back to this mode.
  config_.syncMode = mode_ == DistributedMode::Sync;
  config_.runtimeSplitSendRecv = mode_ != DistributedMode::Sync;
  config_.halfAsync = mode_ == DistributedMode::HalfAsync;
  config_.geoSgdMode = mode_ == DistributedMode::Geo;
  config_.geoSgdNeedPushNums = geoPushSteps_;
}

void DistributedStrategy::setProgramConfig(
    const DistributeTranspilerConfig &config) {
  config_ = config;
  imposeModeFlags();
}

Status DistributedStrategy::validate() const {
  if (mode_ == DistributedMode::Geo && geoPushSteps_ < 1)
    return Status::invalidArgument(
        "geo strategy: the push period (update frequency) must be at least "
        "1 step, got {}",
        geoPushSteps_);
  OPENKS_RETURN_IF_ERROR(config_.validate().withContext(
      fmt::format("{} strategy", distributedModeName(mode_))));
  return Status::ok();
}

std::string DistributedStrategy::describe() const {
  std::string text = distributedModeName(mode_);
  if (mode_ == DistributedMode::Geo)
    text += fmt::format(" (push every {} steps)", geoPushSteps_);
  return fmt::format("{}, {}, {}, min-block-size {}", text,
                     config_.sliceVarUp ? "slice-var-up" : "whole variables",
                     splitMethodName(config_.splitMethod),
                     config_.minBlockSize);
}

bool DistributedStrategy::operator==(const DistributedStrategy &other) const {
  // The mode flags follow from the mode; the rest of the config may differ.
  return mode_ == other.mode_ && geoPushSteps_ == other.geoPushSteps_ &&
         config_.sliceVarUp == other.config_.sliceVarUp &&
         config_.splitMethod == other.config_.splitMethod &&
         config_.minBlockSize == other.config_.minBlockSize;
}

//===----------------------------------------------------------------------===//
// StrategyFactory
//===----------------------------------------------------------------------===//

/// Paddle's default GEO push period, which non-GEO strategies keep.
static constexpr int64_t kDefaultGeoPushSteps = 100;

DistributedStrategy StrategyFactory::createSyncStrategy() {
  return DistributedStrategy(DistributedMode::Sync, kDefaultGeoPushSteps);
}

DistributedStrategy StrategyFactory::createAsyncStrategy() {
  return DistributedStrategy(DistributedMode::Async, kDefaultGeoPushSteps);
}

DistributedStrategy StrategyFactory::createHalfAsyncStrategy() {
  return DistributedStrategy(DistributedMode::HalfAsync, kDefaultGeoPushSteps);
}

DistributedStrategy
StrategyFactory::createGeoStrategy(int64_t updateFrequency) {
  return DistributedStrategy(DistributedMode::Geo, updateFrequency);
}

StatusOr<DistributedStrategy>
StrategyFactory::fromConfig(const DistributeTranspilerConfig &config) {
  OPENKS_RETURN_IF_ERROR(config.validate());
  // Paddle's normalisation (see docs/Fleet.md), except that geoSgdMode gives
  // Geo whatever runtimeSplitSendRecv says: Paddle sent OpenKS'
  // GeoSGDModelConfig, which leaves runtime split off, to HalfAsync.
  DistributedStrategy strategy =
      config.syncMode     ? createSyncStrategy()
      : config.geoSgdMode ? createGeoStrategy(config.geoSgdNeedPushNums)
      : config.halfAsync  ? createHalfAsyncStrategy()
      : config.runtimeSplitSendRecv ? createAsyncStrategy()
                                    : createHalfAsyncStrategy();
  strategy.setProgramConfig(config);
  return strategy;
}
