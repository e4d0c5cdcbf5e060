//===- DataSource.cpp - Mini-batches from files or a generator ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// This file opens data sources from their specs, checks feed layouts, and
// holds the logic every source shares: cutting this shard's rows out of each
// global batch, wrapping around at the end of the data, and reading text
// files line by line.
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <fstream>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::detail;

DataSource::~DataSource() = default;

Status DataSource::skip(int64_t globalBatch, int64_t batches) {
  return Status::error(StatusCode::FailedPrecondition,
                       "this data source cannot skip the {} batches of {} "
                       "rows a resumed run has trained on",
                       batches, globalBatch);
}

std::string openks::runtime::detail::describe(const FeedSpec &feed) {
  std::string dims;
  for (int64_t size : feed.shape)
    dims += size < 0 ? std::string("?x") : fmt::format("{}x", size);
  return fmt::format("tensor<{}{}>", dims, dtypeName(feed.dtype));
}

//===----------------------------------------------------------------------===//
// Batching and sharding
//===----------------------------------------------------------------------===//

RowSource::RowSource(Layout layout, Shard shard, int64_t numRows)
    : layout_(std::move(layout)), shard_(shard), numRows_(numRows) {
  assert(numRows_ >= 1 && "a source needs at least one row");
}

Status RowSource::checkFeeds(const std::vector<Tensor *> &feeds, int64_t rows,
                             int64_t globalBatch) const {
  if (feeds.size() != layout_.feeds.size())
    return Status::invalidArgument(
        "the data source fills {} arguments, got {} tensors",
        layout_.feeds.size(), feeds.size());
  for (size_t i = 0; i < feeds.size(); ++i) {
    const FeedSpec &spec = layout_.feeds[i];
    if (!feeds[i] || feeds[i]->dtype() != spec.dtype)
      return Status::invalidArgument(
          "argument {} must be {}, got {}", i, describe(spec),
          feeds[i] ? feeds[i]->typeString() : "no tensor");
    if (spec.shape[0] >= 0 && spec.shape[0] != rows)
      return Status::invalidArgument(
          "argument {} has a static batch of {} rows, but "
          "trainer {} of {} gets {} rows of a global batch "
          "of {}",
          i, spec.shape[0], shard_.index, shard_.count, rows, globalBatch);
  }
  return Status::ok();
}

/// Converts `width` elements at `source` into row `at` of `feed`.
template <typename T, typename Element>
static void copyRow(Tensor &feed, int64_t at, const Element *source,
                    int64_t width) {
  T *target = feed.data<T>() + at * width;
  for (int64_t i = 0; i < width; ++i)
    target[i] = static_cast<T>(source[i]);
}

/// Writes `width` elements at `source` as row `at` of `feed`, converting
/// them to its element type.
template <typename Element>
static void storeRow(Tensor &feed, int64_t at, const Element *source,
                     int64_t width) {
  switch (feed.dtype()) {
  case DType::F32:
    copyRow<float>(feed, at, source, width);
    return;
  case DType::F64:
    copyRow<double>(feed, at, source, width);
    return;
  case DType::I64:
    copyRow<int64_t>(feed, at, source, width);
    return;
  }
}

/// Returns the number of ids of list `list` of `data`.
static int64_t listLength(const RowRef &data, int64_t list) {
  return data.listOffsets[list + 1] - data.listOffsets[list];
}

Status RowSource::checkGlobalBatch(int64_t globalBatch) const {
  if (globalBatch < 1)
    return Status::invalidArgument(
        "a global batch needs at least one row, got {}", globalBatch);
  if (globalBatch < shard_.count)
    return Status::invalidArgument(
        "a global batch of {} rows cannot be split among {} "
        "trainers",
        globalBatch, shard_.count);
  return Status::ok();
}

void RowSource::advance(int64_t rows) {
  // Every shard advances by the whole global batch; rows % numRows_ keeps
  // the sum from overflowing.
  epoch_ += rows / numRows_;
  int64_t consumed = cursor_ + rows % numRows_;
  epoch_ += consumed / numRows_;
  cursor_ = consumed % numRows_;
}

Status RowSource::skip(int64_t globalBatch, int64_t batches) {
  OPENKS_RETURN_IF_ERROR(checkGlobalBatch(globalBatch));
  if (batches < 0 || (batches > 0 && globalBatch > INT64_MAX / batches))
    return Status::invalidArgument("cannot skip {} batches of {} rows", batches,
                                   globalBatch);
  advance(globalBatch * batches);
  return Status::ok();
}

