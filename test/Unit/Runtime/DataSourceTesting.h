//===- DataSourceTesting.h - Helpers for tests of data sources --*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feed layouts, opening sources, reading batches as plain numbers, a
// fixture with a temporary directory, and the check that shards
// concatenate to the global batch.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_RUNTIME_DATASOURCETESTING_H
#define OPENKS_TEST_UNIT_RUNTIME_DATASOURCETESTING_H

#include "openks/Runtime/DataSource.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace openks::testing {

using runtime::DataSource;
using runtime::DType;
using runtime::FeedSpec;
using runtime::Shape;
using runtime::Shard;
using runtime::Tensor;

inline const FeedSpec kFeatures2{DType::F32, Shape{-1, 2}};
inline const FeedSpec kFeatures3{DType::F32, Shape{-1, 3}};
inline const FeedSpec kIds2{DType::I64, Shape{-1, 2}};
inline const FeedSpec kIds3{DType::I64, Shape{-1, 3}};
inline const FeedSpec kValues3{DType::F64, Shape{-1, 3}};
inline const FeedSpec kClassLabels{DType::I64, Shape{-1}};
inline const FeedSpec kBinaryLabels{DType::F32, Shape{-1, 1}};

/// Tensors for a feed layout, and the pointers next() takes.
struct Feeds {
  explicit Feeds(const std::vector<FeedSpec> &specs) {
    for (const FeedSpec &spec : specs) {
      Shape empty = spec.shape;
      empty[0] = 0;
      tensors.emplace_back(spec.dtype, empty);
    }
    for (Tensor &tensor : tensors)
      pointers.push_back(&tensor);
  }

  std::vector<Tensor> tensors;
  std::vector<Tensor *> pointers;
};

/// Returns the elements of `tensor` as doubles.
inline std::vector<double> elements(const Tensor &tensor) {
  std::vector<double> result;
  for (int64_t i = 0; i < tensor.numel(); ++i) {
    switch (tensor.dtype()) {
    case DType::F32:
      result.push_back(tensor.data<float>()[i]);
      break;
    case DType::F64:
      result.push_back(tensor.data<double>()[i]);
      break;
    case DType::I64:
      result.push_back(static_cast<double>(tensor.data<int64_t>()[i]));
      break;
    }
  }
  return result;
}

/// Opens `spec`, expecting success.
inline std::unique_ptr<DataSource> open(const std::string &spec,
                                        const std::vector<FeedSpec> &specs,
                                        Shard shard = {}) {
  std::unique_ptr<DataSource> source;
  Status status = runtime::openDataSource(spec, specs, shard, source);
  EXPECT_TRUE(status.isOk()) << status.message();
  return source;
}

/// Opens `spec`, expecting failure, and returns the message.
inline std::string openError(const std::string &spec,
                             const std::vector<FeedSpec> &specs,
                             Shard shard = {}) {
  std::unique_ptr<DataSource> source;
  Status status = runtime::openDataSource(spec, specs, shard, source);
  EXPECT_FALSE(status.isOk()) << spec;
  return status.message();
}

/// Reads the next batch into `feeds` and returns every feed's elements.
inline std::vector<std::vector<double>>
nextBatch(DataSource &source, Feeds &feeds, int64_t globalBatch) {
  Status status = source.next(globalBatch, feeds.pointers);
  EXPECT_TRUE(status.isOk()) << status.message();
  std::vector<std::vector<double>> result;
  for (const Tensor &tensor : feeds.tensors)
    result.push_back(elements(tensor));
  return result;
}

/// Gives each test a fresh temporary directory.
class DataSourceTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (std::filesystem::path(::testing::TempDir()) / "openks-data-XXXXXX")
            .string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    dir = pattern;
  }

  void TearDown() override {
    std::error_code error;
    std::filesystem::remove_all(dir, error);
  }

  /// Writes `contents` to the file `name` and returns its path.
  std::string write(const std::string &name, const std::string &contents) {
    std::string path = dir + "/" + name;
    std::ofstream(path) << contents;
    return path;
  }

  /// Writes a csv file of `rows` rows "i, 10 * i, i % classes".
  std::string writeCountingCsv(int rows, int classes) {
    std::string contents;
    for (int i = 0; i < rows; ++i)
      contents += std::to_string(i) + "," + std::to_string(10 * i) + "," +
                  std::to_string(i % classes) + "\n";
    return write("counting.csv", contents);
  }

  std::string dir;
};

/// Checks that for T in {1, 2, 3} and several global batches, the T shards
/// of each batch concatenated equal the batch one process reads, and that
/// shard t gets t * B / T ... (t + 1) * B / T.
inline void expectShardsConcatenate(const std::string &spec,
                                    const std::vector<FeedSpec> &specs) {
  for (int count = 1; count <= 3; ++count) {
    for (int64_t batch : {4, 6, 7}) {
      SCOPED_TRACE(::testing::Message()
                   << spec << " T=" << count << " B=" << batch);
      std::unique_ptr<DataSource> whole = open(spec, specs);
      Feeds wholeFeeds(specs);
      std::vector<std::unique_ptr<DataSource>> shards;
      std::vector<Feeds> shardFeeds;
      shardFeeds.reserve(count);
      for (int index = 0; index < count; ++index) {
        shards.push_back(open(spec, specs, {index, count}));
        shardFeeds.emplace_back(specs);
      }
      // Enough calls to wrap around the 10-row data several times.
      for (int call = 0; call < 6; ++call) {
        std::vector<std::vector<double>> expected =
            nextBatch(*whole, wholeFeeds, batch);
        std::vector<std::vector<double>> joined(specs.size());
        for (int index = 0; index < count; ++index) {
          std::vector<std::vector<double>> part =
              nextBatch(*shards[index], shardFeeds[index], batch);
          EXPECT_EQ(shardFeeds[index].tensors[0].dim(0),
                    (index + 1) * batch / count - index * batch / count);
          EXPECT_EQ(shards[index]->epoch(), whole->epoch());
          for (size_t i = 0; i < specs.size(); ++i)
            joined[i].insert(joined[i].end(), part[i].begin(), part[i].end());
        }
        EXPECT_EQ(joined, expected);
      }
    }
  }
}

} // namespace openks::testing

#endif // OPENKS_TEST_UNIT_RUNTIME_DATASOURCETESTING_H
