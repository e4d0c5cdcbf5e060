//===- DataSourceTest.cpp - Tests of the data sources ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parsing of csv (with id lists) and libsvm files, error messages, specs
// and layouts, sharding, wrap-around, and the synthetic generator's
// determinism. The triples source is tested in TriplesSourceTest.cpp.
//
//===----------------------------------------------------------------------===//

#include "DataSourceTesting.h"

#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

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
