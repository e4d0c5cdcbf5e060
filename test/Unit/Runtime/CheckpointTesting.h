//===- CheckpointTesting.h - Checkpoint test stores, fixture ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the checkpoint tests share: the stores of a job's variables cut into
// row blocks in any layout, values as training would leave them, a check
// that two layouts hold the same values, and a fixture with a scratch
// directory that saves a two-store checkpoint and expects a load to fail
// naming a file.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_RUNTIME_CHECKPOINTTESTING_H
#define OPENKS_TEST_UNIT_RUNTIME_CHECKPOINTTESTING_H

#include "openks/Runtime/Checkpoint.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <unistd.h>
#include <vector>

namespace openks::runtime::testing {

namespace fs = std::filesystem;

/// The variables of the tests, whole: w [6, 2] f32, w.moment [6, 2] f64,
/// beta_pow [] f32 (replicated), counter [] i64 (per block).
constexpr int64_t kRows = 6;

/// Adds rows [begin, end) of `origin` (whole shape [kRows, 2]) as `name`.
inline void addRows(ParameterStore &store, const std::string &name,
                    const std::string &origin, DType dtype, int64_t begin,
                    int64_t end) {
  Parameter parameter;
  parameter.name = name;
  parameter.origin = origin;
  parameter.wholeShape = Shape{kRows, 2};
  parameter.rowBegin = begin;
  parameter.value = Tensor(dtype, Shape{end - begin, 2});
  store.add(std::move(parameter));
}

/// Adds a rank-0 parameter `name` standing for `origin`.
inline void addScalar(ParameterStore &store, const std::string &name,
                      const std::string &origin, DType dtype) {
  Parameter parameter;
  parameter.name = name;
  parameter.origin = origin;
  parameter.value = Tensor(dtype, Shape{});
  store.add(std::move(parameter));
}

/// Returns the stores of a layout cutting the rows at `cuts` (0 < ... <
/// kRows), one store per piece, as a transpiled job would name them.
inline std::vector<ParameterStore>
makeLayout(const std::vector<int64_t> &cuts) {
  std::vector<int64_t> bounds = {0};
  bounds.insert(bounds.end(), cuts.begin(), cuts.end());
  bounds.push_back(kRows);
  size_t pieces = bounds.size() - 1;
  std::vector<ParameterStore> stores(pieces);
  for (size_t i = 0; i < pieces; ++i) {
    std::string block = pieces == 1 ? "" : ".block" + std::to_string(i);
    addRows(stores[i], "w" + block, "w", DType::F32, bounds[i], bounds[i + 1]);
    addRows(stores[i], "w.moment" + block, "w.moment", DType::F64, bounds[i],
            bounds[i + 1]);
    addScalar(stores[i], "beta_pow", "beta_pow", DType::F32);
    addScalar(stores[i], "counter.w" + block, "counter", DType::I64);
  }
  return stores;
}

/// Sets every value as a function of its variable and row, as training
/// would have left it.
inline void fillValues(std::vector<ParameterStore> &stores, int64_t step) {
  for (ParameterStore &store : stores)
    for (ParameterId id = 0; id < store.size(); ++id) {
      Parameter &parameter = store[id];
      Tensor &value = parameter.value;
      for (int64_t i = 0; i < value.numel(); ++i) {
        double x = 0.5 * (parameter.rowBegin * 2 + i) + step;
        if (value.dtype() == DType::F32)
          value.data<float>()[i] = static_cast<float>(x);
        else if (value.dtype() == DType::F64)
          value.data<double>()[i] = x / 3;
        else
          value.data<int64_t>()[i] = step;
      }
      if (parameter.origin == "beta_pow")
        value.data<float>()[0] = 0.25f;
    }
}

template <typename T>
inline std::vector<const ParameterStore *>
constPointers(std::vector<T> &stores) {
  std::vector<const ParameterStore *> pointers;
  for (ParameterStore &store : stores)
    pointers.push_back(&store);
  return pointers;
}

template <typename T>
inline std::vector<ParameterStore *> pointers(std::vector<T> &stores) {
  std::vector<ParameterStore *> result;
  for (ParameterStore &store : stores)
    result.push_back(&store);
  return result;
}

/// Expects every parameter of `actual` to equal the same rows of the
/// parameter of the same origin in `expected` (another layout).
inline void expectSameValues(std::vector<ParameterStore> &expected,
                             std::vector<ParameterStore> &actual) {
  // Rebuild the whole variables of `expected` by hand.
  std::map<std::string, std::vector<char>> whole;
  for (ParameterStore &store : expected)
    for (ParameterId id = 0; id < store.size(); ++id) {
      const Parameter &parameter = store[id];
      size_t element = dtypeSize(parameter.value.dtype());
      std::vector<char> &bytes = whole[parameter.origin];
      bytes.resize(std::max<size_t>(bytes.size(),
                                    parameter.wholeShape.numel() * element));
      std::memcpy(bytes.data() + parameter.rowBegin * 2 * element,
                  parameter.value.rawData(), parameter.value.numel() * element);
    }
  for (ParameterStore &store : actual)
    for (ParameterId id = 0; id < store.size(); ++id) {
      const Parameter &parameter = store[id];
      size_t element = dtypeSize(parameter.value.dtype());
      const std::vector<char> &bytes = whole.at(parameter.origin);
      EXPECT_EQ(std::memcmp(bytes.data() + parameter.rowBegin * 2 * element,
                            parameter.value.rawData(),
                            parameter.value.numel() * element),
                0)
          << parameter.name;
    }
}

class CheckpointTest : public ::testing::Test {
protected:
  void SetUp() override {
    scratch_ = fs::temp_directory_path() /
               ("openks-checkpoint-test-" + std::to_string(getpid()));
    fs::remove_all(scratch_);
    fs::create_directories(scratch_);
    dir_ = (scratch_ / "ckpt").string();
  }
  void TearDown() override { fs::remove_all(scratch_); }

  /// Returns the names in the scratch directory, sorted.
  std::vector<std::string> listScratch() const {
    std::vector<std::string> names;
    for (const fs::directory_entry &entry : fs::directory_iterator(scratch_))
      names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
  }

  /// Saves a two-store layout at `step` into dir_.
  std::vector<ParameterStore> saveTwoStores(int64_t step) {
    std::vector<ParameterStore> saved = makeLayout({3});
    fillValues(saved, step);
    Status status = saveCheckpoint(dir_, constPointers(saved), "sync", step);
    EXPECT_TRUE(status.isOk()) << status.message();
    return saved;
  }

  /// Expects loading dir_ into a fresh two-store layout to fail with `code`
  /// and a message naming `file` and containing `what`.
  void expectLoadFails(StatusCode code, const std::string &file,
                       const std::string &what) {
    std::vector<ParameterStore> target = makeLayout({3});
    StatusOr<CheckpointInfo> loaded = loadCheckpoint(dir_, pointers(target));
    ASSERT_FALSE(loaded.isOk()) << "expected: " << what;
    EXPECT_EQ(loaded.status().code(), code) << loaded.status().message();
    EXPECT_NE(loaded.status().message().find(dir_ + "/" + file),
              std::string::npos)
        << loaded.status().message();
    EXPECT_NE(loaded.status().message().find(what), std::string::npos)
        << loaded.status().message();
  }

  fs::path scratch_;
  std::string dir_;
};

} // namespace openks::runtime::testing

#endif // OPENKS_TEST_UNIT_RUNTIME_CHECKPOINTTESTING_H
