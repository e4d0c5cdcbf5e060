//===- InputGuardTest.cpp - Tests of bounded input reading ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/InputGuard.h"

#include "gtest/gtest.h"

#include <cstdio>
#include <fstream>

using namespace openks;

namespace {

/// Returns the depth check's message for `text` at a limit of 3, or "".
std::string nestingError(std::string_view text) {
  Status status = checkNestingDepth(text, 3);
  return status.isOk() ? "" : status.message();
}

TEST(InputGuardTest, CountsBracketsOfEveryKind) {
  EXPECT_EQ(nestingError("[{()}] <{[]}>"), "");
  EXPECT_NE(nestingError("[{(<x>)}]"), "");
  EXPECT_NE(nestingError("((( (( )) )))").find("line 1"), std::string::npos);
  EXPECT_NE(nestingError("a\nb\n[[[[").find("line 3"), std::string::npos);
  // Closed brackets free their level again.
  EXPECT_EQ(nestingError("[[[]]] [[[]]] [[[]]]"), "");
}

TEST(InputGuardTest, SkipsStringsCommentsAndArrows) {
  EXPECT_EQ(nestingError(R"(x = "[[[[[[" y)"), "");
  EXPECT_EQ(nestingError(R"(x = "\"[[[[" y)"), "");
  EXPECT_EQ(nestingError("// ((((((((\n()"), "");
  // `->` closes nothing, so it does not hide an opening bracket.
  EXPECT_NE(nestingError("((( -> (").find("deeper than 3"), std::string::npos);
  EXPECT_EQ(nestingError("(a) -> (b) -> (c)"), "");
}

TEST(InputGuardTest, ReadsFilesUpToTheLimit) {
  std::string path = ::testing::TempDir() + "input-guard.txt";
  {
    std::ofstream file(path, std::ios::binary);
    file << std::string(1000, 'x');
  }
  StatusOr<std::string> whole = readBoundedInput(path, 1000);
  ASSERT_TRUE(whole.isOk()) << whole.status().message();
  EXPECT_EQ(whole->size(), 1000u);

  StatusOr<std::string> tooLarge = readBoundedInput(path, 999);
  ASSERT_FALSE(tooLarge.isOk());
  EXPECT_EQ(tooLarge.status().code(), StatusCode::ResourceExhausted);
  EXPECT_NE(tooLarge.status().message().find("larger than 999 bytes"),
            std::string::npos);
  std::remove(path.c_str());

  StatusOr<std::string> missing = readBoundedInput(path, 10);
  ASSERT_FALSE(missing.isOk());
  EXPECT_EQ(missing.status().code(), StatusCode::NotFound);
}

TEST(InputGuardTest, StopsReadingAnEndlessInput) {
  StatusOr<std::string> endless = readBoundedInput("/dev/zero", 1 << 20);
  ASSERT_FALSE(endless.isOk());
  EXPECT_EQ(endless.status().code(), StatusCode::ResourceExhausted);
}

} // namespace
