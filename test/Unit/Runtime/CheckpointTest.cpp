//===- CheckpointTest.cpp - Tests of checkpoints over parameter stores ----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Saves variables sliced over two stores, with replicated and per-block
// state, and loads them into three stores and into one, checking every
// value; checks the manifest and the files against an independent reading;
// checks that a failed save (also one past the file size limit) leaves the
// previous checkpoint, that saving deletes nothing it did not write, and
// that a target it cannot write is refused before saving; and checks that
// missing, truncated, damaged or mismatched files, files that are not
// regular files (a FIFO would block the loader), malformed manifests with
// valid checksums, and optimizer state out of the range the optimizer
// needs are refused naming the file.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Checkpoint.h"

#include "openks/Runtime/TensorFile.h"
#include "openks/Support/Crc32c.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sys/resource.h>
#include <sys/stat.h>
#include <thread>
#include <tuple>
#include <unistd.h>

using namespace openks;
using namespace openks::runtime;
namespace fs = std::filesystem;

namespace {

/// The variables of the tests, whole: w [6, 2] f32, w.moment [6, 2] f64,
/// beta_pow [] f32 (replicated), counter [] i64 (per block).
constexpr int64_t kRows = 6;

/// Adds rows [begin, end) of `origin` (whole shape [kRows, 2]) as `name`.
void addRows(ParameterStore &store, const std::string &name,
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
void addScalar(ParameterStore &store, const std::string &name,
               const std::string &origin, DType dtype) {
  Parameter parameter;
  parameter.name = name;
  parameter.origin = origin;
  parameter.value = Tensor(dtype, Shape{});
  store.add(std::move(parameter));
}

/// Returns the stores of a layout cutting the rows at `cuts` (0 < ... <
/// kRows), one store per piece, as a transpiled job would name them.
std::vector<ParameterStore> makeLayout(const std::vector<int64_t> &cuts) {
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
void fillValues(std::vector<ParameterStore> &stores, int64_t step) {
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
std::vector<const ParameterStore *> constPointers(std::vector<T> &stores) {
  std::vector<const ParameterStore *> pointers;
  for (ParameterStore &store : stores)
    pointers.push_back(&store);
  return pointers;
}

template <typename T>
std::vector<ParameterStore *> pointers(std::vector<T> &stores) {
  std::vector<ParameterStore *> result;
  for (ParameterStore &store : stores)
    result.push_back(&store);
  return result;
}

/// Expects every parameter of `actual` to equal the same rows of the
/// parameter of the same origin in `expected` (another layout).
void expectSameValues(std::vector<ParameterStore> &expected,
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

TEST_F(CheckpointTest, LoadsIntoAnyLayout) {
  std::vector<ParameterStore> saved = saveTwoStores(7);
  for (const std::vector<int64_t> &cuts :
       {std::vector<int64_t>{2, 4}, std::vector<int64_t>{},
        std::vector<int64_t>{1, 2, 3, 5}}) {
    std::vector<ParameterStore> loaded = makeLayout(cuts);
    StatusOr<CheckpointInfo> info = loadCheckpoint(dir_, pointers(loaded));
    ASSERT_TRUE(info.isOk()) << info.status().message();
    EXPECT_EQ(info->step, 7);
    expectSameValues(saved, loaded);
  }
}

TEST_F(CheckpointTest, ReadsPaddlesDirectoriesWithoutAManifest) {
  // Paddle's save_persistables writes the variable files alone, sometimes
  // beside a __model__.
  std::vector<ParameterStore> saved = saveTwoStores(5);
  fs::remove(fs::path(dir_) / kCheckpointManifest);
  std::ofstream(fs::path(dir_) / "__model__") << "not a tensor";
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir_);
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->mode, "paddle");
  EXPECT_EQ(info->step, 0);
  std::vector<std::string> names;
  for (const CheckpointVariable &variable : info->variables)
    names.push_back(variable.name);
  EXPECT_EQ(names,
            std::vector<std::string>({"beta_pow", "counter", "w", "w.moment"}));
  std::vector<ParameterStore> loaded = makeLayout({1, 4});
  ASSERT_TRUE(loadCheckpoint(dir_, pointers(loaded)).isOk());
  expectSameValues(saved, loaded);

  // A file that is not a tensor is refused, naming it.
  std::ofstream(fs::path(dir_) / "notes.txt") << "hello";
  expectLoadFails(StatusCode::DataLoss, "notes.txt",
                  "read as Paddle's save_persistables output");
}

TEST_F(CheckpointTest, WritesOneFilePerVariableAndAManifest) {
  std::vector<ParameterStore> saved = saveTwoStores(3);
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir_);
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->formatVersion, 1);
  EXPECT_EQ(info->step, 3);
  EXPECT_EQ(info->mode, "sync");
  std::vector<std::string> names;
  for (const CheckpointVariable &variable : info->variables) {
    names.push_back(variable.name);
    std::ifstream in(fs::path(dir_) / variable.name, std::ios::binary);
    std::string bytes(std::istreambuf_iterator<char>(in), {});
    EXPECT_EQ(bytes.size(), variable.bytes);
    EXPECT_EQ(crc32c(bytes), variable.crc32c) << variable.name;
    StatusOr<TensorFileContents> file = decodeTensorFile(bytes, variable.name);
    ASSERT_TRUE(file.isOk()) << file.status().message();
    EXPECT_EQ(file->tensor.shape(), variable.shape);
    EXPECT_EQ(file->tensor.dtype(), variable.dtype);
  }
  // In name order, whatever the stores' order.
  EXPECT_EQ(names,
            (std::vector<std::string>{"beta_pow", "counter", "w", "w.moment"}));
  std::vector<std::string> files;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir_))
    files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"__manifest__", "beta_pow",
                                             "counter", "w", "w.moment"}));
  // The per-block counters became the one counter, of the first store.
  StatusOr<TensorFileContents> counter = decodeTensorFile(
      [&] {
        std::ifstream in(fs::path(dir_) / "counter", std::ios::binary);
        return std::string(std::istreambuf_iterator<char>(in), {});
      }(),
      "counter");
  ASSERT_TRUE(counter.isOk());
  EXPECT_EQ(counter->tensor.data<int64_t>()[0], 3);
}

