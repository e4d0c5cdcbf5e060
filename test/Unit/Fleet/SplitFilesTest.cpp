//===- SplitFilesTest.cpp - Tests of each worker's share of files ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/SplitFiles.h"

#include "gtest/gtest.h"

using namespace openks;
using namespace openks::fleet;

namespace {

using Strings = std::vector<std::string>;

/// Paddle's split_files loop, transcribed as the reference: worker i's run
/// has files / workers + (i < files % workers) files.
Strings paddleSplitFiles(const Strings &files, int index, int workers) {
  size_t start = 0, end = 0;
  for (int i = 0; i <= index; ++i) {
    size_t length = files.size() / workers +
                    (static_cast<size_t>(i) < files.size() % workers ? 1 : 0);
    start = end;
    end += length;
  }
  return Strings(files.begin() + start, files.begin() + end);
}

/// Returns `count` file names.
Strings fileNames(int count) {
  Strings files;
  for (int i = 0; i < count; ++i)
    files.push_back("part-" + std::to_string(i));
  return files;
}

// Tests the docstring's example: 5 files for 2 workers.
TEST(SplitFilesTest, SplitsAsPaddlesExample) {
  Strings files = {"a", "b", "c", "d", "e"};
  StatusOr<Strings> first = splitFiles(files, 0, 2);
  StatusOr<Strings> second = splitFiles(files, 1, 2);
  ASSERT_TRUE(first.isOk() && second.isOk());
  EXPECT_EQ(*first, Strings({"a", "b", "c"}));
  EXPECT_EQ(*second, Strings({"d", "e"}));
}

// Tests every split of up to 12 files against Paddle's loop, and that the
// shares are contiguous, in order and cover the files once.
TEST(SplitFilesTest, MatchesPaddleAndCoversTheFiles) {
  for (int count = 1; count <= 12; ++count)
    for (int workers = 1; workers <= count; ++workers) {
      Strings files = fileNames(count);
      Strings joined;
      for (int index = 0; index < workers; ++index) {
        SCOPED_TRACE(testing::Message() << count << " files, worker " << index
                                        << " of " << workers);
        StatusOr<Strings> share = splitFiles(files, index, workers);
        ASSERT_TRUE(share.isOk()) << share.status().message();
        EXPECT_EQ(*share, paddleSplitFiles(files, index, workers));
        joined.insert(joined.end(), share->begin(), share->end());
      }
      EXPECT_EQ(joined, files);
    }
}

// Tests the refusals.
TEST(SplitFilesTest, RefusesBadWorkers) {
  StatusOr<Strings> share = splitFiles(fileNames(3), 0, 0);
  ASSERT_FALSE(share.isOk());
  EXPECT_EQ(share.status().message(),
            "splitFiles needs at least 1 worker, got 0");
  share = splitFiles(fileNames(3), 3, 3);
  ASSERT_FALSE(share.isOk());
  EXPECT_EQ(share.status().code(), StatusCode::OutOfRange);
  EXPECT_EQ(share.status().message(),
            "splitFiles: worker index 3 is out of range for 3 workers");
  EXPECT_FALSE(splitFiles(fileNames(3), -1, 3).isOk());
  share = splitFiles(fileNames(2), 0, 3);
  ASSERT_FALSE(share.isOk());
  EXPECT_EQ(share.status().message(),
            "splitFiles: 2 files cannot be split among 3 workers; each "
            "worker needs at least one");
}

} // namespace
