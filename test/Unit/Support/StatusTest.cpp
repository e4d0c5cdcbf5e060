//===- StatusTest.cpp - Tests of errors as values -------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Status.h"

#include "gtest/gtest.h"

#include <memory>

using namespace openks;

namespace {

TEST(StatusTest, CarriesCodeAndMessage) {
  Status ok = Status::ok();
  EXPECT_TRUE(ok.isOk());
  EXPECT_EQ(ok.code(), StatusCode::Ok);
  EXPECT_EQ(ok.message(), "");

  Status late = Status::error(StatusCode::DeadlineExceeded,
                              "no answer from {} within {} s", "ps0", 60);
  EXPECT_FALSE(late.isOk());
  EXPECT_EQ(late.code(), StatusCode::DeadlineExceeded);
  EXPECT_EQ(late.message(), "no answer from ps0 within 60 s");

  EXPECT_EQ(Status::outOfRange("x").code(), StatusCode::OutOfRange);
  EXPECT_EQ(Status::notFound("x").code(), StatusCode::NotFound);
  EXPECT_EQ(Status::dataLoss("x").code(), StatusCode::DataLoss);
  EXPECT_EQ(Status::internal("x").code(), StatusCode::Internal);
  EXPECT_EQ(Status::invalidArgument("x").code(), StatusCode::InvalidArgument);
}

TEST(StatusTest, AnEmptyMessageNamesTheCode) {
  EXPECT_EQ(Status::error(StatusCode::PeerLost, "").message(), "peer lost");
}

TEST(StatusTest, ContextKeepsTheCode) {
  Status status =
      Status::outOfRange("label 7 is outside [0, 5)").withContext("step 3");
  EXPECT_EQ(status.code(), StatusCode::OutOfRange);
  EXPECT_EQ(status.message(), "step 3: label 7 is outside [0, 5)");
  EXPECT_TRUE(Status::ok().withContext("step 3").isOk());
}

Status failsWhenNegative(int value) {
  if (value < 0)
    return Status::invalidArgument("{} is negative", value);
  return Status::ok();
}

Status propagate(int value, bool &reachedEnd) {
  OPENKS_RETURN_IF_ERROR(failsWhenNegative(value));
  reachedEnd = true;
  return Status::ok();
}

TEST(StatusTest, ReturnIfErrorStopsAtTheFirstError) {
  bool reachedEnd = false;
  EXPECT_FALSE(propagate(-1, reachedEnd).isOk());
  EXPECT_FALSE(reachedEnd);
  EXPECT_TRUE(propagate(1, reachedEnd).isOk());
  EXPECT_TRUE(reachedEnd);
}

TEST(StatusTest, StatusOrHoldsAValueOrAnError) {
  StatusOr<std::unique_ptr<int>> value = std::make_unique<int>(4);
  ASSERT_TRUE(value.isOk());
  EXPECT_EQ(**value, 4);

  StatusOr<std::unique_ptr<int>> error = Status::notFound("no such file");
  ASSERT_FALSE(error.isOk());
  EXPECT_EQ(error.status().code(), StatusCode::NotFound);
  EXPECT_EQ(error.status().message(), "no such file");
}

} // namespace