TEST_F(CheckpointTest, ReadsOneWholeVariableOfAnyLayoutOrPaddles) {
  // Saved from two stores, read back whole, as openks-ckpt reads it.
  saveTwoStores(4);
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir_);
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_TRUE(info->hasManifest);
  // Sorted by name: beta_pow, counter, w, w.moment.
  const CheckpointVariable listedW = info->variables.at(2);
  ASSERT_EQ(listedW.name, "w");
  StatusOr<Tensor> w = readCheckpointVariable(dir_, listedW);
  ASSERT_TRUE(w.isOk()) << w.status().message();
  ASSERT_EQ(w->shape(), (Shape{kRows, 2}));
  for (int64_t i = 0; i < w->numel(); ++i)
    EXPECT_EQ(w->data<float>()[i], static_cast<float>(0.5 * i + 4)) << i;

  // The same file without the manifest is Paddle's, and reads the same.
  fs::remove(fs::path(dir_) / kCheckpointManifest);
  StatusOr<CheckpointInfo> paddle = readCheckpointInfo(dir_);
  ASSERT_TRUE(paddle.isOk()) << paddle.status().message();
  EXPECT_FALSE(paddle->hasManifest);
  ASSERT_EQ(paddle->variables.at(2).crc32c, listedW.crc32c);
  StatusOr<Tensor> paddleW = readCheckpointVariable(dir_, paddle->variables[2]);
  ASSERT_TRUE(paddleW.isOk()) << paddleW.status().message();
  EXPECT_EQ(std::memcmp(paddleW->rawData(), w->rawData(), w->numel() * 4), 0);

  // A file changed since it was listed is refused, naming it.
  fs::resize_file(fs::path(dir_) / "w", listedW.bytes - 3);
  StatusOr<Tensor> truncated = readCheckpointVariable(dir_, listedW);
  ASSERT_FALSE(truncated.isOk());
  EXPECT_EQ(truncated.status().code(), StatusCode::DataLoss);
  EXPECT_NE(truncated.status().message().find(dir_ + "/w: truncated"),
            std::string::npos)
      << truncated.status().message();
}

