//===- DistributedStrategyTest.cpp - Tests of strategies ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/DistributedStrategy.h"

#include "gtest/gtest.h"

using namespace openks;
using namespace openks::fleet;

namespace {

/// Returns a config with the given mode flags and the other fields default.
DistributeTranspilerConfig flags(bool sync, bool runtimeSplit, bool halfAsync,
                                 bool geo, int64_t pushNums = 100) {
  DistributeTranspilerConfig config;
  config.syncMode = sync;
  config.runtimeSplitSendRecv = runtimeSplit;
  config.halfAsync = halfAsync;
  config.geoSgdMode = geo;
  config.geoSgdNeedPushNums = pushNums;
  return config;
}

/// Returns the mode that `config` normalises to; fails the test on error.
DistributedMode modeOf(const DistributeTranspilerConfig &config) {
  StatusOr<DistributedStrategy> strategy = StrategyFactory::fromConfig(config);
  EXPECT_TRUE(strategy.isOk()) << strategy.status().message();
  return strategy ? strategy->mode() : DistributedMode::Sync;
}

// Tests the factory's four strategies and their mode flags.
TEST(DistributedStrategyTest, FactoryMakesEachMode) {
  DistributedStrategy sync = StrategyFactory::createSyncStrategy();
  EXPECT_EQ(sync.mode(), DistributedMode::Sync);
  EXPECT_TRUE(sync.programConfig().syncMode);
  EXPECT_FALSE(sync.programConfig().runtimeSplitSendRecv);

  DistributedStrategy async = StrategyFactory::createAsyncStrategy();
  EXPECT_EQ(async.mode(), DistributedMode::Async);
  EXPECT_FALSE(async.programConfig().syncMode);
  EXPECT_TRUE(async.programConfig().runtimeSplitSendRecv);
  EXPECT_FALSE(async.programConfig().halfAsync);

  DistributedStrategy halfAsync = StrategyFactory::createHalfAsyncStrategy();
  EXPECT_EQ(halfAsync.mode(), DistributedMode::HalfAsync);
  EXPECT_TRUE(halfAsync.programConfig().halfAsync);

  DistributedStrategy geo = StrategyFactory::createGeoStrategy(7);
  EXPECT_EQ(geo.mode(), DistributedMode::Geo);
  EXPECT_EQ(geo.geoPushSteps(), 7);
  EXPECT_TRUE(geo.programConfig().geoSgdMode);
  EXPECT_EQ(geo.programConfig().geoSgdNeedPushNums, 7);
  EXPECT_EQ(StrategyFactory::createGeoStrategy().geoPushSteps(), 100);

  for (const DistributedStrategy &strategy : {sync, async, halfAsync, geo}) {
    EXPECT_TRUE(strategy.validate().isOk());
    // The default transpiler config for slicing and placement.
    EXPECT_TRUE(strategy.programConfig().sliceVarUp);
    EXPECT_EQ(strategy.programConfig().minBlockSize, 8192);
    EXPECT_TRUE(strategy.programConfig().validate().isOk());
  }
}

// Tests the mode numbers (Paddle's DistributedMode) and spellings.
TEST(DistributedStrategyTest, NamesAndNumbersModes) {
  EXPECT_EQ(static_cast<int>(DistributedMode::Sync), 0);
  EXPECT_EQ(static_cast<int>(DistributedMode::Async), 1);
  EXPECT_EQ(static_cast<int>(DistributedMode::HalfAsync), 2);
  EXPECT_EQ(static_cast<int>(DistributedMode::Geo), 3);
  EXPECT_STREQ(distributedModeName(DistributedMode::Sync), "sync");
  EXPECT_STREQ(distributedModeName(DistributedMode::Async), "async");
  EXPECT_STREQ(distributedModeName(DistributedMode::HalfAsync), "half-async");
  EXPECT_STREQ(distributedModeName(DistributedMode::Geo), "geo");
}

// Tests that a GEO strategy with a push period below 1 does not validate.
TEST(DistributedStrategyTest, RefusesGeoWithoutPushPeriod) {
  for (int64_t steps : {0, -3}) {
    Status status = StrategyFactory::createGeoStrategy(steps).validate();
    ASSERT_FALSE(status.isOk());
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
    EXPECT_EQ(status.message(),
              "geo strategy: the push period (update frequency) must be at "
              "least 1 step, got " +
                  std::to_string(steps));
  }
  EXPECT_TRUE(StrategyFactory::createGeoStrategy(1).validate().isOk());
}

// Tests that setProgramConfig adopts slicing and placement but keeps the
// strategy's mode, as Paddle's check hooks do.
TEST(DistributedStrategyTest, ProgramConfigKeepsTheMode) {
  DistributeTranspilerConfig config;
  config.sliceVarUp = false;
  config.splitMethod = SplitMethod::HashName;
  config.minBlockSize = 16;
  config.syncMode = true;
  config.geoSgdNeedPushNums = 3;

  DistributedStrategy geo = StrategyFactory::createGeoStrategy(20);
  geo.setProgramConfig(config);
  EXPECT_EQ(geo.mode(), DistributedMode::Geo);
  EXPECT_EQ(geo.geoPushSteps(), 20);
  EXPECT_FALSE(geo.programConfig().sliceVarUp);
  EXPECT_EQ(geo.programConfig().splitMethod, SplitMethod::HashName);
  EXPECT_EQ(geo.programConfig().minBlockSize, 16);
  EXPECT_FALSE(geo.programConfig().syncMode);
  EXPECT_TRUE(geo.programConfig().geoSgdMode);
  EXPECT_EQ(geo.programConfig().geoSgdNeedPushNums, 20);
  EXPECT_EQ(geo.describe(),
            "geo (push every 20 steps), whole variables, hash-name, "
            "min-block-size 16");

  // An invalid slicing field makes the strategy invalid, naming it.
  config.minBlockSize = 0;
  DistributedStrategy async = StrategyFactory::createAsyncStrategy();
  async.setProgramConfig(config);
  Status status = async.validate();
  ASSERT_FALSE(status.isOk());
  EXPECT_EQ(status.message(), "async strategy: transpiler config: "
                              "minBlockSize must be at least 1, got 0");
}

// Tests Paddle's normalisation table for a DistributeTranspilerConfig.
TEST(DistributedStrategyTest, NormalisesConfigsAsPaddle) {
  // syncMode: Sync.
  EXPECT_EQ(modeOf(flags(true, false, false, false)), DistributedMode::Sync);
  // Not sync, runtime split: GEO, half-async or async by the other flags.
  EXPECT_EQ(modeOf(flags(false, true, false, true)), DistributedMode::Geo);
  EXPECT_EQ(modeOf(flags(false, true, true, false)),
            DistributedMode::HalfAsync);
  EXPECT_EQ(modeOf(flags(false, true, false, false)), DistributedMode::Async);
  // Not sync, no runtime split: Paddle's compatibility half-async.
  EXPECT_EQ(modeOf(flags(false, false, false, false)),
            DistributedMode::HalfAsync);
  EXPECT_EQ(modeOf(flags(false, false, true, false)),
            DistributedMode::HalfAsync);

  // OpenKS' mode configs (CPUStrategy items).
  EXPECT_EQ(modeOf(flags(true, false, false, false)), DistributedMode::Sync)
      << "SyncModeConfig";
  EXPECT_EQ(modeOf(flags(false, false, false, false)),
            DistributedMode::HalfAsync)
      << "HalfSyncModelConfig";
  EXPECT_EQ(modeOf(flags(false, true, false, false)), DistributedMode::Async)
      << "ASyncModelConfig";
}

// Tests that a GEO config without runtime split (OpenKS' GeoSGDModelConfig)
// is GEO with its push period, not half-async as in Paddle.
TEST(DistributedStrategyTest, GeoConfigIsGeo) {
  StatusOr<DistributedStrategy> strategy =
      StrategyFactory::fromConfig(flags(false, false, false, true, 25));
  ASSERT_TRUE(strategy.isOk()) << strategy.status().message();
  EXPECT_EQ(strategy->mode(), DistributedMode::Geo);
  EXPECT_EQ(strategy->geoPushSteps(), 25);
  EXPECT_TRUE(strategy->validate().isOk());
}

// Tests that normalisation keeps the slicing fields and that a strategy's
// own config normalises back to the same strategy.
TEST(DistributedStrategyTest, NormalisationRoundTrips) {
  DistributeTranspilerConfig config = flags(false, true, false, false);
  config.sliceVarUp = false;
  config.splitMethod = SplitMethod::HashName;
  config.minBlockSize = 64;
  StatusOr<DistributedStrategy> strategy = StrategyFactory::fromConfig(config);
  ASSERT_TRUE(strategy.isOk());
  EXPECT_FALSE(strategy->programConfig().sliceVarUp);
  EXPECT_EQ(strategy->programConfig().splitMethod, SplitMethod::HashName);
  EXPECT_EQ(strategy->programConfig().minBlockSize, 64);

  for (const DistributedStrategy &original :
       {StrategyFactory::createSyncStrategy(),
        StrategyFactory::createAsyncStrategy(),
        StrategyFactory::createHalfAsyncStrategy(),
        StrategyFactory::createGeoStrategy(9), *strategy}) {
    StatusOr<DistributedStrategy> again =
        StrategyFactory::fromConfig(original.programConfig());
    ASSERT_TRUE(again.isOk()) << again.status().message();
    EXPECT_EQ(*again, original) << original.describe();
  }
  EXPECT_NE(StrategyFactory::createGeoStrategy(9),
            StrategyFactory::createGeoStrategy(10));
  EXPECT_NE(StrategyFactory::createSyncStrategy(),
            StrategyFactory::createAsyncStrategy());
}

// Tests that invalid configs are not normalised.
TEST(DistributedStrategyTest, RefusesInvalidConfigs) {
  StatusOr<DistributedStrategy> strategy =
      StrategyFactory::fromConfig(flags(true, true, false, false));
  ASSERT_FALSE(strategy.isOk());
  EXPECT_NE(strategy.status().message().find("runtimeSplitSendRecv"),
            std::string::npos);

  strategy = StrategyFactory::fromConfig(flags(false, true, false, true, 0));
  ASSERT_FALSE(strategy.isOk());
  EXPECT_NE(strategy.status().message().find("geoSgdNeedPushNums"),
            std::string::npos);
}

} // namespace