Status RowSource::next(int64_t globalBatch,
                       const std::vector<Tensor *> &feeds) {
  OPENKS_RETURN_IF_ERROR(checkGlobalBatch(globalBatch));
  int64_t begin = shard_.index * globalBatch / shard_.count;
  int64_t end = (shard_.index + 1) * globalBatch / shard_.count;
  int64_t rows = end - begin;
  OPENKS_RETURN_IF_ERROR(checkFeeds(feeds, rows, globalBatch));

  // The rows of this shard are rows `first`, `first + 1`, ... of the stream.
  int64_t first = epoch_ * numRows_ + cursor_ + begin;
  // An id-list argument holds the ids of all the shard's lists of its
  // column, so its size is known only after a pass over the rows.
  std::vector<int64_t> listSizes(layout_.numLists, 0);
  for (int64_t at = 0; layout_.numLists > 0 && at < rows; ++at) {
    RowRef data = row((first + at) % numRows_, first + at);
    for (int64_t list = 0; list < layout_.numLists; ++list)
      listSizes[list] += listLength(data, list);
  }
  for (size_t i = 0, list = 0; i < feeds.size(); ++i) {
    Shape shape = layout_.feeds[i].shape;
    shape[0] = layout_.roles[i] == FeedRole::ListIds ? listSizes[list++] : rows;
    feeds[i]->resize(shape);
  }

  // Where the next ids of each list column go.
  std::vector<int64_t> listEnds(layout_.numLists, 0);
  for (int64_t at = 0; at < rows; ++at) {
    RowRef data = row((first + at) % numRows_, first + at);
    for (size_t i = 0, list = 0; i < feeds.size(); ++i) {
      switch (layout_.roles[i]) {
      case FeedRole::Values:
        storeRow(*feeds[i], at, data.values, layout_.width);
        break;
      case FeedRole::Ids:
        storeRow(*feeds[i], at, data.ids, layout_.width);
        break;
      case FeedRole::Label:
        storeRow(*feeds[i], at, &data.label, 1);
        break;
      case FeedRole::ListIds: {
        int64_t length = listLength(data, list);
        std::copy_n(data.listIds + data.listOffsets[list], length,
                    feeds[i]->data<int64_t>() + listEnds[list]);
        listEnds[list] += length;
        break;
      }
      case FeedRole::ListLengths: {
        int64_t length = listLength(data, list++);
        storeRow(*feeds[i], at, &length, 1);
        break;
      }
      case FeedRole::Head:
        storeRow(*feeds[i], at, data.ids, 1);
        break;
      case FeedRole::Relation:
        storeRow(*feeds[i], at, data.ids + 1, 1);
        break;
      case FeedRole::Tail:
        storeRow(*feeds[i], at, data.ids + 2, 1);
        break;
      case FeedRole::NegativeHeads:
        storeRow(*feeds[i], at, data.negatives, layout_.negatives);
        break;
      case FeedRole::NegativeTails:
        storeRow(*feeds[i], at, data.negatives + layout_.negatives,
                 layout_.negatives);
        break;
      }
    }
  }
  advance(globalBatch);
  return Status::ok();
}

namespace {
/// Serves rows parsed from a file.
class TableSource final : public RowSource {
public:
  TableSource(Layout layout, Shard shard, Table table)
      : RowSource(std::move(layout), shard,
                  static_cast<int64_t>(table.labels.size())),
        table_(std::move(table)) {}

protected:
  RowRef row(int64_t index, int64_t /*position*/) override {
    int64_t offset = index * layout().width;
    RowRef data;
    if (!table_.values.empty())
      data.values = table_.values.data() + offset;
    if (!table_.ids.empty())
      data.ids = table_.ids.data() + offset;
    data.label = table_.labels[index];
    data.listIds = table_.listIds.data();
    data.listOffsets = table_.listOffsets.data() + index * layout().numLists;
    return data;
  }

private:
  Table table_;
};
} // namespace

std::unique_ptr<DataSource>
openks::runtime::detail::makeTableSource(Layout layout, Shard shard,
                                         Table table) {
  return std::make_unique<TableSource>(std::move(layout), shard,
                                       std::move(table));
}

//===----------------------------------------------------------------------===//
// Reading text
//===----------------------------------------------------------------------===//

std::string_view openks::runtime::detail::trimSpace(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r");
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(" \t\r");
  return text.substr(begin, end - begin + 1);
}

