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
// previous checkpoint, that saving deletes nothing it did not write, that a
// target it cannot write is refused before saving, that a save while a
// writer updates the blocks takes whole writes, which store wins when two
// hold a variable, and the other files a manifest checks. What loading
// refuses is in CheckpointRefusalTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "Runtime/CheckpointTesting.h"

#include "openks/Runtime/TensorFile.h"
#include "openks/Support/Crc32c.h"

#include "gtest/gtest.h"

#include <atomic>
#include <csignal>
#include <fstream>
#include <sys/resource.h>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

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
