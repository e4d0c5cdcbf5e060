//===- TranspilerConfigTest.cpp - Tests of the transpiler config ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/TranspilerConfig.h"

#include "gtest/gtest.h"

using namespace openks;
using namespace openks::fleet;

namespace {

/// Returns the message of `config`'s validation, or "" when it is valid.
std::string validationError(const DistributeTranspilerConfig &config) {
  Status status = config.validate();
  if (status)
    return "";
  EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
  return status.message();
}

// Tests that the defaults are Paddle's: slice, round-robin, 8192, sync.
TEST(TranspilerConfigTest, DefaultsArePaddles) {
  DistributeTranspilerConfig config;
  EXPECT_TRUE(config.sliceVarUp);
  EXPECT_EQ(config.splitMethod, SplitMethod::RoundRobin);
  EXPECT_EQ(config.minBlockSize, 8192);
  EXPECT_TRUE(config.syncMode);
  EXPECT_FALSE(config.runtimeSplitSendRecv);
  EXPECT_FALSE(config.halfAsync);
  EXPECT_FALSE(config.geoSgdMode);
  EXPECT_EQ(config.geoSgdNeedPushNums, 100);
  EXPECT_EQ(validationError(config), "");
}

// Tests the spelling of the split methods, which the pipelines share.
TEST(TranspilerConfigTest, NamesSplitMethods) {
  EXPECT_STREQ(splitMethodName(SplitMethod::RoundRobin), "round-robin");
  EXPECT_STREQ(splitMethodName(SplitMethod::HashName), "hash-name");
}

// Tests that block sizes and push periods below 1 are refused by name, and
// that small block sizes (below Paddle's 8192) are allowed.
TEST(TranspilerConfigTest, RefusesSizesBelowOne) {
  DistributeTranspilerConfig config;
  config.minBlockSize = 1;
  EXPECT_EQ(validationError(config), "");
  config.minBlockSize = 0;
  EXPECT_EQ(validationError(config),
            "transpiler config: minBlockSize must be at least 1, got 0");
  config.minBlockSize = -8192;
  EXPECT_NE(validationError(config).find("got -8192"), std::string::npos);

  config = DistributeTranspilerConfig();
  config.geoSgdNeedPushNums = 0;
  EXPECT_EQ(validationError(config),
            "transpiler config: geoSgdNeedPushNums must be at least 1, got 0");
}

// Tests that mode flags that ask for two modes at once are refused, naming
// the flag, and that every consistent combination passes.
TEST(TranspilerConfigTest, RefusesContradictoryModeFlags) {
  DistributeTranspilerConfig config;
  config.runtimeSplitSendRecv = true;
  EXPECT_EQ(validationError(config),
            "transpiler config: runtimeSplitSendRecv contradicts syncMode; "
            "set syncMode to false for a mode other than sync");
  config = DistributeTranspilerConfig();
  config.halfAsync = true;
  EXPECT_NE(validationError(config).find("halfAsync contradicts syncMode"),
            std::string::npos);
  config = DistributeTranspilerConfig();
  config.geoSgdMode = true;
  EXPECT_NE(validationError(config).find("geoSgdMode contradicts syncMode"),
            std::string::npos);

  config = DistributeTranspilerConfig();
  config.syncMode = false;
  config.geoSgdMode = true;
  config.halfAsync = true;
  EXPECT_NE(validationError(config).find("geoSgdMode and halfAsync"),
            std::string::npos);

  // All 16 combinations of the four flags: exactly the contradictions fail.
  for (int bits = 0; bits < 16; ++bits) {
    config = DistributeTranspilerConfig();
    config.syncMode = bits & 1;
    config.runtimeSplitSendRecv = bits & 2;
    config.halfAsync = bits & 4;
    config.geoSgdMode = bits & 8;
    bool contradictory =
        (config.syncMode && (config.runtimeSplitSendRecv || config.halfAsync ||
                             config.geoSgdMode)) ||
        (config.geoSgdMode && config.halfAsync);
    EXPECT_EQ(validationError(config).empty(), !contradictory) << bits;
  }
}

} // namespace
