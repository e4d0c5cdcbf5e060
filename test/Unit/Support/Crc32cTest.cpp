//===- Crc32cTest.cpp - Tests of CRC-32C and durable files ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks CRC-32C against the published vectors (RFC 3720 appendix B.4 and
// the "123456789" check value of the Castagnoli CRC catalogue entry), that
// checksums extend across pieces, and that durable writes publish whole
// files under temporary names of their own and swap directories.
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Crc32c.h"
#include "openks/Support/DurableFile.h"

#include "gtest/gtest.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

using namespace openks;
namespace fs = std::filesystem;

namespace {

TEST(Crc32cTest, MatchesPublishedVectors) {
  EXPECT_EQ(crc32c("123456789"), 0xE3069283u);
  EXPECT_EQ(crc32c(""), 0u);
  EXPECT_EQ(crc32c(std::string(32, '\0')), 0x8A9136AAu);
  EXPECT_EQ(crc32c(std::string(32, '\xFF')), 0x62A8AB43u);
  std::string ascending, descending;
  for (int i = 0; i < 32; ++i) {
    ascending.push_back(static_cast<char>(i));
    descending.push_back(static_cast<char>(31 - i));
  }
  EXPECT_EQ(crc32c(ascending), 0x46DD794Eu);
  EXPECT_EQ(crc32c(descending), 0x113FDB5Cu);
}

TEST(Crc32cTest, ExtendsAcrossPieces) {
  std::string text = "The quick brown fox jumps over the lazy dog";
  uint32_t head = crc32c(text.data(), 10);
  EXPECT_EQ(crc32c(text.data() + 10, text.size() - 10, head), crc32c(text));
}

/// Returns the contents of `path`.
std::string readAll(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// A fresh directory under the test's temporary directory.
fs::path makeScratch(const std::string &name) {
  fs::path dir = fs::temp_directory_path() /
                 ("openks-durable-" + name + "-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(DurableFileTest, ReplacesFilesAtomically) {
  fs::path dir = makeScratch("file");
  std::string path = (dir / "data").string();
  // A file of the name a temporary once had is someone else's.
  std::ofstream(path + ".tmp") << "precious";
  ASSERT_TRUE(writeFileAtomically(path, "first").isOk());
  ASSERT_TRUE(writeFileAtomically(path, "second, longer").isOk());
  EXPECT_EQ(readAll(path), "second, longer");
  EXPECT_EQ(readAll(path + ".tmp"), "precious");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), {}), 2);
  Status missing = writeFileAtomically((dir / "no" / "data").string(), "x");
  EXPECT_EQ(missing.code(), StatusCode::IOError);
  EXPECT_NE(missing.message().find("no/data.tmp-"), std::string::npos)
      << missing.message();
  fs::remove_all(dir);
}

TEST(DurableFileTest, CreatesDirectoriesOfNewNames) {
  fs::path dir = makeScratch("unique");
  std::string prefix = (dir / "ckpt.saving-").string();
  StatusOr<std::string> first = createUniqueDirectory(prefix);
  StatusOr<std::string> second = createUniqueDirectory(prefix);
  ASSERT_TRUE(first.isOk() && second.isOk());
  EXPECT_NE(*first, *second);
  for (const std::string &path : {*first, *second}) {
    EXPECT_EQ(path.rfind(prefix, 0), 0u) << path;
    EXPECT_EQ(path.size(), prefix.size() + 8) << path;
    EXPECT_TRUE(fs::is_empty(path)) << path;
  }
  Status missing = createUniqueDirectory((dir / "no" / "x-").string()).status();
  EXPECT_EQ(missing.code(), StatusCode::IOError);
  EXPECT_NE(missing.message().find("cannot create a directory "),
            std::string::npos)
      << missing.message();
  fs::remove_all(dir);
}

TEST(DurableFileTest, SwapsDirectories) {
  fs::path dir = makeScratch("dir");
  fs::path target = dir / "checkpoint", next = dir / "next";
  fs::create_directory(next);
  ASSERT_TRUE(writeFileSynced((next / "a").string(), "old").isOk());
  ASSERT_TRUE(replaceDirectory(next.string(), target.string()).isOk());
  EXPECT_FALSE(fs::exists(next));
  EXPECT_EQ(readAll(target / "a"), "old");

  fs::create_directory(next);
  ASSERT_TRUE(writeFileSynced((next / "a").string(), "new").isOk());
  ASSERT_TRUE(replaceDirectory(next.string(), target.string()).isOk());
  EXPECT_EQ(readAll(target / "a"), "new");
  // The previous contents are where the new ones were.
  EXPECT_EQ(readAll(next / "a"), "old");
  fs::remove_all(dir);
}

} // namespace
