//===- TriplesSource.cpp - Knowledge-graph triples with negatives ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses "head<TAB>relation<TAB>tail" lines, as FB15k and WN18 ship them,
// into id triples, numbering names by first appearance, and corrupts each
// served triple into negative samples. A negative is drawn from Philox
// keyed by the seed and counted by the triple's position in the stream of
// served rows, so every shard draws what one process would.
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"
#include "openks/Runtime/Random.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::detail;

namespace {
/// Which side of a triple its negatives replace.
enum class Corrupt { Both, Head, Tail };

/// The spec's options.
struct TriplesOptions {
  int64_t seed = 1;
  /// Negatives per triple; -1 until given or taken from the feeds.
  int64_t negatives = -1;
  Corrupt corrupt = Corrupt::Both;
  /// Whether the fields are integer ids rather than names.
  bool integerIds = false;
  /// The entity and relation counts; -1 until given or read.
  int64_t entities = -1;
  int64_t relations = -1;
};

/// Numbers the names of entities or relations in order of first appearance.
class Vocabulary {
public:
  /// Returns the id of `name`, numbering it if new.
  int64_t idOf(std::string_view name) {
    auto [it, inserted] =
        ids_.try_emplace(std::string(name), static_cast<int64_t>(ids_.size()));
    return it->second;
  }
  int64_t size() const { return static_cast<int64_t>(ids_.size()); }

private:
  std::unordered_map<std::string, int64_t> ids_;
};

/// Serves the triples and their negatives.
class TriplesSource final : public RowSource {
public:
  TriplesSource(Layout layout, Shard shard, std::vector<int64_t> triples,
                const TriplesOptions &options)
      : RowSource(std::move(layout), shard,
                  static_cast<int64_t>(triples.size() / 3)),
        triples_(std::move(triples)), philox_(options.seed),
        corrupt_(options.corrupt), entities_(options.entities),
        negatives_(2 * this->layout().negatives) {}

protected:
  RowRef row(int64_t index, int64_t position) override;

private:
  std::vector<int64_t> triples_;
  Philox philox_;
  Corrupt corrupt_;
  int64_t entities_;
  /// The current row's negative heads, then tails.
  std::vector<int64_t> negatives_;
};
} // namespace

RowRef TriplesSource::row(int64_t index, int64_t position) {
  const int64_t *triple = triples_.data() + 3 * index;
  int64_t count = layout().negatives;
  for (int64_t j = 0; j < count; ++j) {
    uint64_t counter = static_cast<uint64_t>(position * count + j);
    bool head = corrupt_ == Corrupt::Head ||
                (corrupt_ == Corrupt::Both && philox_.uniform(counter) < 0.5);
    // Any entity but the one replaced, uniformly.
    int64_t original = triple[head ? 0 : 2];
    auto other = static_cast<int64_t>(
        philox_.uniform(counter, 0, /*second=*/true) * (entities_ - 1));
    int64_t entity = other < original ? other : other + 1;
    negatives_[j] = head ? entity : triple[0];
    negatives_[count + j] = head ? triple[2] : entity;
  }
  RowRef data;
  data.ids = triple;
  data.negatives = negatives_.data();
  return data;
}

/// Parses "key=value,..." into `options`.
static Status parseOptions(std::string_view text, TriplesOptions &options) {
  return forEachOption(
      text, [&](std::string_view key, std::string_view value) -> Status {
        if (key == "corrupt") {
          if (value == "both" || value == "head" || value == "tail") {
            options.corrupt = value == "both"   ? Corrupt::Both
                              : value == "head" ? Corrupt::Head
                                                : Corrupt::Tail;
            return Status::ok();
          }
          return Status::invalidArgument(
              "corrupt must be both, head or tail, got '{}'", value);
        }
        if (key == "ids") {
          if (value != "names" && value != "integers")
            return Status::invalidArgument(
                "ids must be names or integers, got '{}'", value);
          options.integerIds = value == "integers";
          return Status::ok();
        }
        struct Integer {
          const char *key;
          int64_t *value;
          int64_t min, max;
        };
        // At most 2^20 negatives per triple keeps the draw counters exact.
        const Integer integers[] = {
            {"seed", &options.seed, 0, std::numeric_limits<int64_t>::max()},
            {"negatives", &options.negatives, 1, int64_t(1) << 20},
            {"entities", &options.entities, 2, kMaxTensorElements},
            {"relations", &options.relations, 1, kMaxTensorElements}};
        const Integer *option = std::find_if(
            std::begin(integers), std::end(integers),
            [&](const Integer &candidate) { return key == candidate.key; });
        if (option == std::end(integers))
          return Status::invalidArgument(
              "unknown option '{}' (expected negatives, seed, corrupt, ids, "
              "entities or relations)",
              key);
        if (!parseInteger(value, *option->value).isOk() ||
            *option->value < option->min || *option->value > option->max)
          return Status::invalidArgument(
              "{} must be an integer in [{}, {}], got '{}'", key, option->min,
              option->max, value);
        return Status::ok();
      });
}