Status openks::runtime::detail::forEachDataLine(
    const std::string &path,
    const std::function<Status(std::string_view)> &parseRow) {
  std::ifstream in(path);
  if (!in)
    return Status::notFound("cannot open {}: {}", path, std::strerror(errno));
  // Room for the longest line and the terminating NUL.
  std::vector<char> line(kMaxLineBytes + 1);
  int64_t lineNumber = 0;
  bool sawRow = false;
  while (in.getline(line.data(), static_cast<std::streamsize>(line.size())) ||
         in.gcount() > 0) {
    ++lineNumber;
    if (in.fail() && !in.eof())
      return Status::invalidArgument("{}:{}: the line is longer than {} bytes",
                                     path, lineNumber, kMaxLineBytes);
    std::string_view text = trimSpace(line.data());
    if (text.empty() || text.front() == '#')
      continue;
    sawRow = true;
    Status status = parseRow(text);
    if (!status.isOk())
      return status.withContext(fmt::format("{}:{}", path, lineNumber));
  }
  if (in.bad())
    return Status::dataLoss("cannot read {}: {}", path, std::strerror(errno));
  if (!sawRow)
    return Status::invalidArgument("{} holds no data rows", path);
  return Status::ok();
}

Status openks::runtime::detail::forEachOption(
    std::string_view options,
    const std::function<Status(std::string_view key, std::string_view value)>
        &parseOption) {
  std::vector<std::string_view> seen;
  while (!options.empty()) {
    size_t comma = options.find(',');
    std::string_view item = trimSpace(options.substr(0, comma));
    options = comma == std::string_view::npos ? std::string_view()
                                              : options.substr(comma + 1);
    size_t equals = item.find('=');
    if (equals == std::string_view::npos)
      return Status::invalidArgument("option '{}' is not key=value", item);
    std::string_view key = trimSpace(item.substr(0, equals));
    if (std::find(seen.begin(), seen.end(), key) != seen.end())
      return Status::invalidArgument("option '{}' is given twice", key);
    seen.push_back(key);
    OPENKS_RETURN_IF_ERROR(
        parseOption(key, trimSpace(item.substr(equals + 1))));
  }
  return Status::ok();
}

/// Parses all of `token` with std::from_chars, allowing a leading '+'.
template <typename T> static bool parseAll(std::string_view token, T &value) {
  if (token.size() > 1 && token[0] == '+' && token[1] != '-')
    token.remove_prefix(1);
  const char *end = token.data() + token.size();
  auto [stop, error] = std::from_chars(token.data(), end, value);
  return error == std::errc() && stop == end;
}

Status openks::runtime::detail::parseNumber(std::string_view token,
                                            double &value) {
  if (!parseAll(token, value))
    return Status::invalidArgument("'{}' is not a number", token);
  if (!std::isfinite(value))
    return Status::invalidArgument("'{}' is not a finite number", token);
  return Status::ok();
}

Status openks::runtime::detail::parseInteger(std::string_view token,
                                             int64_t &value) {
  if (!parseAll(token, value))
    return Status::invalidArgument("'{}' is not an integer", token);
  return Status::ok();
}

