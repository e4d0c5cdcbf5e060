//===- CheckpointRefusalTest.cpp - What loading a checkpoint refuses ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks that missing, truncated, damaged or mismatched files, files that
// are not regular files (a FIFO would block the loader), malformed manifests
// with valid checksums, optimizer state out of the range the optimizer
// needs, variables that are not the job's and a header that would not read
// back are refused, naming the file; and that a save refuses rows no store
// holds.
//
//===----------------------------------------------------------------------===//

#include "Runtime/CheckpointTesting.h"

#include "openks/Runtime/TensorFile.h"
#include "openks/Support/Crc32c.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cmath>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <thread>
#include <tuple>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

/// A FIFO at `path` whose writing end is opened (and closed) as soon as a
/// reader waits on it, so that a reader that should have refused it gets
/// an empty file instead of waiting forever; opened() tells whether one
/// did.
class WatchedFifo {
public:
  explicit WatchedFifo(const fs::path &path) : path_(path.string()) {
    EXPECT_EQ(::mkfifo(path_.c_str(), 0644), 0) << std::strerror(errno);
    watcher_ = std::thread([this] {
      while (!stop_.load()) {
        // Without a reader this fails with ENXIO at once.
        int fd = ::open(path_.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
        if (fd >= 0) {
          opened_ = true;
          ::close(fd);
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      }
    });
  }
  ~WatchedFifo() {
    stop_ = true;
    watcher_.join();
  }
  bool opened() const { return opened_.load(); }

private:
  std::string path_;
  std::atomic<bool> stop_{false}, opened_{false};
  std::thread watcher_;
};

TEST_F(CheckpointTest, RefusesFilesThatAreNotRegular) {
  saveTwoStores(5);
  fs::path w = fs::path(dir_) / "w", saved = scratch_ / "w";
  fs::rename(w, saved);
  {
    WatchedFifo fifo(w);
    expectLoadFails(StatusCode::InvalidArgument, "w",
                    "cannot read it: it is a FIFO, not a regular file");
    EXPECT_FALSE(fifo.opened());
  }
  fs::remove(w);
  // Through a symbolic link, too.
  {
    WatchedFifo fifo(scratch_ / "fifo");
    fs::create_symlink(scratch_ / "fifo", w);
    expectLoadFails(StatusCode::InvalidArgument, "w",
                    "cannot read it: it is a FIFO, not a regular file");
    EXPECT_FALSE(fifo.opened());
  }
  fs::remove(w);
  fs::remove(scratch_ / "fifo");
  fs::create_symlink("/dev/zero", w);
  expectLoadFails(StatusCode::InvalidArgument, "w",
                  "it is a character device, not a regular file");
  fs::remove(w);
  fs::create_directory(w);
  expectLoadFails(StatusCode::InvalidArgument, "w",
                  "it is a directory, not a regular file");
  fs::remove(w);
  fs::rename(saved, w);

  // The manifest, when loading and when a save checks what it replaces.
  fs::path manifest = fs::path(dir_) / kCheckpointManifest;
  fs::remove(manifest);
  {
    WatchedFifo fifo(manifest);
    expectLoadFails(StatusCode::InvalidArgument, kCheckpointManifest,
                    "it is a FIFO, not a regular file");
    Status refused = checkCheckpointTarget(dir_);
    EXPECT_NE(refused.message().find("holds files but no checkpoint"),
              std::string::npos)
        << refused.message();
    EXPECT_FALSE(fifo.opened());
  }
}

/// Returns the manifest of the checkpoint `dir` up to its checksum line.
std::string readManifestBody(const std::string &dir) {
  std::ifstream in(fs::path(dir) / kCheckpointManifest, std::ios::binary);
  std::string text(std::istreambuf_iterator<char>(in), {});
  return text.substr(0, text.rfind("manifest-crc32c\t"));
}

/// Writes `body` as the manifest of the checkpoint `dir`, with the checksum
/// line a save writes after it, so that only its contents are wrong.
void writeManifest(const std::string &dir, const std::string &body) {
  std::ofstream(fs::path(dir) / kCheckpointManifest,
                std::ios::binary | std::ios::trunc)
      << body << fmt::format("manifest-crc32c\t{:08x}\n", crc32c(body));
}

TEST_F(CheckpointTest, RefusesMalformedManifestsWithValidChecksums) {
  saveTwoStores(5);
  const std::string body = readManifestBody(dir_);
  std::string wLine = body.substr(body.find("variable\tw\t"));
  wLine = wLine.substr(0, wLine.find('\n') + 1);
  std::vector<std::string> wFields;
  for (size_t begin = 0, end; begin < wLine.size(); begin = end + 1)
    wFields.push_back(wLine.substr(
        begin, (end = wLine.find_first_of("\t\n", begin)) - begin));
  ASSERT_EQ(wFields.size(), 6u);
  // The line of `w` in the manifest, counted from 1.
  int wAt = 1 + static_cast<int>(std::count(
                    body.begin(), body.begin() + body.find(wLine), '\n'));
  ASSERT_EQ(wFields[3], "6,2");
  // `w` with its field `index` replaced by `value`.
  auto w = [&](size_t index, const std::string &value) {
    std::vector<std::string> fields = wFields;
    fields[index] = value;
    return fmt::format("{}\n", fmt::join(fields, "\t"));
  };
  struct Case {
    std::string from, to;
    /// The line of the error and what it says.
    int line;
    std::string what;
  };
  std::string dims = "variable 'w': malformed dims ";
  std::vector<Case> cases = {
      {wLine, wLine + wLine, wAt + 1,
       fmt::format("variable 'w' is listed twice, also on line {}", wAt)},
      {wLine, w(3, "6,2,"), wAt, dims + "'6,2,': expected sizes separated"},
      {wLine, w(3, ",6,2"), wAt, dims + "',6,2'"},
      {wLine, w(3, "6,,2"), wAt, dims + "'6,,2'"},
      {wLine, w(3, "+6,2"), wAt, dims + "'+6,2'"},
      {wLine, w(3, "-6,2"), wAt, dims + "'-6,2'"},
      {wLine, w(3, "06,2"), wAt, dims + "'06,2'"},
      {wLine, w(3, "6, 2"), wAt, dims + "'6, 2'"},
      {wLine, w(3, "0x6,2"), wAt, dims + "'0x6,2'"},
      {wLine, w(3, "99999999999999999999,2"), wAt,
       dims + "'99999999999999999999,2'"},
      {wLine, w(3, "1099511627777,2"), wAt, dims + "'1099511627777,2'"},
      {wLine, w(3, "1048576,1048577"), wAt,
       dims + "'1048576,1048577': expected at most 1099511627776 elements"},
      {wLine, w(3, "1,1,1,1,1,1,1"), wAt,
       dims + "'1,1,1,1,1,1,1': expected at most 6 dims"},
      {wLine, w(2, "f16"), wAt,
       "variable 'w': malformed element type 'f16': expected f32, f64 or i64"},
      {wLine, w(4, "0" + wFields[4]), wAt, "variable 'w': malformed byte size"},
      {wLine, w(4, "+" + wFields[4]), wAt, "variable 'w': malformed byte size"},
      {wLine, w(4, "99999999999999999999"), wAt,
       "variable 'w': malformed byte size '99999999999999999999'"},
      {wLine, w(5, "ABCDEF01"), wAt,
       "variable 'w': malformed CRC-32C 'ABCDEF01': expected 8 lower-case "
       "hex digits"},
      {wLine, w(5, "-1234567"), wAt, "variable 'w': malformed CRC-32C"},
      {wLine, wLine.substr(0, wLine.size() - 1) + "\t\n", wAt,
       "expected 'variable<TAB>NAME"},
      {"step\t5\n", "step\t-5\n", 2, "malformed step '-5'"},
      {"step\t5\n", "step\t+5\n", 2, "malformed step '+5'"},
      {"step\t5\n", "step\t05\n", 2, "malformed step '05'"},
      {"step\t5\n", "step\t99999999999999999999\n", 2,
       "malformed step '99999999999999999999'"},
      {"step\t5\n", "step\t5\t\n", 2, "unexpected line 'step\t5\t'"},
      {"openks-checkpoint\t1\n", "openks-checkpoint\t01\n", 1,
       "expected 'openks-checkpoint<TAB>VERSION'"},
      {"mode\tsync\n", "mode\t\n", 3, "the mode is empty"},
  };
  for (const Case &crafted : cases) {
    std::string edited = body;
    size_t at = edited.find(crafted.from);
    ASSERT_NE(at, std::string::npos) << crafted.from;
    edited.replace(at, crafted.from.size(), crafted.to);
    writeManifest(dir_, edited);
    expectLoadFails(StatusCode::DataLoss,
                    fmt::format("{}:{}: damaged manifest: ",
                                kCheckpointManifest, crafted.line),
                    crafted.what);
  }
  // The helper writes what the loader takes when nothing is wrong.
  writeManifest(dir_, body);
  std::vector<ParameterStore> loaded = makeLayout({3});
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir_, pointers(loaded));
  EXPECT_TRUE(info.isOk()) << info.status().message();
}

TEST_F(CheckpointTest, RefusesOptimizerStateTheOptimizerCannotUse) {
  // Variables named as openks-append-optimizer names them, saved with
  // values no training leaves in them (saving checks no values, so the
  // checkpoint's checksums are valid).
  struct Case {
    /// The variables of the job; the first holds `value` at element 1 (or
    /// 0, for a scalar).
    std::vector<std::string> names;
    DType dtype;
    double value;
    /// What loading says, or "" when it loads.
    std::string what;
  };
  double nan = std::nan(""), inf = INFINITY;
  std::vector<Case> cases = {
      {{"learning_rate"},
       DType::F32,
       -0.1,
       "must be positive and finite, "
       "but element 0 is -0.1"},
      {{"learning_rate"}, DType::F64, 0, "must be positive and finite"},
      {{"learning_rate"}, DType::F32, nan, "but element 0 is nan"},
      {{"learning_rate"}, DType::F64, inf, "but element 0 is inf"},
      {{"@LR_DECAY_COUNTER@"},
       DType::I64,
       -1,
       "must be non-negative and "
       "finite, but element 0 is -1"},
      {{"fc.w.beta1_pow"},
       DType::F32,
       1,
       "must be in [0, 1), but element 0 "
       "is 1"},
      {{"fc.w.beta2_pow"}, DType::F64, -0.5, "must be in [0, 1)"},
      {{"fc.w.moment2", "fc.w.moment1"},
       DType::F32,
       -2,
       "must be non-negative and finite, but element 1 is -2"},
      {{"fc.w.mean_square", "fc.w.moment"},
       DType::F32,
       -2,
       "must be non-negative"},
      {{"fc.w.squared"}, DType::F64, -2, "must be non-negative"},
      {{"fc.w.inf_norm", "fc.w.moment"},
       DType::F32,
       nan,
       "must be non-negative"},
      // Adagrad's moment sums squares; RMSProp's and Adamax's need not.
      {{"fc.w.moment"}, DType::F32, -2, "must be non-negative"},
      {{"fc.w.moment", "fc.w.mean_square"}, DType::F32, -2, ""},
      {{"fc.w.moment", "fc.w.inf_norm"}, DType::F32, -2, ""},
      {{"fc.w.velocity"}, DType::F32, -2, ""},
      {{"fc.w.moment1"}, DType::F64, -inf, ""},
      {{"learning_rate"}, DType::F32, 0.5, ""},
      {{"@LR_DECAY_COUNTER@"}, DType::I64, 0, ""},
      {{"fc.w.beta1_pow"}, DType::F64, 0, ""},
  };
  for (const Case &crafted : cases) {
    SCOPED_TRACE(crafted.names.front());
    // The scalars are rank 0; the rest [kRows, 2].
    auto isScalar = [](const std::string &name) {
      return name == "learning_rate" || name == "@LR_DECAY_COUNTER@" ||
             name.find("_pow") != std::string::npos;
    };
    auto makeStore = [&] {
      std::vector<ParameterStore> stores(1);
      for (const std::string &name : crafted.names)
        if (isScalar(name))
          addScalar(stores[0], name, name, crafted.dtype);
        else
          addRows(stores[0], name, name, crafted.dtype, 0, kRows);
      return stores;
    };
    std::vector<ParameterStore> saved = makeStore();
    Tensor &value = saved[0][0].value;
    int64_t index = value.numel() > 1 ? 1 : 0;
    if (crafted.dtype == DType::F32)
      value.data<float>()[index] = static_cast<float>(crafted.value);
    else if (crafted.dtype == DType::F64)
      value.data<double>()[index] = crafted.value;
    else
      value.data<int64_t>()[index] = static_cast<int64_t>(crafted.value);
    Status status = saveCheckpoint(dir_, constPointers(saved), "sync", 1);
    ASSERT_TRUE(status.isOk()) << status.message();
    std::vector<ParameterStore> loaded = makeStore();
    StatusOr<CheckpointInfo> info = loadCheckpoint(dir_, pointers(loaded));
    if (crafted.what.empty()) {
      EXPECT_TRUE(info.isOk()) << info.status().message();
      continue;
    }
    EXPECT_FALSE(info.isOk()) << "loaded: " << crafted.what;
    if (info.isOk())
      continue;
    EXPECT_EQ(info.status().code(), StatusCode::DataLoss);
    std::string expected = fmt::format(
        "{}/{}: '{}' ", dir_, crafted.names.front(), crafted.names.front());
    EXPECT_EQ(info.status().message().rfind(expected, 0), 0u)
        << info.status().message();
    EXPECT_NE(info.status().message().find(crafted.what), std::string::npos)
        << info.status().message();
  }
}

TEST_F(CheckpointTest, RefusesAHeaderThatWouldNotReadBack) {
  std::vector<ParameterStore> stores = makeLayout({3});
  for (const auto &[mode, step, what] :
       {std::tuple<std::string, int64_t, std::string>{
            "sync", -1, "cannot save a checkpoint of step -1"},
        {"", 1, "cannot save a checkpoint of mode ''"},
        {"sync\nstep\t9", 1, "a mode is a word without tabs or line breaks"},
        {"a\tb", 1, "a mode is a word"}}) {
    Status refused = saveCheckpoint(dir_, constPointers(stores), mode, step);
    EXPECT_EQ(refused.code(), StatusCode::InvalidArgument);
    EXPECT_NE(refused.message().find(what), std::string::npos)
        << refused.message();
  }
  EXPECT_EQ(listScratch(), std::vector<std::string>{});
}

TEST_F(CheckpointTest, RefusesMissingTruncatedAndDamagedFiles) {
  saveTwoStores(5);
  fs::path w = fs::path(dir_) / "w";
  std::string original;
  {
    std::ifstream in(w, std::ios::binary);
    original.assign(std::istreambuf_iterator<char>(in), {});
  }
  fs::resize_file(w, original.size() - 3);
  expectLoadFails(StatusCode::DataLoss, "w", "truncated");

  std::string flipped = original;
  flipped.back() ^= 1;
  std::ofstream(w, std::ios::binary | std::ios::trunc) << flipped;
  expectLoadFails(StatusCode::DataLoss, "w", "CRC-32C");

  fs::remove(w);
  expectLoadFails(StatusCode::NotFound, "w", "cannot open");
  std::ofstream(w, std::ios::binary | std::ios::trunc) << original;

  fs::path manifest = fs::path(dir_) / kCheckpointManifest;
  std::string text;
  {
    std::ifstream in(manifest, std::ios::binary);
    text.assign(std::istreambuf_iterator<char>(in), {});
  }
  std::string edited = text;
  edited[edited.find("step\t5") + 5] = '6';
  std::ofstream(manifest, std::ios::binary | std::ios::trunc) << edited;
  expectLoadFails(StatusCode::DataLoss, kCheckpointManifest, "checksum");
  std::ofstream(manifest, std::ios::binary | std::ios::trunc)
      << text.substr(0, text.size() / 2);
  expectLoadFails(StatusCode::DataLoss, kCheckpointManifest, "truncated");
  // No directory at all (without a manifest, a directory is Paddle's).
  fs::remove_all(dir_);
  expectLoadFails(StatusCode::NotFound, kCheckpointManifest, "cannot open");
}

TEST_F(CheckpointTest, RefusesVariablesThatAreNotTheJobs) {
  saveTwoStores(5);
  std::vector<ParameterStore> wider(1);
  Parameter parameter;
  parameter.name = "w";
  parameter.wholeShape = Shape{kRows, 3};
  parameter.value = Tensor(DType::F32, Shape{kRows, 3});
  wider[0].add(std::move(parameter));
  StatusOr<CheckpointInfo> loaded = loadCheckpoint(dir_, pointers(wider));
  ASSERT_FALSE(loaded.isOk());
  EXPECT_EQ(loaded.status().message(),
            dir_ + "/w: holds f32 [6, 2], but the job's 'w' is f32 [6, 3]");

  std::vector<ParameterStore> other(1);
  addScalar(other[0], "bias", "bias", DType::F32);
  loaded = loadCheckpoint(dir_, pointers(other));
  ASSERT_FALSE(loaded.isOk());
  EXPECT_EQ(loaded.status().code(), StatusCode::NotFound);
  EXPECT_NE(loaded.status().message().find(dir_ + "/bias: missing"),
            std::string::npos)
      << loaded.status().message();
}

TEST_F(CheckpointTest, RefusesRowsNoStoreHolds) {
  std::vector<ParameterStore> partial = makeLayout({3});
  partial.pop_back();
  Status status = saveCheckpoint(dir_, constPointers(partial), "sync", 1);
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("rows [3, 6) of it are in none of the "
                                  "stores"),
            std::string::npos)
      << status.message();
  EXPECT_FALSE(fs::exists(dir_));
}

} // namespace
