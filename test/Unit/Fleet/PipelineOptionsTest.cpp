//===- PipelineOptionsTest.cpp - Tests of strategies as pipeline options --===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The options buildTranspileOptions fills are checked against the options
// openks-transpile parses from the text a user would write for the same job.
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/PipelineOptions.h"

#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

using namespace openks;
using namespace openks::fleet;

namespace {

/// Returns `options` as a textual pipeline prints them.
std::string printed(const TranspileOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  options.print(os);
  return text;
}

/// Returns the options openks-transpile parses from `text`, printed.
std::string parsed(const char *text) {
  std::unique_ptr<TranspileOptions> options =
      TranspileOptions::createFromString(text);
  EXPECT_TRUE(options) << text;
  return options ? printed(*options) : "";
}

// Tests each mode and the slicing fields against the textual options.
TEST(PipelineOptionsTest, FillsWhatTheTextualPipelineParses) {
  std::vector<std::string> servers = {"127.0.0.1:6170", "127.0.0.1:6171"};
  struct Case {
    DistributedStrategy strategy;
    int trainers;
    const char *text;
  };
  DistributedStrategy sliced = StrategyFactory::createHalfAsyncStrategy();
  DistributeTranspilerConfig config;
  config.sliceVarUp = false;
  config.splitMethod = SplitMethod::HashName;
  config.minBlockSize = 16;
  sliced.setProgramConfig(config);
  const Case cases[] = {
      {StrategyFactory::createSyncStrategy(), 2,
       "pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 mode=sync"},
      {StrategyFactory::createAsyncStrategy(), 3,
       "pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=3 mode=async"},
      {sliced, 1,
       "pservers=127.0.0.1:6170,127.0.0.1:6171 mode=half-async "
       "slice-var-up=false split-method=hash-name min-block-size=16"},
      {StrategyFactory::createGeoStrategy(5), 4,
       "pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=4 mode=geo "
       "geo-push-steps=5"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.text);
    TranspileOptions options;
    Status status =
        buildTranspileOptions(c.strategy, servers, c.trainers, options);
    ASSERT_TRUE(status.isOk()) << status.message();
    EXPECT_EQ(printed(options), parsed(c.text));
  }
}

// Tests that endpoints are passed on in canonical form.
TEST(PipelineOptionsTest, CanonicalisesEndpoints) {
  TranspileOptions options;
  ASSERT_TRUE(buildTranspileOptions(StrategyFactory::createSyncStrategy(),
                                    {"PS-0.Local:06170", "[0:0::1]:7"}, 1,
                                    options)
                  .isOk());
  EXPECT_EQ(std::vector<std::string>(options.pservers.begin(),
                                     options.pservers.end()),
            (std::vector<std::string>{"ps-0.local:6170", "[::1]:7"}));
}

// Tests the refusals: endpoints, trainers and the strategy, each by name,
// leaving the options untouched.
TEST(PipelineOptionsTest, RefusesBrokenJobs) {
  struct Case {
    DistributedStrategy strategy;
    std::vector<std::string> servers;
    int trainers;
    const char *message;
  };
  const Case cases[] = {
      {StrategyFactory::createSyncStrategy(),
       {},
       1,
       "server endpoints must not be empty"},
      {StrategyFactory::createSyncStrategy(),
       {"127.0.0.1:6170", "127.0.0.1:06170"},
       1,
       "server endpoints list '127.0.0.1:6170' twice (as '127.0.0.1:06170')"},
      {StrategyFactory::createSyncStrategy(),
       {"127.0.0.1"},
       1,
       "endpoint '127.0.0.1' must have the form host:port"},
      {StrategyFactory::createSyncStrategy(),
       {"host:0"},
       1,
       "endpoint 'host:0' has an invalid port '0' (expected 1 to 65535)"},
      {StrategyFactory::createSyncStrategy(),
       {"host:1"},
       0,
       "a job needs at least 1 trainer, got 0 trainers"},
      {StrategyFactory::createGeoStrategy(0),
       {"host:1"},
       1,
       "geo strategy: the push period (update frequency) must be at least 1 "
       "step, got 0"},
  };
  for (const Case &c : cases) {
    SCOPED_TRACE(c.message);
    TranspileOptions options;
    std::string before = printed(options);
    Status status =
        buildTranspileOptions(c.strategy, c.servers, c.trainers, options);
    ASSERT_FALSE(status.isOk());
    EXPECT_EQ(status.code(), StatusCode::InvalidArgument);
    EXPECT_EQ(status.message(), c.message);
    EXPECT_EQ(printed(options), before);
  }
}

} // namespace