TEST_F(CheckpointTest, AFailedSaveLeavesThePreviousCheckpoint) {
  std::vector<ParameterStore> first = saveTwoStores(1);
  // A file size limit makes the write of the largest file fail after the
  // smaller files are written: a save that fails in the middle. SIGXFSZ
  // keeps its default action, which kills the process unless the save
  // turns it into an error.
  std::vector<ParameterStore> big(1);
  addRows(big[0], "a", "a", DType::F32, 0, kRows);
  Parameter large;
  large.name = "large";
  large.wholeShape = Shape{1 << 14};
  large.value = Tensor(DType::F64, large.wholeShape);
  big[0].add(std::move(large));
  struct rlimit previous;
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &previous), 0);
  struct rlimit limited = previous;
  limited.rlim_cur = 4096;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &limited), 0);
  Status failed = saveCheckpoint(dir_, constPointers(big), "sync", 2);
  setrlimit(RLIMIT_FSIZE, &previous);
  ASSERT_FALSE(failed.isOk());
  EXPECT_EQ(failed.code(), StatusCode::IOError);
  EXPECT_NE(failed.message().find("ckpt.saving-"), std::string::npos)
      << failed.message();
  EXPECT_NE(failed.message().find("/large: File too large"), std::string::npos)
      << failed.message();
  // The signal the write raised was discarded, not left pending.
  sigset_t pending;
  ASSERT_EQ(sigpending(&pending), 0);
  EXPECT_EQ(sigismember(&pending, SIGXFSZ), 0);

  std::vector<ParameterStore> loaded = makeLayout({2, 4});
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir_, pointers(loaded));
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->step, 1);
  expectSameValues(first, loaded);
  EXPECT_EQ(listScratch(), std::vector<std::string>{"ckpt"});
}

TEST_F(CheckpointTest, NeverDeletesWhatItDidNotWrite) {
  // What a user keeps under the names a save once used, or names like the
  // ones it uses now (a crash may have left the last one, but nothing proves
  // that it did): a save, a failed save and a replacing save leave them.
  fs::create_directory(dir_ + ".saving");
  std::ofstream(dir_ + ".saving/notes.txt") << "precious";
  std::ofstream(dir_ + ".saving-notes") << "precious";
  fs::create_directory(dir_ + ".saving-abcdefgh");
  std::ofstream(dir_ + ".saving-abcdefgh/w") << "precious";
  std::vector<std::string> before = listScratch();
  std::vector<ParameterStore> first = saveTwoStores(1);
  std::vector<ParameterStore> refused = makeLayout({3});
  refused.pop_back();
  EXPECT_FALSE(saveCheckpoint(dir_, constPointers(refused), "sync", 2).isOk());
  std::vector<ParameterStore> second = saveTwoStores(3);
  before.insert(before.begin(), "ckpt");
  EXPECT_EQ(listScratch(), before);
  for (const char *file :
       {".saving/notes.txt", ".saving-notes", ".saving-abcdefgh/w"}) {
    std::ifstream in(dir_ + file);
    EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "precious")
        << file;
  }
  std::vector<ParameterStore> loaded = makeLayout({2});
  StatusOr<CheckpointInfo> info = loadCheckpoint(dir_, pointers(loaded));
  ASSERT_TRUE(info.isOk()) << info.status().message();
  EXPECT_EQ(info->step, 3);
  expectSameValues(second, loaded);
}

TEST_F(CheckpointTest, ReplacesOnlyACheckpointOrAnEmptyDirectory) {
  // A directory of other files and a file are refused and left whole.
  fs::create_directory(dir_);
  std::ofstream(dir_ + "/notes.txt") << "precious";
  std::ofstream(dir_ + "/" + kCheckpointManifest) << "not ours";
  std::string file = (scratch_ / "file").string();
  std::ofstream(file) << "precious";
  std::vector<ParameterStore> stores = makeLayout({3});
  for (const auto &[target, message] :
       {std::pair<std::string, std::string>{dir_, "holds files but no "
                                                  "checkpoint"},
        {file + "/", "exists and is not a directory"}}) {
    Status refused = saveCheckpoint(target, constPointers(stores), "sync", 1);
    ASSERT_FALSE(refused.isOk()) << target;
    EXPECT_EQ(refused.code(), StatusCode::InvalidArgument);
    EXPECT_NE(refused.message().find(message), std::string::npos)
        << refused.message();
  }
  EXPECT_TRUE(fs::exists(dir_ + "/notes.txt"));
  EXPECT_EQ(fs::file_size(file), 8u);

  // An empty directory, then the checkpoint saved in it, are replaced.
  fs::remove_all(dir_);
  fs::create_directory(dir_);
  EXPECT_TRUE(checkCheckpointTarget(dir_).isOk());
  saveTwoStores(1);
  saveTwoStores(2);
  EXPECT_EQ(readCheckpointInfo(dir_)->step, 2);
}

