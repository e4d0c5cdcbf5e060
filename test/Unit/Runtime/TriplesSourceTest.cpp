//===- TriplesSourceTest.cpp - Tests of the triples data source ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Knowledge-graph triples: numbering names by first appearance or by id
// maps, column orders and OpenKE's files, seeded negative sampling that
// corrupts one side, sharding, and errors.
//
//===----------------------------------------------------------------------===//

#include "DataSourceTesting.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <utility>

using namespace openks;
using namespace openks::runtime;
using namespace openks::testing;

namespace {

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

TEST_F(DataSourceTest, TriplesTakeTheColumnsInTheOrderGiven) {
  std::vector<FeedSpec> specs = tripleSpecs(0);
  Feeds feeds(specs);
  std::string path = write("htr.txt", "a\tb\tr\nb\tc\ts\n");
  std::unique_ptr<DataSource> source =
      open("triples:" + path + ",order=htr", specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 2);
  EXPECT_EQ(batch[0], std::vector<double>({0, 1}));
  EXPECT_EQ(batch[1], std::vector<double>({0, 1}));
  EXPECT_EQ(batch[2], std::vector<double>({1, 2}));

  // OpenKE's train2id.txt: a count, then "head tail relation" ids.
  path = write("train2id.txt", "3\n0 1 0\n2\t0 1\n  1 2   1\n");
  source = open("triples:" + path + ",format=openke", specs);
  batch = nextBatch(*source, feeds, 3);
  EXPECT_EQ(batch[0], std::vector<double>({0, 2, 1}));
  EXPECT_EQ(batch[1], std::vector<double>({0, 1, 1}));
  EXPECT_EQ(batch[2], std::vector<double>({1, 0, 2}));

  const std::pair<const char *, std::string> errors[] = {
      {"2\n0 1 0\n", ": the first line counts 2 triples, but the file "
                     "holds 1"},
      {"0 1 0\n", ":1: expected the count of triples that OpenKE's files "
                  "begin with, got '0 1 0'"},
      {"1\n0 1\n", ":2: expected head tail relation, got 2 fields"},
      {"1\n0 1 x\n", ":2: relation: 'x' is not an integer id >= 0"},
  };
  for (const auto &[contents, message] : errors) {
    std::string bad = write("bad2id.txt", contents);
    EXPECT_EQ(openError("triples:" + bad + ",format=openke", specs),
              bad + message)
        << contents;
  }
  std::string bad = write("bad.txt", "a\tb\n");
  EXPECT_EQ(openError("triples:" + bad + ",order=htr", specs),
            bad + ":1: expected head<TAB>tail<TAB>relation, got 2 "
                  "tab-separated fields");
  EXPECT_EQ(openError("triples:" + bad + ",order=rht", specs),
            "triples data: order must be hrt or htr, got 'rht'");
  EXPECT_EQ(openError("triples:" + bad + ",format=openke,ids=names", specs),
            "triples data: OpenKE's files hold integer ids, not names");
}

TEST_F(DataSourceTest, TriplesNumberNamesByTheirIdMaps) {
  std::vector<FeedSpec> specs = tripleSpecs(1);
  Feeds feeds(specs);
  std::string entities = write("entities.tsv", "2\t/m/c\n0\t/m/a\n"
                                               "1\t/m/b\n3\t/m/unused\n");
  write("relations.tsv", "0\t/r/y\n1\t/r/x\n");
  std::string dir = entities.substr(0, entities.rfind('/'));
  std::string test = write("test.txt", "/m/c\t/r/x\t/m/a\n"
                                       "/m/b\t/r/y\t/m/c\n");
  std::unique_ptr<DataSource> source =
      open("triples:" + test + ",maps=" + dir, specs);
  std::vector<std::vector<double>> batch = nextBatch(*source, feeds, 2);
  EXPECT_EQ(batch[0], std::vector<double>({2, 1}));
  EXPECT_EQ(batch[1], std::vector<double>({1, 0}));
  EXPECT_EQ(batch[2], std::vector<double>({0, 2}));
  // Negatives come from every entity of the map, the unused one included.
  std::set<double> drawn;
  for (int i = 0; i < 200; ++i) {
    batch = nextBatch(*source, feeds, 2);
    drawn.insert(batch[3].begin(), batch[3].end());
    drawn.insert(batch[4].begin(), batch[4].end());
  }
  EXPECT_EQ(drawn, (std::set<double>{0, 1, 2, 3}));

  std::string unknown = write("unknown.txt", "/m/a\t/r/x\t/m/new\n");
  EXPECT_EQ(openError("triples:" + unknown + ",maps=" + dir, specs),
            unknown + ":1: tail '/m/new' is not in " + entities);
  EXPECT_EQ(
      openError("triples:" + test + ",maps=" + dir + ",ids=integers", specs),
      "triples data: maps number names, and ids=integers has none");
  const std::pair<const char *, std::string> badMaps[] = {
      {"0\t/m/a\n0\t/m/b\n", ":2: id 0 is given twice"},
      {"0\t/m/a\n1\t/m/a\n", ":2: '/m/a' is given twice"},
      {"0\t/m/a\n2\t/m/b\n", ": id 1 is missing: the ids must be 0 to 2"},
      {"x\t/m/a\n", ":1: 'x' is not an id"},
      {"/m/a\n", ":1: expected id<TAB>name"},
  };
  for (const auto &[contents, message] : badMaps) {
    std::string map = write("entities.tsv", contents);
    EXPECT_EQ(openError("triples:" + test + ",maps=" + dir, specs),
              map + message)
        << contents;
  }
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
            "seed, corrupt, ids, order, format, maps, entities or relations)");
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

} // namespace