Status openks::runtime::detail::parseLabel(std::string_view token,
                                           bool classLabels, int64_t &label) {
  double value;
  if (!parseNumber(token, value).isOk())
    return Status::invalidArgument("label '{}' is not a number", token);
  if (!classLabels) {
    if (value != 0 && value != 1)
      return Status::invalidArgument("binary label {} is not 0 or 1{}", token,
                                     value == -1 ? " (write -1 labels as 0)"
                                                 : "");
    label = static_cast<int64_t>(value);
    return Status::ok();
  }
  if (value != std::trunc(value))
    return Status::invalidArgument("class label {} is not an integer", token);
  if (value < 0)
    return Status::invalidArgument("class label {} is negative", token);
  // Larger integers are not exact as doubles (nor plausible class ids).
  if (value >= 0x1p53)
    return Status::invalidArgument("class label {} is too large", token);
  label = static_cast<int64_t>(value);
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

namespace {
/// A kind of data source.
struct Kind {
  const char *name;
  bool dense;
  bool sparse;
  /// The arguments it fills, for error messages.
  const char *expected;
};
} // namespace

static const Kind kKinds[] = {
    {"csv", true, false, "features tensor<?xDxf32> (or f64)"},
    {"libsvm", false, true,
     "ids tensor<?xKxi64>, optionally values tensor<?xKxf32> (or f64)"},
    {"synthetic", true, true,
     "features tensor<?xDxf32> (or f64) or ids tensor<?xKxi64> with optional "
     "values tensor<?xKxf32> (or f64)"},
};

/// Returns whether `feed` is a label argument, setting `classLabels` in
/// `layout`.
static bool checkLabel(const FeedSpec &feed, Layout &layout) {
  if (feed.dtype == DType::I64 && feed.shape.rank() == 1)
    layout.classLabels = true;
  else if (feed.dtype != DType::I64 && feed.shape.rank() == 2 &&
           feed.shape[1] == 1)
    layout.classLabels = false;
  else
    return false;
  return true;
}

/// Returns whether `feed` is a rank-1 i64 argument, as an id list's ids and
/// lengths are.
static bool isIdVector(const FeedSpec &feed) {
  return feed.dtype == DType::I64 && feed.shape.rank() == 1;
}

/// Returns whether `feed` is [B, N] with a static N >= 1 (and then N).
static bool isRows(const FeedSpec &feed, int64_t &width) {
  if (feed.shape.rank() != 2 || feed.shape[1] < 1)
    return false;
  width = feed.shape[1];
  return true;
}

/// Checks that `kind` can fill arguments `feeds` and describes how in
/// `layout`.
static Status checkLayout(const Kind &kind, const std::vector<FeedSpec> &feeds,
                          Layout &layout) {
  auto mismatch = [&](const std::string &reason) {
    std::vector<std::string> got;
    for (const FeedSpec &feed : feeds)
      got.push_back(describe(feed));
    return Status::invalidArgument(
        "{} data cannot fill the step arguments ({}): {}; it "
        "fills {}, then labels tensor<?xi64> (class ids) or "
        "tensor<?x1xf32> (or f64; 0/1 labels)",
        kind.name, fmt::join(got, ", "), reason, kind.expected);
  };
  if (feeds.size() < 2 || feeds.size() > 3)
    return mismatch(fmt::format("{} argument{}", feeds.size(),
                                feeds.size() == 1 ? "" : "s"));

  if (!checkLabel(feeds.back(), layout))
    return mismatch("the labels are " + describe(feeds.back()));

  const FeedSpec &first = feeds.front();
  if (!isRows(first, layout.width))
    return mismatch("the first argument is not [B, N] with a static N >= 1");
  layout.sparse = first.dtype == DType::I64;
  if (layout.sparse && !kind.sparse)
    return mismatch("the features are i64");
  if (!layout.sparse && !kind.dense)
    return mismatch("the ids are " + std::string(dtypeName(first.dtype)));

  layout.hasValues = feeds.size() == 3;
  if (layout.hasValues) {
    if (!layout.sparse)
      return mismatch("dense features take one argument");
    int64_t width;
    const FeedSpec &values = feeds[1];
    if (values.dtype == DType::I64 || !isRows(values, width) ||
        width != layout.width)
      return mismatch(
          fmt::format("the values are not [B, {}] f32 or f64", layout.width));
  }

  layout.feeds = feeds;
  layout.roles.assign(feeds.size(), FeedRole::Values);
  if (layout.sparse)
    layout.roles.front() = FeedRole::Ids;
  layout.roles.back() = FeedRole::Label;
  return Status::ok();
}

/// Checks that csv data can fill `feeds` as optional dense features, then
/// pairs of an id list's ids and lengths, then the label, and describes how
/// in `layout`.
static Status checkListLayout(const std::vector<FeedSpec> &feeds,
                              Layout &layout) {
  auto mismatch = [&](const std::string &reason) {
    std::vector<std::string> got;
    for (const FeedSpec &feed : feeds)
      got.push_back(describe(feed));
    return Status::invalidArgument(
        "csv data with id lists cannot fill the step arguments ({}): {}; it "
        "fills optional features tensor<?xDxf32> (or f64), then for each "
        "id-list column its ids tensor<?xi64> and lengths tensor<?xi64>, "
        "then labels tensor<?xi64> (class ids) or tensor<?x1xf32> (or f64; "
        "0/1 labels)",
        fmt::join(got, ", "), reason);
  };
  if (!checkLabel(feeds.back(), layout))
    return mismatch("the labels are " + describe(feeds.back()));
  layout.feeds = feeds;
  layout.roles.assign(feeds.size(), FeedRole::Values);
  layout.roles.back() = FeedRole::Label;
  size_t first = 0;
  if (feeds.front().dtype != DType::I64) {
    if (!isRows(feeds.front(), layout.width))
      return mismatch("the features are not [B, D] with a static D >= 1");
    first = 1;
  }
  size_t lists = feeds.size() - 1 - first;
  if (lists % 2 != 0)
    return mismatch(fmt::format("{} argument{} between the features and the "
                                "label do not pair up as ids and lengths",
                                lists, lists == 1 ? "" : "s"));
  for (size_t i = first; i + 1 < feeds.size(); i += 2) {
    if (!isIdVector(feeds[i]) || !isIdVector(feeds[i + 1]))
      return mismatch(fmt::format("arguments {} and {} are not ids and "
                                  "lengths tensor<?xi64>",
                                  i, i + 1));
    if (feeds[i].shape[0] >= 0)
      return mismatch(fmt::format("the ids argument {} has a static size; "
                                  "its size is that of the batch's lists",
                                  i));
    layout.roles[i] = FeedRole::ListIds;
    layout.roles[i + 1] = FeedRole::ListLengths;
    ++layout.numLists;
  }
  return Status::ok();
}

/// Returns whether `feeds` lay out csv id lists: a rank-1 i64 argument
/// before the last.
static bool hasIdLists(const std::vector<FeedSpec> &feeds) {
  return feeds.size() >= 2 &&
         std::any_of(feeds.begin(), feeds.end() - 1, isIdVector);
}

//===----------------------------------------------------------------------===//
// Opening
//===----------------------------------------------------------------------===//

std::string IdMap::format() const {
  std::string text;
  for (size_t id = 0; id < names.size(); ++id)
    text += fmt::format("{}\t{}\n", id, names[id]);
  return text;
}

bool openks::runtime::numbersNamesItself(const std::string &spec) {
  std::string_view text = spec;
  if (text.substr(0, 8) != "triples:")
    return false;
  for (size_t comma = text.find(','); comma != std::string_view::npos;
       comma = text.find(',', comma + 1)) {
    std::string_view option = trimSpace(text.substr(comma + 1));
    for (std::string_view key : {"maps=", "ids=", "format="})
      if (option.substr(0, key.size()) == key)
        return false;
  }
  return true;
}

StatusOr<std::vector<IdMap>>
openks::runtime::readIdMaps(const std::string &spec) {
  std::string_view prefix = "triples:";
  if (spec.compare(0, prefix.size(), prefix) != 0)
    return std::vector<IdMap>();
  return readTriplesIdMaps(std::string_view(spec).substr(prefix.size()));
}

Status openks::runtime::openDataSource(const std::string &spec,
                                       const std::vector<FeedSpec> &feeds,
                                       Shard shard,
                                       std::unique_ptr<DataSource> &source) {
  size_t colon = spec.find(':');
  std::string kindName = spec.substr(0, colon);
  std::string rest = colon == std::string::npos ? "" : spec.substr(colon + 1);
  const Kind *kind = std::find_if(
      std::begin(kKinds), std::end(kKinds),
      [&](const Kind &candidate) { return kindName == candidate.name; });
  if (kind == std::end(kKinds) && kindName != "triples")
    return Status::invalidArgument(
        "unknown data source '{}'; expected csv:PATH, "
        "libsvm:PATH, synthetic:key=value,... or triples:PATH[,key=value...]",
        spec);
  if (shard.count < 1 || shard.index < 0 || shard.index >= shard.count)
    return Status::invalidArgument("invalid shard: trainer {} of {}",
                                   shard.index, shard.count);
  if (kindName == "triples")
    return openTriples(rest, feeds, shard, source);

  Layout layout;
  OPENKS_RETURN_IF_ERROR(kindName == "csv" && hasIdLists(feeds)
                             ? checkListLayout(feeds, layout)
                             : checkLayout(*kind, feeds, layout));
  if (kindName == "synthetic")
    return openSynthetic(rest, std::move(layout), shard, source)
        .withContext("synthetic data");
  if (rest.empty())
    return Status::invalidArgument("{} data needs a file: {}:PATH", kindName,
                                   kindName);
  Table table;
  OPENKS_RETURN_IF_ERROR(kindName == "csv" ? readCsv(rest, layout, table)
                                           : readLibsvm(rest, layout, table));
  source = makeTableSource(std::move(layout), shard, std::move(table));
  return Status::ok();
}