TEST_F(CheckpointTest, ChecksThatTheTargetCanBeWrittenLeavingNothing) {
  std::string file = (scratch_ / "file").string();
  std::ofstream(file) << "precious";
  saveTwoStores(1);
  std::vector<std::string> before = listScratch();
  // Paths that no save can create, refused before any training.
  for (const std::string &target : {file + "/ckpt", file + "/a/b/ckpt"}) {
    Status refused = checkCheckpointTarget(target);
    EXPECT_EQ(refused.code(), StatusCode::InvalidArgument) << target;
    EXPECT_EQ(refused.message(), "cannot save a checkpoint to " + target +
                                     ": " + file + " is not a directory");
  }
  std::string proc = "/proc/openks-checkpoint-test/ckpt";
  Status refused = checkCheckpointTarget(proc);
  EXPECT_EQ(refused.code(), StatusCode::IOError);
  EXPECT_NE(refused.message().find("cannot save a checkpoint to " + proc +
                                   ": cannot create a directory "
                                   "/proc/openks-checkpoint-test.saving-"),
            std::string::npos)
      << refused.message();
  // Targets a save may write: new (with missing parents), or a checkpoint.
  for (const fs::path &target : {scratch_ / "new" / "deeper" / "ckpt",
                                 scratch_ / "new", fs::path(dir_)}) {
    Status status = checkCheckpointTarget(target.string());
    EXPECT_TRUE(status.isOk()) << status.message();
  }
  EXPECT_EQ(listScratch(), before);
  std::vector<ParameterStore> stores = makeLayout({3});
  EXPECT_FALSE(
      saveCheckpoint(file + "/ckpt", constPointers(stores), "sync", 2).isOk());
  EXPECT_EQ(fs::file_size(file), 8u);
}

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

TEST_F(CheckpointTest, SavesWhileAWriterUpdatesTheBlocks) {
  // A writer keeps replacing each block of `w` with a constant, under the
  // block's lock, as an asynchronous server applies updates: every saved
  // block is one whole write, never a torn one (and ThreadSanitizer sees
  // no race: saving reads even the shape under the lock).
  std::vector<ParameterStore> stores = makeLayout({3});
  std::atomic<bool> stop{false};
  std::thread writer([&] {
    for (float value = 1; !stop.load(); ++value)
      for (size_t block = 0; block < stores.size(); ++block) {
        ParameterStore &store = stores[block];
        ParameterId id = *store.lookup("w.block" + std::to_string(block));
        Tensor next(DType::F32, store[id].value.shape());
        std::fill_n(next.data<float>(), next.numel(), value);
        std::unique_lock<std::shared_mutex> lock(store.mutex(id));
        store[id].value.copyFrom(next);
      }
  });
  for (int save = 0; save < 20; ++save) {
    Status status = saveCheckpoint(dir_, constPointers(stores), "async", save);
    ASSERT_TRUE(status.isOk()) << status.message();
    std::vector<ParameterStore> loaded = makeLayout({3});
    ASSERT_TRUE(loadCheckpoint(dir_, pointers(loaded)).isOk());
    for (size_t index = 0; index < loaded.size(); ++index) {
      ParameterStore &store = loaded[index];
      const Tensor &block =
          store[*store.lookup("w.block" + std::to_string(index))].value;
      for (int64_t i = 1; i < block.numel(); ++i)
        ASSERT_EQ(block.data<float>()[i], block.data<float>()[0]) << save;
    }
  }
  stop = true;
  writer.join();
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

TEST_F(CheckpointTest, StoresListedFirstWinAndASelectionSavesOnlyIt) {
  // The servers' blocks, then a worker's stale whole copy of `w` and a
  // frozen variable only the worker holds.
  std::vector<ParameterStore> stores = makeLayout({3});
  fillValues(stores, 5);
  std::vector<ParameterStore> worker(1);
  addRows(worker[0], "w", "w", DType::F32, 0, kRows);
  addRows(worker[0], "frozen", "frozen", DType::F32, 0, kRows);
  fillValues(worker, 4);
  stores.push_back(std::move(worker[0]));
  Status status =
      saveCheckpoint(dir_, constPointers(stores), "sync", 5, {"frozen", "w"});
  ASSERT_TRUE(status.isOk()) << status.message();
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir_);
  ASSERT_TRUE(info.isOk()) << info.status().message();
  ASSERT_EQ(info->variables.size(), 2u);
  EXPECT_EQ(info->variables[0].name, "frozen");
  EXPECT_EQ(info->variables[1].name, "w");
  EXPECT_FALSE(fs::exists(dir_ + "/w.moment"));

  // `w` comes from the servers' blocks (step 5), not the worker (step 4).
  std::vector<ParameterStore> loaded(1);
  addRows(loaded[0], "w", "w", DType::F32, 0, kRows);
  addRows(loaded[0], "frozen", "frozen", DType::F32, 0, kRows);
  ASSERT_TRUE(loadCheckpoint(dir_, pointers(loaded)).isOk());
  for (int64_t i = 0; i < 2 * kRows; ++i) {
    EXPECT_EQ(loaded[0][0].value.data<float>()[i], 0.5f * i + 5) << i;
    EXPECT_EQ(loaded[0][1].value.data<float>()[i], 0.5f * i + 4) << i;
  }

  for (const auto &[selection, message] :
       {std::pair<std::vector<std::string>, std::string>{
            {"w", "missing"}, "'missing': none of the stores holds it"},
        {{"w", "w"}, "'w' twice"}}) {
    Status refused =
        saveCheckpoint(dir_, constPointers(stores), "sync", 6, selection);
    ASSERT_FALSE(refused.isOk());
    EXPECT_NE(refused.message().find(message), std::string::npos)
        << refused.message();
    EXPECT_EQ(readCheckpointInfo(dir_)->step, 5) << "the old one is kept";
  }
}

