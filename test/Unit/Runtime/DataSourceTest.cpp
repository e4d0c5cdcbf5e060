//===- DataSourceTest.cpp - Tests of the data sources ---------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Parsing of csv (with id lists), libsvm and triples files, error messages,
// specs and layouts, sharding, wrap-around, negative sampling, and the
// synthetic generator's determinism.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/DataSource.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>

using namespace openks;
using namespace openks::runtime;

namespace {

const FeedSpec kFeatures2{DType::F32, Shape{-1, 2}};
const FeedSpec kFeatures3{DType::F32, Shape{-1, 3}};
const FeedSpec kIds2{DType::I64, Shape{-1, 2}};
const FeedSpec kIds3{DType::I64, Shape{-1, 3}};
const FeedSpec kValues3{DType::F64, Shape{-1, 3}};
const FeedSpec kClassLabels{DType::I64, Shape{-1}};
const FeedSpec kBinaryLabels{DType::F32, Shape{-1, 1}};

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
std::vector<double> elements(const Tensor &tensor) {
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
std::unique_ptr<DataSource> open(const std::string &spec,
                                 const std::vector<FeedSpec> &specs,
                                 Shard shard = {}) {
  std::unique_ptr<DataSource> source;
  Status status = openDataSource(spec, specs, shard, source);
  EXPECT_TRUE(status.isOk()) << status.message();
  return source;
}

/// Opens `spec`, expecting failure, and returns the message.
std::string openError(const std::string &spec,
                      const std::vector<FeedSpec> &specs, Shard shard = {}) {
  std::unique_ptr<DataSource> source;
  Status status = openDataSource(spec, specs, shard, source);
  EXPECT_FALSE(status.isOk()) << spec;
  return status.message();
}

/// Reads the next batch into `feeds` and returns every feed's elements.
std::vector<std::vector<double>> nextBatch(DataSource &source, Feeds &feeds,
                                           int64_t globalBatch) {
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

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

TEST_F(DataSourceTest, CsvClassLabels) {
  std::string path = write("data.csv", "# x1,x2,x3,label\n"
                                       "1,2,3,0\n"
                                       " 4.5 , -5e-1 ,+6, 2\r\n"
                                       "\n"
                                       "   # indented comment\n"
                                       "7,8,9,1.0\n");
  std::vector<FeedSpec> specs = {kFeatures3, kClassLabels};
  std::unique_ptr<DataSource> source = open("csv:" + path, specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 3);
  EXPECT_EQ(feeds.tensors[0].shape(), Shape({3, 3}));
  EXPECT_EQ(feeds.tensors[1].shape(), Shape({3}));
  EXPECT_EQ(batch[0], std::vector<double>({1, 2, 3, 4.5, -0.5, 6, 7, 8, 9}));
  EXPECT_EQ(batch[1], std::vector<double>({0, 2, 1}));
  EXPECT_EQ(source->epoch(), 1);
}

TEST_F(DataSourceTest, CsvBinaryLabels) {
  std::string path = write("data.csv", "0.5,1,1\n-1,0,0\n");
  std::vector<FeedSpec> specs = {{DType::F64, Shape{-1, 2}}, kBinaryLabels};
  std::unique_ptr<DataSource> source = open("csv:" + path, specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 2);
  EXPECT_EQ(feeds.tensors[1].shape(), Shape({2, 1}));
  EXPECT_EQ(batch[0], std::vector<double>({0.5, 1, -1, 0}));
  EXPECT_EQ(batch[1], std::vector<double>({1, 0}));
}

TEST_F(DataSourceTest, LibsvmIdsValuesAndPadding) {
  std::string path = write("data.svm", "1 3:0.5 7:2\n"
                                       "0\n"
                                       "# comment\n"
                                       "2\t1:1  2:1 9:-1\n");
  std::vector<FeedSpec> specs = {kIds3, kValues3, kClassLabels};
  std::unique_ptr<DataSource> source = open("libsvm:" + path, specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 3);
  EXPECT_EQ(feeds.tensors[0].shape(), Shape({3, 3}));
  EXPECT_EQ(feeds.tensors[1].shape(), Shape({3, 3}));
  EXPECT_EQ(batch[0], std::vector<double>({3, 7, 0, 0, 0, 0, 1, 2, 9}));
  EXPECT_EQ(batch[1], std::vector<double>({0.5, 2, 0, 0, 0, 0, 1, 1, -1}));
  EXPECT_EQ(batch[2], std::vector<double>({1, 0, 2}));
}

TEST_F(DataSourceTest, LibsvmIdsOnlyWithBinaryLabels) {
  std::string path = write("data.svm", "+1 5:1\n0 2:1 4:0.5\n");
  std::vector<FeedSpec> specs = {kIds2, kBinaryLabels};
  std::unique_ptr<DataSource> source = open("libsvm:" + path, specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 2);
  EXPECT_EQ(batch[0], std::vector<double>({5, 0, 2, 4}));
  EXPECT_EQ(batch[1], std::vector<double>({1, 0}));
}

TEST_F(DataSourceTest, PathMayContainColons) {
  std::string path = write("a:b.csv", "1,2,0\n");
  std::vector<FeedSpec> specs = {kFeatures2, kClassLabels};
  std::unique_ptr<DataSource> source = open("csv:" + path, specs);
  Feeds feeds(specs);
  EXPECT_EQ(nextBatch(*source, feeds, 1)[0], std::vector<double>({1, 2}));
}

//===----------------------------------------------------------------------===//
// Malformed files
//===----------------------------------------------------------------------===//

/// A malformed file and the message it must produce after "PATH:".
struct Malformed {
  const char *kind;
  std::vector<FeedSpec> specs;
  const char *contents;
  const char *message;
};

TEST_F(DataSourceTest, MalformedRowsNameFileAndLine) {
  std::vector<FeedSpec> csvClasses = {kFeatures2, kClassLabels};
  std::vector<FeedSpec> csvBinary = {kFeatures2, kBinaryLabels};
  std::vector<FeedSpec> svm = {kIds2, kValues3, kClassLabels};
  svm[1].shape[1] = 2;
  const Malformed cases[] = {
      {"csv", csvClasses, "1,2,0\n1,2\n",
       "2: expected 3 comma-separated numbers (2 features, then the label), "
       "got 2"},
      {"csv", csvClasses, "1,2,0\n1,2,3,4\n",
       "2: expected 3 comma-separated numbers (2 features, then the label), "
       "got 4"},
      {"csv", csvClasses, "x1,x2,y\n", "1: feature 1: 'x1' is not a number"},
      {"csv", csvClasses, "# header\n1,x,0\n",
       "2: feature 2: 'x' is not a number"},
      {"csv", csvClasses, "1,,0\n", "1: feature 2: '' is not a number"},
      {"csv", csvClasses, "nan,1,0\n",
       "1: feature 1: 'nan' is not a finite number"},
      {"csv", csvClasses, "1e999,1,0\n",
       "1: feature 1: '1e999' is not a number"},
      {"csv", csvClasses, "1,2,a\n", "1: label 'a' is not a number"},
      {"csv", csvClasses, "1,2,1.5\n", "1: class label 1.5 is not an integer"},
      {"csv", csvClasses, "1,2,-1\n", "1: class label -1 is negative"},
      {"csv", csvClasses, "1,2,1e300\n", "1: class label 1e300 is too large"},
      {"csv", csvBinary, "1,2,2\n", "1: binary label 2 is not 0 or 1"},
      {"csv", csvBinary, "1,2,-1\n",
       "1: binary label -1 is not 0 or 1 (write -1 labels as 0)"},
      {"libsvm", svm, "0 1:1\n1 1:1 2:1 3:1\n",
       "2: 3 features, but a row holds at most 2 (the width of the ids "
       "argument)"},
      {"libsvm", svm, "0 1\n", "1: bad feature '1': expected id:value"},
      {"libsvm", svm, "0 a:1\n",
       "1: bad feature 'a:1': id 'a' is not an integer"},
      {"libsvm", svm, "0 :1\n", "1: bad feature ':1': id '' is not an integer"},
      {"libsvm", svm, "0 -3:1\n", "1: bad feature '-3:1': id -3 is negative"},
      {"libsvm", svm, "0 3:x\n", "1: bad feature '3:x': 'x' is not a number"},
      {"libsvm", svm, "0 3:\n", "1: bad feature '3:': '' is not a number"},
      {"libsvm", svm, "x 3:1\n", "1: label 'x' is not a number"},
      {"libsvm", svm, "0.5 3:1\n", "1: class label 0.5 is not an integer"},
  };
  for (const Malformed &test : cases) {
    std::string path = write("bad", test.contents);
    EXPECT_EQ(openError(std::string(test.kind) + ":" + path, test.specs),
              path + ":" + test.message)
        << test.contents;
  }
}

TEST_F(DataSourceTest, CapsTheLineLength) {
  std::vector<FeedSpec> specs = {kFeatures2, kClassLabels};
  // A line of exactly the limit (here a comment) is read; one byte more is
  // refused before the reader holds it all.
  std::string longest = "#" + std::string(kMaxLineBytes - 1, 'x');
  std::string path = write("long.csv", longest + "\n1,2,0\n3,4,1");
  EXPECT_TRUE(open("csv:" + path, specs));
  path = write("longer.csv", "1,2,0\n" + longest + "x\n3,4,1\n");
  EXPECT_EQ(openError("csv:" + path, specs),
            path + ":2: the line is longer than 1048576 bytes");
}

TEST_F(DataSourceTest, MissingAndEmptyFiles) {
  std::vector<FeedSpec> specs = {kFeatures2, kClassLabels};
  std::string missing = dir + "/missing.csv";
  EXPECT_EQ(openError("csv:" + missing, specs),
            "cannot open " + missing + ": No such file or directory");
  std::string empty = write("empty.csv", "");
  EXPECT_EQ(openError("csv:" + empty, specs), empty + " holds no data rows");
  std::string comments = write("comments.svm", "# nothing\n\n  \n");
  EXPECT_EQ(openError("libsvm:" + comments, {kIds2, kClassLabels}),
            comments + " holds no data rows");
}

//===----------------------------------------------------------------------===//
// Specs and layouts
//===----------------------------------------------------------------------===//

TEST_F(DataSourceTest, SpecErrors) {
  std::vector<FeedSpec> dense = {kFeatures2, kClassLabels};
  std::vector<FeedSpec> binary = {kFeatures2, kBinaryLabels};
  const char *kExpected =
      "; expected csv:PATH, libsvm:PATH, synthetic:key=value,... or "
      "triples:PATH[,key=value...]";
  EXPECT_EQ(openError("", dense),
            std::string("unknown data source ''") + kExpected);
  EXPECT_EQ(openError("parquet:x.pq", dense),
            std::string("unknown data source 'parquet:x.pq'") + kExpected);
  EXPECT_EQ(openError("csv", dense), "csv data needs a file: csv:PATH");
  EXPECT_EQ(openError("libsvm:", {kIds2, kClassLabels}),
            "libsvm data needs a file: libsvm:PATH");
  EXPECT_EQ(openError("synthetic:foo=1", dense),
            "synthetic data: unknown option 'foo' (expected seed, rows, "
            "classes or vocab)");
  EXPECT_EQ(openError("synthetic:rows=0", dense),
            "synthetic data: rows must be an integer in [1, 1099511627776], "
            "got '0'");
  EXPECT_EQ(openError("synthetic:seed=x", dense),
            "synthetic data: seed must be an integer in [0, "
            "9223372036854775807], got 'x'");
  EXPECT_EQ(openError("synthetic:classes=1", dense),
            "synthetic data: classes must be an integer in [2, 65536], got "
            "'1'");
  // Keys are held to sane limits: a huge class count would build a teacher
  // of gigabytes and stall.
  EXPECT_EQ(openError("synthetic:classes=55555555", dense),
            "synthetic data: classes must be an integer in [2, 65536], got "
            "'55555555'");
  EXPECT_EQ(openError("synthetic:rows=9223372036854775807", dense),
            "synthetic data: rows must be an integer in [1, 1099511627776], "
            "got '9223372036854775807'");
  EXPECT_EQ(openError("synthetic:classes=65536",
                      {{DType::F64, Shape{-1, 2048}}, kClassLabels}),
            "synthetic data: classes=65536 over 2048 features make a teacher "
            "of more than 67108864 weights; use fewer classes");
  EXPECT_EQ(openError("synthetic:rows", dense),
            "synthetic data: option 'rows' is not key=value");
  EXPECT_EQ(openError("synthetic:seed=1,,rows=2", dense),
            "synthetic data: option '' is not key=value");
  EXPECT_EQ(openError("synthetic:seed=1,seed=2", dense),
            "synthetic data: option 'seed' is given twice");
  EXPECT_EQ(openError("synthetic:classes=3", binary),
            "synthetic data: classes=3 needs class labels tensor<?xi64>; 0/1 "
            "labels have 2 classes");
  EXPECT_EQ(openError("synthetic:vocab=5", dense),
            "synthetic data: vocab applies to ids tensor<?xKxi64>, but the "
            "features are dense");
  EXPECT_EQ(openError("synthetic:", dense, Shard{2, 2}),
            "invalid shard: trainer 2 of 2");
  EXPECT_EQ(openError("synthetic:", dense, Shard{0, 0}),
            "invalid shard: trainer 0 of 0");

  // Valid specs: defaults, spaces, classes=2 for binary labels.
  open("synthetic", dense);
  open("synthetic: seed = 3 , rows=5,classes=7", dense);
  open("synthetic:classes=2", binary);
  open("synthetic:vocab=5,rows=1", {kIds3, kValues3, kClassLabels});
}

TEST_F(DataSourceTest, LayoutErrors) {
  EXPECT_EQ(openError("csv:x", {kIds2, kClassLabels}),
            "csv data cannot fill the step arguments (tensor<?x2xi64>, "
            "tensor<?xi64>): the features are i64; it fills features "
            "tensor<?xDxf32> (or f64), then labels tensor<?xi64> (class ids) "
            "or tensor<?x1xf32> (or f64; 0/1 labels)");
  auto reason = [](const std::string &spec,
                   const std::vector<FeedSpec> &specs) {
    std::string message = openError(spec, specs);
    size_t begin = message.find("): ");
    size_t end = message.find("; it fills");
    EXPECT_NE(begin, std::string::npos) << message;
    EXPECT_NE(end, std::string::npos) << message;
    return message.substr(begin + 3, end - begin - 3);
  };
  EXPECT_EQ(reason("libsvm:x", {kFeatures2, kClassLabels}), "the ids are f32");
  EXPECT_EQ(reason("csv:x", {kFeatures2}), "1 argument");
  EXPECT_EQ(reason("libsvm:x", {kIds2, kValues3, kValues3, kClassLabels}),
            "4 arguments");
  EXPECT_EQ(reason("csv:x", {kFeatures2, {DType::F32, Shape{-1}}}),
            "the labels are tensor<?xf32>");
  EXPECT_EQ(reason("csv:x", {kFeatures2, {DType::F32, Shape{-1, 2}}}),
            "the labels are tensor<?x2xf32>");
  EXPECT_EQ(reason("csv:x", {kFeatures2, {DType::I64, Shape{-1, 1}}}),
            "the labels are tensor<?x1xi64>");
  EXPECT_EQ(reason("csv:x", {{DType::F32, Shape{-1, -1}}, kClassLabels}),
            "the first argument is not [B, N] with a static N >= 1");
  EXPECT_EQ(reason("synthetic:", {{DType::F32, Shape{-1}}, kClassLabels}),
            "the first argument is not [B, N] with a static N >= 1");
  EXPECT_EQ(reason("csv:x", {kFeatures2, kFeatures2, kClassLabels}),
            "dense features take one argument");
  EXPECT_EQ(reason("libsvm:x", {kIds2, kValues3, kClassLabels}),
            "the values are not [B, 2] f32 or f64");
  EXPECT_EQ(reason("libsvm:x", {kIds2, kIds2, kClassLabels}),
            "the values are not [B, 2] f32 or f64");
}

TEST_F(DataSourceTest, NextChecksFeeds) {
  std::vector<FeedSpec> specs = {{DType::F32, Shape{4, 2}}, kClassLabels};
  std::unique_ptr<DataSource> source = open("synthetic:", specs, {1, 2});
  Feeds feeds(specs);
  Status status = source->next(8, feeds.pointers);
  EXPECT_TRUE(status.isOk()) << status.message();

  status = source->next(6, feeds.pointers);
  EXPECT_EQ(status.message(), "argument 0 has a static batch of 4 rows, but "
                              "trainer 1 of 2 gets 3 rows of a global batch "
                              "of 6");
  EXPECT_EQ(source->next(0, feeds.pointers).message(),
            "a global batch needs at least one row, got 0");
  EXPECT_EQ(source->next(1, feeds.pointers).message(),
            "a global batch of 1 rows cannot be split among 2 trainers");
  EXPECT_EQ(source->next(8, {feeds.pointers[0]}).message(),
            "the data source fills 2 arguments, got 1 tensors");
  Tensor wrongType(DType::F32, Shape{0});
  EXPECT_EQ(source->next(8, {feeds.pointers[0], &wrongType}).message(),
            "argument 1 must be tensor<?xi64>, got tensor<0xf32>");
}

//===----------------------------------------------------------------------===//
// Batching
//===----------------------------------------------------------------------===//

TEST_F(DataSourceTest, WrapsAroundAndCountsEpochs) {
  std::string path = writeCountingCsv(5, 100);
  std::vector<FeedSpec> specs = {kFeatures2, kClassLabels};
  std::unique_ptr<DataSource> source = open("csv:" + path, specs);
  Feeds feeds(specs);
  const std::vector<double> expected[] = {
      {0, 1}, {2, 3}, {4, 0}, {1, 2}, {3, 4}};
  const int64_t epochs[] = {0, 0, 1, 1, 2};
  for (int call = 0; call < 5; ++call) {
    EXPECT_EQ(nextBatch(*source, feeds, 2)[1], expected[call]);
    EXPECT_EQ(source->epoch(), epochs[call]);
  }
  // A batch larger than the data wraps several times.
  EXPECT_EQ(nextBatch(*source, feeds, 12)[1],
            std::vector<double>({0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1}));
  EXPECT_EQ(source->epoch(), 4);
  EXPECT_EQ(nextBatch(*source, feeds, 4)[1], std::vector<double>({2, 3, 4, 0}));
  EXPECT_EQ(source->epoch(), 5);
}

TEST_F(DataSourceTest, SkipsAsIfItHadRead) {
  std::string path = writeCountingCsv(5, 100);
  std::vector<FeedSpec> specs = {kFeatures2, kClassLabels};
  for (int64_t skipped : {0, 1, 3, 7}) {
    std::unique_ptr<DataSource> reader = open("csv:" + path, specs, {1, 2});
    std::unique_ptr<DataSource> skipper = open("csv:" + path, specs, {1, 2});
    Feeds read(specs), next(specs);
    for (int64_t batch = 0; batch < skipped; ++batch)
      nextBatch(*reader, read, 3);
    ASSERT_TRUE(skipper->skip(3, skipped).isOk());
    EXPECT_EQ(skipper->epoch(), reader->epoch());
    EXPECT_EQ(nextBatch(*skipper, next, 3), nextBatch(*reader, read, 3));
  }
  std::unique_ptr<DataSource> source = open("csv:" + path, specs, {1, 2});
  EXPECT_FALSE(source->skip(1, 4).isOk());
  EXPECT_FALSE(source->skip(4, -1).isOk());
  EXPECT_FALSE(source->skip(int64_t(1) << 40, int64_t(1) << 40).isOk());
}

TEST_F(DataSourceTest, ShardOfTinyDatasetWraps) {
  std::string path = writeCountingCsv(2, 100);
  std::vector<FeedSpec> specs = {kFeatures2, kClassLabels};
  std::unique_ptr<DataSource> second = open("csv:" + path, specs, {1, 2});
  Feeds feeds(specs);
  EXPECT_EQ(nextBatch(*second, feeds, 6)[1], std::vector<double>({1, 0, 1}));
  EXPECT_EQ(second->epoch(), 3);
  EXPECT_EQ(nextBatch(*second, feeds, 6)[1], std::vector<double>({1, 0, 1}));
  EXPECT_EQ(second->epoch(), 6);
}

/// Checks that for T in {1, 2, 3} and several global batches, the T shards
/// of each batch concatenated equal the batch one process reads, and that
/// shard t gets t * B / T ... (t + 1) * B / T.
void expectShardsConcatenate(const std::string &spec,
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

TEST_F(DataSourceTest, ShardsConcatenateToTheGlobalBatch) {
  expectShardsConcatenate("csv:" + writeCountingCsv(10, 3),
                          {kFeatures2, kClassLabels});
  std::string svm = write("data.svm", "0 1:1\n1 2:2 3:3\n0\n1 4:4\n0 5:5 6:6\n"
                                      "1 7:7\n0 8:8\n1 9:9\n0 1:2 3:4\n1\n");
  expectShardsConcatenate("libsvm:" + svm,
                          {kIds2, {DType::F32, Shape{-1, 2}}, kBinaryLabels});
  expectShardsConcatenate("synthetic:rows=10,classes=3",
                          {kFeatures3, kClassLabels});
  expectShardsConcatenate("synthetic:rows=10,vocab=50",
                          {kIds3, kValues3, kBinaryLabels});
}

//===----------------------------------------------------------------------===//
// Id lists
//===----------------------------------------------------------------------===//

const FeedSpec kListIds{DType::I64, Shape{-1}};
const FeedSpec kListLengths{DType::I64, Shape{-1}};

TEST_F(DataSourceTest, CsvIdListsFeedFlatIdsAndLengths) {
  std::string path = write("lists.csv", "0.5,3|1|4,7,1\n"
                                        "# comment\n"
                                        "-1, ,2|2,0\n"
                                        "2,5, 9 | 8 ,1\n");
  std::vector<FeedSpec> specs = {{DType::F32, Shape{-1, 1}},
                                 kListIds,
                                 kListLengths,
                                 kListIds,
                                 kListLengths,
                                 kBinaryLabels};
  std::unique_ptr<DataSource> source = open("csv:" + path, specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 3);
  EXPECT_EQ(batch[0], std::vector<double>({0.5, -1, 2}));
  EXPECT_EQ(feeds.tensors[1].shape(), Shape({4}));
  EXPECT_EQ(batch[1], std::vector<double>({3, 1, 4, 5}));
  EXPECT_EQ(batch[2], std::vector<double>({3, 0, 1}));
  EXPECT_EQ(batch[3], std::vector<double>({7, 2, 2, 9, 8}));
  EXPECT_EQ(batch[4], std::vector<double>({1, 2, 2}));
  EXPECT_EQ(batch[5], std::vector<double>({1, 0, 1}));

  // Lists alone, with class labels; a batch of empty lists feeds no ids.
  path = write("empty.csv", ",2\n,0\n");
  specs = {kListIds, kListLengths, kClassLabels};
  source = open("csv:" + path, specs);
  Feeds onlyLists(specs);
  batch = nextBatch(*source, onlyLists, 2);
  EXPECT_EQ(onlyLists.tensors[0].shape(), Shape({0}));
  EXPECT_EQ(batch[1], std::vector<double>({0, 0}));
  EXPECT_EQ(batch[2], std::vector<double>({2, 0}));
}

TEST_F(DataSourceTest, CsvIdListShardsConcatenate) {
  std::string contents;
  for (int i = 0; i < 10; ++i) {
    std::string list;
    for (int j = 0; j < i % 4; ++j)
      list += (j ? "|" : "") + std::to_string(10 * i + j);
    contents +=
        std::to_string(i) + "," + list + "," + std::to_string(i % 2) + "\n";
  }
  expectShardsConcatenate(
      "csv:" + write("lists.csv", contents),
      {{DType::F64, Shape{-1, 1}}, kListIds, kListLengths, kBinaryLabels});
}

TEST_F(DataSourceTest, MalformedIdListsNameFileAndLine) {
  std::vector<FeedSpec> specs = {kFeatures2, kListIds, kListLengths,
                                 kClassLabels};
  const Malformed cases[] = {
      {"csv", specs, "1,2,3,0\n1,2,0\n",
       "2: expected 4 comma-separated fields (2 features, 1 id list, then "
       "the label), got 3"},
      {"csv", specs, "1,2,3|x,0\n",
       "1: id list 1: id 'x' is not an integer in [0, 2^63)"},
      {"csv", specs, "1,2,3|-4,0\n",
       "1: id list 1: id '-4' is not an integer in [0, 2^63)"},
      {"csv", specs, "1,2,3||4,0\n",
       "1: id list 1: id '' is not an integer in [0, 2^63)"},
      {"csv", specs, "1,2,3|,0\n",
       "1: id list 1: an id is missing after the last '|'"},
      {"csv", specs, "1,2,99999999999999999999,0\n",
       "1: id list 1: id '99999999999999999999' is not an integer in [0, "
       "2^63)"},
      {"csv", specs, "1,2,3 4,0\n",
       "1: id list 1: id '3 4' is not an integer in [0, 2^63)"},
  };
  for (const Malformed &test : cases) {
    std::string path = write("bad", test.contents);
    EXPECT_EQ(openError(std::string(test.kind) + ":" + path, test.specs),
              path + ":" + test.message)
        << test.contents;
  }
}

TEST_F(DataSourceTest, IdListLayoutErrors) {
  auto reason = [](const std::vector<FeedSpec> &specs) {
    std::string message = openError("csv:x", specs);
    EXPECT_EQ(message.rfind("csv data with id lists cannot fill", 0), 0u)
        << message;
    size_t begin = message.find("): ");
    size_t end = message.find("; it fills");
    return message.substr(begin + 3, end - begin - 3);
  };
  EXPECT_EQ(reason({kListIds, kClassLabels}),
            "1 argument between the features and the label do not pair up "
            "as ids and lengths");
  EXPECT_EQ(reason({kListIds, kListLengths, kFeatures2}),
            "the labels are tensor<?x2xf32>");
  EXPECT_EQ(reason({kListIds, kListLengths, kIds2, kListIds, kClassLabels}),
            "arguments 2 and 3 are not ids and lengths tensor<?xi64>");
  EXPECT_EQ(reason({{DType::I64, Shape{8}}, kListLengths, kClassLabels}),
            "the ids argument 0 has a static size; its size is that of the "
            "batch's lists");
  EXPECT_EQ(
      reason({{DType::F32, Shape{-1}}, kListIds, kListLengths, kClassLabels}),
      "the features are not [B, D] with a static D >= 1");
}

//===----------------------------------------------------------------------===//
// Triples
//===----------------------------------------------------------------------===//

const FeedSpec kTripleIds{DType::I64, Shape{-1}};

/// Heads, relations and tails, and `negatives` negative heads and tails.
std::vector<FeedSpec> tripleSpecs(int64_t negatives) {
  std::vector<FeedSpec> specs(3, kTripleIds);
  if (negatives == 1)
    specs.insert(specs.end(), 2, kTripleIds);
  else if (negatives > 1)
    specs.insert(specs.end(), 2, {DType::I64, Shape{-1, negatives}});
  return specs;
}

TEST_F(DataSourceTest, TriplesNumberNamesByFirstAppearance) {
  std::string path = write("train.txt", "/m/a\t/r/x\t/m/b\n"
                                        "\n"
                                        "/m/c\t/r/y\t/m/a\r\n"
                                        "/m/b\t/r/x\t/m/d\n");
  std::vector<FeedSpec> specs = tripleSpecs(0);
  std::unique_ptr<DataSource> source = open("triples:" + path, specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 4);
  EXPECT_EQ(batch[0], std::vector<double>({0, 2, 1, 0}));
  EXPECT_EQ(batch[1], std::vector<double>({0, 1, 0, 0}));
  EXPECT_EQ(batch[2], std::vector<double>({1, 0, 3, 1}));
  EXPECT_EQ(source->epoch(), 1);

  // Integer ids are taken as they are (WN18's zero-padded ones too).
  path = write("ids.txt", "00012\t3\t7\n5\t0\t12\n");
  source = open("triples:" + path + ",ids=integers", specs);
  batch = nextBatch(*source, feeds, 2);
  EXPECT_EQ(batch[0], std::vector<double>({12, 5}));
  EXPECT_EQ(batch[1], std::vector<double>({3, 0}));
  EXPECT_EQ(batch[2], std::vector<double>({7, 12}));
}

TEST_F(DataSourceTest, SkippedTriplesDrawTheNegativesOfReadOnes) {
  // Negatives depend on a row's place in the whole stream, epochs included:
  // a resumed run must draw what the uninterrupted one drew.
  std::string contents;
  for (int i = 0; i < 7; ++i)
    contents += fmt::format("{}\t{}\t{}\n", i, i % 2, (3 * i + 1) % 7);
  std::string path = write("small-kg.txt", contents);
  std::vector<FeedSpec> specs = tripleSpecs(3);
  std::string spec =
      fmt::format("triples:{},ids=integers,negatives=3,seed=4", path);
  for (int64_t skipped : {1, 2, 5}) {
    SCOPED_TRACE(skipped);
    std::unique_ptr<DataSource> reader = open(spec, specs, {1, 2});
    std::unique_ptr<DataSource> skipper = open(spec, specs, {1, 2});
    Feeds read(specs), next(specs);
    for (int64_t batch = 0; batch < skipped; ++batch)
      nextBatch(*reader, read, 4);
    ASSERT_TRUE(skipper->skip(4, skipped).isOk());
    EXPECT_EQ(nextBatch(*skipper, next, 4), nextBatch(*reader, read, 4));
  }
}

TEST_F(DataSourceTest, TriplesNegativesCorruptOneSide) {
  std::string contents;
  for (int i = 0; i < 50; ++i)
    contents += fmt::format("{}\t{}\t{}\n", i % 20, i % 3, (7 * i + 1) % 20);
  std::string path = write("kg.txt", contents);
  for (const char *corrupt : {"both", "head", "tail"}) {
    SCOPED_TRACE(corrupt);
    std::vector<FeedSpec> specs = tripleSpecs(4);
    std::unique_ptr<DataSource> source =
        open(fmt::format("triples:{},ids=integers,negatives=4,seed=9,"
                         "corrupt={}",
                         path, corrupt),
             specs);
    Feeds feeds(specs);
    int64_t heads = 0, total = 0;
    std::set<int64_t> drawn;
    for (int call = 0; call < 10; ++call) {
      std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 25);
      ASSERT_EQ(batch[3].size(), 100u);
      for (int row = 0; row < 25; ++row) {
        for (int j = 0; j < 4; ++j) {
          double head = batch[3][row * 4 + j], tail = batch[4][row * 4 + j];
          bool headChanged = head != batch[0][row];
          bool tailChanged = tail != batch[2][row];
          // Exactly one side changes, to another entity in [0, 20).
          EXPECT_NE(headChanged, tailChanged);
          EXPECT_GE(std::min(head, tail), 0);
          EXPECT_LT(std::max(head, tail), 20);
          heads += headChanged;
          ++total;
          drawn.insert(static_cast<int64_t>(headChanged ? head : tail));
        }
      }
    }
    if (std::string(corrupt) == "both") {
      EXPECT_GT(heads, total * 2 / 5);
      EXPECT_LT(heads, total * 3 / 5);
    } else {
      EXPECT_EQ(heads, std::string(corrupt) == "head" ? total : 0);
    }
    EXPECT_EQ(drawn.size(), 20u);
  }
}

TEST_F(DataSourceTest, TriplesNegativesAreSeededAndVaryByEpoch) {
  std::string path = write("kg.txt", "a\tr\tb\nb\tr\tc\nc\ts\td\nd\ts\te\n");
  std::vector<FeedSpec> specs = tripleSpecs(1);
  auto draw = [&](const std::string &options) {
    std::unique_ptr<DataSource> source =
        open("triples:" + path + options, specs);
    Feeds feeds(specs);
    std::vector<std::vector<double>> first = nextBatch(*source, feeds, 4);
    std::vector<std::vector<double>> second = nextBatch(*source, feeds, 4);
    EXPECT_EQ(first[0], second[0]);
    // The same triples corrupt differently in the next epoch.
    EXPECT_NE(std::make_pair(first[3], first[4]),
              std::make_pair(second[3], second[4]));
    return std::make_pair(first[3], first[4]);
  };
  EXPECT_EQ(draw(",seed=5"), draw(",seed=5"));
  EXPECT_NE(draw(",seed=5"), draw(",seed=6"));
  EXPECT_EQ(draw(""), draw(",seed=1"));
}

TEST_F(DataSourceTest, TriplesShardsConcatenate) {
  std::string contents;
  for (int i = 0; i < 10; ++i)
    contents += fmt::format("e{}\tr{}\te{}\n", i, i % 2, (3 * i) % 10);
  std::string path = write("kg.txt", contents);
  expectShardsConcatenate("triples:" + path + ",negatives=3,seed=2",
                          tripleSpecs(3));
  expectShardsConcatenate("triples:" + path + ",corrupt=tail", tripleSpecs(1));
}

TEST_F(DataSourceTest, MalformedTriplesNameFileAndLine) {
  std::vector<FeedSpec> specs = tripleSpecs(1);
  const std::pair<const char *, const char *> cases[] = {
      {"a\tr\tb\na r b\n",
       "2: expected head<TAB>relation<TAB>tail, got 1 tab-separated field"},
      {"a\tr\n",
       "1: expected head<TAB>relation<TAB>tail, got 2 tab-separated fields"},
      {"a\tr\tb\tc\n",
       "1: expected head<TAB>relation<TAB>tail, got 4 tab-separated fields"},
      {"a\t\tb\n", "1: the relation is empty"},
      {"a\t \tb\n", "1: the relation is empty"},
  };
  for (const auto &[contents, message] : cases) {
    std::string path = write("bad.txt", contents);
    EXPECT_EQ(openError("triples:" + path, specs), path + ":" + message)
        << contents;
  }
  std::string ids = ",ids=integers";
  const std::pair<const char *, const char *> integerCases[] = {
      {"1\t2\tx\n", "1: tail: 'x' is not an integer id >= 0"},
      {"1\t-2\t3\n", "1: relation: '-2' is not an integer id >= 0"},
      {"99999999999999999999\t0\t1\n",
       "1: head: '99999999999999999999' is not an integer id >= 0"},
      {"0\t0\t1\n1\t0\t9999999999999\n",
       "2: tail: id 9999999999999 is too large: ids must be below "
       "1099511627776"},
  };
  for (const auto &[contents, message] : integerCases) {
    std::string path = write("bad.txt", contents);
    EXPECT_EQ(openError("triples:" + path + ids, specs), path + ":" + message)
        << contents;
  }
  std::string path = write("kg.txt", "0\t0\t1\n4\t1\t2\n");
  EXPECT_EQ(openError("triples:" + path + ids + ",entities=4", specs),
            path + ":2: head: id 4 is too large: ids must be below 4");
  EXPECT_EQ(openError("triples:" + path + ",relations=1", specs),
            path + ":2: relation '1' makes 2 distinct relations, more than "
                   "relations=1");
  std::string loop = write("loop.txt", "a\tr\ta\n");
  EXPECT_EQ(openError("triples:" + loop, specs),
            loop + " names one entity; negative sampling needs at least two");
  open("triples:" + loop, tripleSpecs(0));
  std::string empty = write("empty.txt", "\n\n# only a comment\n");
  EXPECT_EQ(openError("triples:" + empty, specs),
            empty + " holds no data rows");
}

TEST_F(DataSourceTest, TriplesSpecAndLayoutErrors) {
  std::string path = write("kg.txt", "a\tr\tb\n");
  std::vector<FeedSpec> specs = tripleSpecs(2);
  EXPECT_EQ(openError("triples:", specs),
            "triples data needs a file: triples:PATH[,key=value...]");
  EXPECT_EQ(openError("triples:" + path + ",negative=2", specs),
            "triples data: unknown option 'negative' (expected negatives, "
            "seed, corrupt, ids, entities or relations)");
  EXPECT_EQ(openError("triples:" + path + ",negatives=0", specs),
            "triples data: negatives must be an integer in [1, 1048576], got "
            "'0'");
  EXPECT_EQ(openError("triples:" + path + ",corrupt=relation", specs),
            "triples data: corrupt must be both, head or tail, got "
            "'relation'");
  EXPECT_EQ(openError("triples:" + path + ",ids=strings", specs),
            "triples data: ids must be names or integers, got 'strings'");
  auto reason = [&](const std::string &options,
                    const std::vector<FeedSpec> &feeds) {
    std::string message = openError("triples:" + path + options, feeds);
    size_t begin = message.find("): ");
    size_t end = message.find("; it fills");
    EXPECT_NE(end, std::string::npos) << message;
    return message.substr(begin + 3, end - begin - 3);
  };
  EXPECT_EQ(reason(",negatives=3", specs),
            "negatives=3 but the negative arguments hold 2 per triple");
  EXPECT_EQ(reason(",negatives=1", tripleSpecs(0)),
            "negatives=1 needs negative heads and tails arguments");
  EXPECT_EQ(reason("", {kTripleIds, kTripleIds}), "2 arguments");
  EXPECT_EQ(reason("", {kTripleIds, kFeatures2, kTripleIds}),
            "argument 1 is not i64 ids");
  EXPECT_EQ(reason("", {kTripleIds,
                        kTripleIds,
                        kTripleIds,
                        kTripleIds,
                        {DType::I64, Shape{-1, 2}}}),
            "the negative heads and tails differ in shape");
}

TEST_F(DataSourceTest, FeedsWithCapacityKeepTheirBuffers) {
  std::vector<FeedSpec> specs = {kFeatures3, kClassLabels};
  std::unique_ptr<DataSource> source = open("synthetic:rows=5", specs);
  Tensor features(DType::F32, Shape{8, 3});
  Tensor labels(DType::I64, Shape{8});
  const void *featureBuffer = features.rawData();
  const void *labelBuffer = labels.rawData();
  for (int64_t batch : {8, 3, 7, 8}) {
    Status status = source->next(batch, {&features, &labels});
    EXPECT_TRUE(status.isOk()) << status.message();
    EXPECT_EQ(features.shape(), Shape({batch, 3}));
    EXPECT_EQ(features.rawData(), featureBuffer);
    EXPECT_EQ(labels.rawData(), labelBuffer);
  }
}

//===----------------------------------------------------------------------===//
// Synthetic data
//===----------------------------------------------------------------------===//

TEST_F(DataSourceTest, SyntheticIsDeterministic) {
  std::vector<FeedSpec> specs = {kFeatures3, kClassLabels};
  std::unique_ptr<DataSource> first = open("synthetic:seed=7", specs);
  std::unique_ptr<DataSource> again = open("synthetic:seed=7", specs);
  std::unique_ptr<DataSource> other = open("synthetic:seed=8", specs);
  Feeds firstFeeds(specs), againFeeds(specs), otherFeeds(specs);
  for (int call = 0; call < 3; ++call) {
    std::vector<std::vector<double>> batch = nextBatch(*first, firstFeeds, 64);
    EXPECT_EQ(nextBatch(*again, againFeeds, 64), batch);
    std::vector<std::vector<double>> different =
        nextBatch(*other, otherFeeds, 64);
    EXPECT_NE(different[0], batch[0]);
    EXPECT_NE(different[1], batch[1]);
  }
}

TEST_F(DataSourceTest, SyntheticRowsDependOnlyOnTheirIndex) {
  // One batch of 30 rows equals ten batches of 3, and the data wraps after
  // `rows` rows.
  for (std::vector<FeedSpec> specs :
       {std::vector<FeedSpec>{kFeatures3, kClassLabels},
        std::vector<FeedSpec>{kIds3, kValues3, kBinaryLabels}}) {
    std::unique_ptr<DataSource> big = open("synthetic:rows=15", specs);
    std::unique_ptr<DataSource> small = open("synthetic:rows=15", specs);
    Feeds bigFeeds(specs), smallFeeds(specs);
    std::vector<std::vector<double>> whole = nextBatch(*big, bigFeeds, 30);
    std::vector<std::vector<double>> pieces(specs.size());
    for (int call = 0; call < 10; ++call) {
      std::vector<std::vector<double>> part = nextBatch(*small, smallFeeds, 3);
      for (size_t i = 0; i < specs.size(); ++i)
        pieces[i].insert(pieces[i].end(), part[i].begin(), part[i].end());
    }
    EXPECT_EQ(pieces, whole);
    EXPECT_EQ(big->epoch(), 2);
    for (const std::vector<double> &feed : whole) {
      size_t half = feed.size() / 2;
      EXPECT_TRUE(
          std::equal(feed.begin(), feed.begin() + half, feed.begin() + half));
    }
  }
  // The ids do not depend on whether the layout has values.
  std::unique_ptr<DataSource> withValues =
      open("synthetic:", {kIds3, kValues3, kClassLabels});
  std::unique_ptr<DataSource> idsOnly =
      open("synthetic:", {kIds3, kClassLabels});
  Feeds withValuesFeeds({kIds3, kValues3, kClassLabels});
  Feeds idsOnlyFeeds({kIds3, kClassLabels});
  EXPECT_EQ(nextBatch(*withValues, withValuesFeeds, 16)[0],
            nextBatch(*idsOnly, idsOnlyFeeds, 16)[0]);
}

TEST_F(DataSourceTest, SyntheticRangesAndBalance) {
  struct Case {
    std::string spec;
    std::vector<FeedSpec> specs;
    int classes;
  };
  std::vector<FeedSpec> dense = {{DType::F64, Shape{-1, 32}}, kClassLabels};
  std::vector<FeedSpec> sparse = {
      {DType::I64, Shape{-1, 8}}, {DType::F32, Shape{-1, 8}}, kClassLabels};
  const Case cases[] = {
      {"synthetic:classes=4,rows=4000", dense, 4},
      {"synthetic:classes=10,rows=4000,seed=7", dense, 10},
      {"synthetic:rows=4000", {dense[0], kBinaryLabels}, 2},
      {"synthetic:classes=3,rows=4000,vocab=100", sparse, 3},
      {"synthetic:rows=4000,vocab=100", {sparse[0], kBinaryLabels}, 2},
  };
  for (const Case &test : cases) {
    SCOPED_TRACE(test.spec);
    std::unique_ptr<DataSource> source = open(test.spec, test.specs);
    Feeds feeds(test.specs);
    std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 4000);
    std::vector<int> counts(test.classes);
    for (double label : batch.back()) {
      ASSERT_GE(label, 0);
      ASSERT_LT(label, test.classes);
      ++counts[static_cast<int>(label)];
    }
    for (int count : counts) {
      EXPECT_GT(count, 4000 / test.classes / 2);
      EXPECT_LT(count, 4000 / test.classes * 3 / 2);
    }
    bool sparseIds = test.specs[0].dtype == DType::I64;
    for (double value : batch[0]) {
      EXPECT_GE(value, sparseIds ? 0 : -1);
      EXPECT_LT(value, sparseIds ? 100 : 1);
    }
  }
}

TEST_F(DataSourceTest, SyntheticLabelsAreLearnable) {
  // A perceptron separates the teacher's binary labels almost perfectly.
  constexpr int kWidth = 8, kRows = 2000;
  std::vector<FeedSpec> specs = {{DType::F64, Shape{-1, kWidth}},
                                 kBinaryLabels};
  std::unique_ptr<DataSource> source =
      open("synthetic:rows=2000,seed=3", specs);
  Feeds feeds(specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, kRows);
  std::vector<double> weights(kWidth);
  auto predict = [&](int row) {
    double logit = 0;
    for (int j = 0; j < kWidth; ++j)
      logit += weights[j] * batch[0][row * kWidth + j];
    return logit > 0 ? 1.0 : 0.0;
  };
  for (int pass = 0; pass < 20; ++pass)
    for (int row = 0; row < kRows; ++row) {
      double error = batch[1][row] - predict(row);
      for (int j = 0; j < kWidth; ++j)
        weights[j] += error * batch[0][row * kWidth + j];
    }
  int correct = 0;
  for (int row = 0; row < kRows; ++row)
    correct += predict(row) == batch[1][row];
  EXPECT_GT(correct, kRows * 97 / 100);
}

} // namespace