/// Checks that triples can fill `feeds` with `options.negatives` negatives
/// (taking the count from them when not given) and describes how in
/// `layout`.
static Status checkTriplesLayout(const std::vector<FeedSpec> &feeds,
                                 TriplesOptions &options, Layout &layout) {
  auto mismatch = [&](const std::string &reason) {
    std::vector<std::string> got;
    for (const FeedSpec &feed : feeds)
      got.push_back(describe(feed));
    return Status::invalidArgument(
        "triples data cannot fill the step arguments ({}): {}; it fills "
        "heads, relations and tails tensor<?xi64>, then optionally negative "
        "heads and tails tensor<?xi64> (one negative) or tensor<?xNxi64>",
        fmt::join(got, ", "), reason);
  };
  if (feeds.size() != 3 && feeds.size() != 5)
    return mismatch(fmt::format("{} argument{}", feeds.size(),
                                feeds.size() == 1 ? "" : "s"));
  for (size_t i = 0; i < feeds.size(); ++i) {
    const FeedSpec &feed = feeds[i];
    bool ids = feed.dtype == DType::I64 &&
               (feed.shape.rank() == 1 || (i >= 3 && feed.shape.rank() == 2));
    if (!ids)
      return mismatch(fmt::format("argument {} is not i64 ids", i));
  }
  layout.feeds = feeds;
  layout.roles = {FeedRole::Head, FeedRole::Relation, FeedRole::Tail};
  if (feeds.size() == 3) {
    if (options.negatives > 0)
      return mismatch(fmt::format("negatives={} needs negative heads and "
                                  "tails arguments",
                                  options.negatives));
    return Status::ok();
  }
  layout.roles.push_back(FeedRole::NegativeHeads);
  layout.roles.push_back(FeedRole::NegativeTails);
  if (feeds[3].shape != feeds[4].shape)
    return mismatch("the negative heads and tails differ in shape");
  int64_t width = feeds[3].shape.rank() == 1 ? 1 : feeds[3].shape[1];
  if (width < 1)
    return mismatch("the negatives per triple are not static");
  if (options.negatives < 0)
    options.negatives = width;
  if (options.negatives != width)
    return mismatch(fmt::format("negatives={} but the negative arguments "
                                "hold {} per triple",
                                options.negatives, width));
  layout.negatives = options.negatives;
  return Status::ok();
}

/// Parses an integer id field, below `limit`.
static Status parseId(std::string_view field, int64_t limit, int64_t &id) {
  if (!parseInteger(field, id).isOk() || id < 0)
    return Status::invalidArgument("'{}' is not an integer id >= 0", field);
  if (id >= limit)
    return Status::invalidArgument("id {} is too large: ids must be below {}",
                                   id, limit);
  return Status::ok();
}

/// Reads the triples of `path` into `triples`, numbering names or taking
/// integer ids, and sets the entity and relation counts in `options`.
static Status readTriples(const std::string &path, TriplesOptions &options,
                          std::vector<int64_t> &triples) {
  Vocabulary entities, relations;
  int64_t entityLimit =
      options.entities > 0 ? options.entities : kMaxTensorElements;
  int64_t relationLimit =
      options.relations > 0 ? options.relations : kMaxTensorElements;
  int64_t maxEntity = -1, maxRelation = -1;
  OPENKS_RETURN_IF_ERROR(forEachDataLine(path, [&](std::string_view line) {
    int64_t tabs = std::count(line.begin(), line.end(), '\t');
    if (tabs != 2)
      return Status::invalidArgument(
          "expected head<TAB>relation<TAB>tail, got {} tab-separated field{}",
          tabs + 1, tabs == 0 ? "" : "s");
    std::string_view fields[3];
    for (std::string_view &field : fields) {
      size_t tab = std::min(line.find('\t'), line.size());
      field = trimSpace(line.substr(0, tab));
      line.remove_prefix(std::min(tab + 1, line.size()));
    }
    const char *kNames[] = {"head", "relation", "tail"};
    int64_t ids[3];
    for (int field = 0; field < 3; ++field) {
      if (fields[field].empty())
        return Status::invalidArgument("the {} is empty", kNames[field]);
      bool relation = field == 1;
      if (options.integerIds) {
        OPENKS_RETURN_IF_ERROR(parseId(fields[field],
                                       relation ? relationLimit : entityLimit,
                                       ids[field])
                                   .withContext(kNames[field]));
      } else {
        ids[field] = relation ? relations.idOf(fields[field])
                              : entities.idOf(fields[field]);
        int64_t count = relation ? relations.size() : entities.size();
        if (count > (relation ? relationLimit : entityLimit))
          return Status::invalidArgument(
              "{} '{}' makes {} distinct {}, more than {}={}", kNames[field],
              fields[field], count, relation ? "relations" : "entities",
              relation ? "relations" : "entities",
              relation ? relationLimit : entityLimit);
      }
    }
    maxEntity = std::max({maxEntity, ids[0], ids[2]});
    maxRelation = std::max(maxRelation, ids[1]);
    triples.insert(triples.end(), ids, ids + 3);
    return Status::ok();
  }));
  if (options.entities < 0)
    options.entities = maxEntity + 1;
  if (options.relations < 0)
    options.relations = maxRelation + 1;
  return Status::ok();
}

Status openks::runtime::detail::openTriples(
    std::string_view spec, const std::vector<FeedSpec> &feeds, Shard shard,
    std::unique_ptr<DataSource> &source) {
  size_t comma = spec.find(',');
  std::string path(trimSpace(spec.substr(0, comma)));
  if (path.empty())
    return Status::invalidArgument(
        "triples data needs a file: triples:PATH[,key=value...]");
  TriplesOptions options;
  if (comma != std::string_view::npos)
    OPENKS_RETURN_IF_ERROR(parseOptions(spec.substr(comma + 1), options)
                               .withContext("triples data"));
  Layout layout;
  OPENKS_RETURN_IF_ERROR(checkTriplesLayout(feeds, options, layout));
  std::vector<int64_t> triples;
  OPENKS_RETURN_IF_ERROR(readTriples(path, options, triples));
  if (layout.negatives > 0 && options.entities < 2)
    return Status::invalidArgument(
        "{} names one entity; negative sampling needs at least two", path);
  source = std::make_unique<TriplesSource>(std::move(layout), shard,
                                           std::move(triples), options);
  return Status::ok();
}