TEST_F(CheckpointTest, KeepsOtherFilesCheckedByTheManifest) {
  std::vector<ParameterStore> stores = makeLayout({3});
  fillValues(stores, 2);
  std::vector<CheckpointFile> files = {{"entities.tsv", "0\tparis\n1\trome\n"},
                                       {"relations.tsv", "0\tcapital_of\n"}};
  Status status =
      saveCheckpoint(dir_, constPointers(stores), "local", 2, {}, files);
  ASSERT_TRUE(status.isOk()) << status.message();
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir_);
  ASSERT_TRUE(info.isOk()) << info.status().message();
  ASSERT_EQ(info->files.size(), 2u);
  for (size_t i = 0; i < files.size(); ++i) {
    EXPECT_EQ(info->files[i].name, files[i].name);
    EXPECT_EQ(info->files[i].bytes, files[i].contents.size());
    EXPECT_EQ(info->files[i].crc32c, crc32c(files[i].contents));
    StatusOr<std::string> contents = readCheckpointFile(dir_, info->files[i]);
    ASSERT_TRUE(contents.isOk()) << contents.status().message();
    EXPECT_EQ(*contents, files[i].contents);
  }
  // Loading ignores them.
  std::vector<ParameterStore> loaded = makeLayout({});
  ASSERT_TRUE(loadCheckpoint(dir_, pointers(loaded)).isOk());
  expectSameValues(stores, loaded);

  // Triples of names are numbered by them; other data and data that
  // numbers its names otherwise are left alone.
  StatusOr<std::string> spec = useCheckpointIdMaps("triples:test.txt", dir_);
  ASSERT_TRUE(spec.isOk()) << spec.status().message();
  EXPECT_EQ(*spec, "triples:test.txt,maps=" + dir_);
  for (const std::string &other :
       {std::string("csv:test.csv"), std::string("triples:t.txt,ids=integers"),
        std::string("triples:t.txt, maps=elsewhere"),
        std::string("triples:t.txt,format=openke")})
    EXPECT_EQ(*useCheckpointIdMaps(other, dir_), other);

  // A changed file is damaged; a name used twice is refused.
  std::ofstream(dir_ + "/entities.tsv") << "0\tparis\n1\tberlin\n";
  StatusOr<std::string> damaged = readCheckpointFile(dir_, info->files[0]);
  ASSERT_FALSE(damaged.isOk());
  EXPECT_NE(damaged.status().message().find("entities.tsv: damaged"),
            std::string::npos)
      << damaged.status().message();
  EXPECT_FALSE(useCheckpointIdMaps("triples:test.txt", dir_).isOk());
  // A variable's name, and one file's name twice.
  for (const std::string &name : {std::string("w"), std::string("x.tsv")}) {
    Status refused = saveCheckpoint(dir_, constPointers(stores), "local", 3, {},
                                    {{name, "a"}, {"x.tsv", "b"}});
    ASSERT_FALSE(refused.isOk()) << name;
    EXPECT_NE(refused.message().find("a variable or a file of that name"),
              std::string::npos)
        << refused.message();
  }
  EXPECT_EQ(readCheckpointInfo(dir_)->step, 2) << "the old one is kept";
}

} // namespace
