//===- DistributedStrategy.h - Synchronisation strategies -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A DistributedStrategy is what Fleet's distributedOptimizer is told about
// the job: the synchronisation mode (sync, async, half-async or GEO with its
// push period) and the transpiler config for slicing and placement. Strategies
// are made by StrategyFactory, as in Paddle's fleet, either directly or from
// a DistributeTranspilerConfig's mode flags. Unlike Paddle, a config that
// asks for GEO always gets GEO (Paddle routed OpenKS' GeoSGDModelConfig to
// half-async). Needs neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_DISTRIBUTEDSTRATEGY_H
#define OPENKS_FLEET_DISTRIBUTEDSTRATEGY_H

#include "openks/Fleet/TranspilerConfig.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <string>

namespace openks::fleet {

/// The synchronisation mode, numbered like Paddle's DistributedMode.
enum class DistributedMode : uint8_t {
  /// Trainers and servers meet at barriers each step; servers average.
  Sync = 0,
  /// No barriers; servers apply every gradient on arrival.
  Async = 1,
  /// Trainers meet at a barrier each step; servers apply on arrival.
  HalfAsync = 2,
  /// Trainers train locally and push deltas every k steps.
  Geo = 3,
};

/// Returns the pipeline option spelling: "sync", "async", "half-async" or
/// "geo".
const char *distributedModeName(DistributedMode mode);

/// A synchronisation mode with its transpiler config. The config's mode
/// flags always agree with the mode: the strategy sets them, as Paddle's
/// check hooks do, whatever config it is given.
class DistributedStrategy {
public:
  /// Returns the mode.
  DistributedMode mode() const { return mode_; }
  /// Returns the number of local steps between GEO pushes (Geo only;
  /// 100 otherwise).
  int64_t geoPushSteps() const { return config_.geoSgdNeedPushNums; }
  /// Returns the transpiler config, with the mode flags of this strategy.
  const DistributeTranspilerConfig &programConfig() const { return config_; }

  /// Adopts the slicing and placement fields of `config` (sliceVarUp,
  /// splitMethod, minBlockSize); its mode flags and GEO push steps are
  /// replaced by this strategy's.
  void setProgramConfig(const DistributeTranspilerConfig &config);

  /// Checks the config and, in Geo mode, that the push period is at least 1.
  Status validate() const;

  /// Returns a one-line description, e.g. "geo (push every 10 steps),
  /// slice-var-up, round-robin, min-block-size 8192".
  std::string describe() const;

  bool operator==(const DistributedStrategy &other) const;
  bool operator!=(const DistributedStrategy &other) const {
    return !(*this == other);
  }

private:
  friend class StrategyFactory;
  DistributedStrategy(DistributedMode mode, int64_t geoPushSteps);

  /// Sets the config's mode flags and push steps from `mode_`.
  void imposeModeFlags();

  DistributedMode mode_;
  int64_t geoPushSteps_;
  DistributeTranspilerConfig config_;
};

/// Makes strategies: one function per mode, as Paddle's StrategyFactory,
/// and the normalisation of a DistributeTranspilerConfig.
class StrategyFactory {
public:
  StrategyFactory() = delete;

  /// Returns a Sync strategy with the default config.
  static DistributedStrategy createSyncStrategy();
  /// Returns an Async strategy with the default config.
  static DistributedStrategy createAsyncStrategy();
  /// Returns a HalfAsync strategy with the default config.
  static DistributedStrategy createHalfAsyncStrategy();
  /// Returns a Geo strategy that pushes every `updateFrequency` local steps
  /// (validate() rejects a frequency below 1).
  static DistributedStrategy createGeoStrategy(int64_t updateFrequency = 100);

  /// Returns the strategy that `config`'s mode flags ask for, with its
  /// slicing and placement fields: syncMode gives Sync; otherwise geoSgdMode
  /// gives Geo with geoSgdNeedPushNums, halfAsync HalfAsync,
  /// runtimeSplitSendRecv Async, and none of them HalfAsync (Paddle's
  /// compatibility rule). Fails when `config` is invalid.
  static StatusOr<DistributedStrategy>
  fromConfig(const DistributeTranspilerConfig &config);
};

} // namespace openks::fleet

#endif // OPENKS_FLEET_DISTRIBUTEDSTRATEGY_H
