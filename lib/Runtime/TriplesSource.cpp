//===- TriplesSource.cpp - Knowledge-graph triples with negatives ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses "head<TAB>relation<TAB>tail" lines, as FB15k and WN18 ship them
// (or the columns in another order, or OpenKE's train2id.txt), into id
// triples, numbering names by first appearance or by the id maps of an
// earlier run, and corrupts each served triple into negative samples. A
// negative is drawn from Philox keyed by the seed and counted by the triple's
// position in the stream of served rows, so every shard draws what one process
// would.
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"
#include "openks/Runtime/Random.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
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
  /// Whether the fields are integer ids rather than names; none until given.
  std::optional<bool> integerIds;
  /// Whether the file is OpenKE's: a count line, then "head tail relation"
  /// integer ids separated by blanks.
  bool openKE = false;
  /// The column of the head, the relation and the tail; none until given.
  std::optional<std::array<int, 3>> columns;
  /// The directory of entities.tsv and relations.tsv to number names by,
  /// if given.
  std::string maps;
  /// The entity and relation counts; -1 until given or read.
  int64_t entities = -1;
  int64_t relations = -1;
};

/// Numbers the names of entities or relations in order of first appearance,
/// or as an id map file says.
class Vocabulary {
public:
  /// Returns the id of `name`, numbering it if new; nothing when the
  /// numbering was read from a map that lacks it.
  std::optional<int64_t> idOf(std::string_view name) {
    if (!map_.empty()) {
      auto it = ids_.find(std::string(name));
      return it == ids_.end() ? std::nullopt
                              : std::optional<int64_t>(it->second);
    }
    auto [it, inserted] =
        ids_.try_emplace(std::string(name), static_cast<int64_t>(ids_.size()));
    return it->second;
  }
  int64_t size() const { return static_cast<int64_t>(ids_.size()); }
  /// Returns the names in id order.
  std::vector<std::string> names() const {
    std::vector<std::string> names(ids_.size());
    for (const auto &[name, id] : ids_)
      names[id] = name;
    return names;
  }
  /// Returns the map file the numbering was read from, if any.
  const std::string &map() const { return map_; }

  /// Reads the numbering from `path`, "id<TAB>name" lines (DGL-KE's
  /// entities.tsv and relations.tsv) giving the ids 0 to N - 1 once each.
  Status read(const std::string &path) {
    std::vector<char> seen;
    OPENKS_RETURN_IF_ERROR(forEachDataLine(path, [&](std::string_view line) {
      size_t tab = line.find('\t');
      if (tab == std::string_view::npos)
        return Status::invalidArgument("expected id<TAB>name");
      std::string_view name = trimSpace(line.substr(tab + 1));
      int64_t id = 0;
      if (!parseInteger(trimSpace(line.substr(0, tab)), id).isOk() || id < 0 ||
          id >= kMaxTensorElements)
        return Status::invalidArgument("'{}' is not an id",
                                       trimSpace(line.substr(0, tab)));
      if (name.empty())
        return Status::invalidArgument("id {} has no name", id);
      if (static_cast<size_t>(id) >= seen.size())
        seen.resize(id + 1);
      if (seen[id])
        return Status::invalidArgument("id {} is given twice", id);
      seen[id] = true;
      if (!ids_.try_emplace(std::string(name), id).second)
        return Status::invalidArgument("'{}' is given twice", name);
      return Status::ok();
    }));
    auto gap = std::find(seen.begin(), seen.end(), false);
    if (gap != seen.end())
      return Status::invalidArgument(
          "{}: id {} is missing: the ids must be 0 to {}", path,
          gap - seen.begin(), seen.size() - 1);
    map_ = path;
    return Status::ok();
  }

private:
  std::unordered_map<std::string, int64_t> ids_;
  std::string map_;
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
        if (key == "order") {
          if (value == "hrt")
            options.columns = {0, 1, 2};
          else if (value == "htr")
            options.columns = {0, 2, 1};
          else
            return Status::invalidArgument("order must be hrt or htr, got '{}'",
                                           value);
          return Status::ok();
        }
        if (key == "format") {
          if (value != "tsv" && value != "openke")
            return Status::invalidArgument(
                "format must be tsv or openke, got '{}'", value);
          options.openKE = value == "openke";
          return Status::ok();
        }
        if (key == "maps") {
          if (value.empty())
            return Status::invalidArgument("maps needs a directory");
          options.maps = std::string(value);
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
              "order, format, maps, entities or relations)",
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

/// Splits a data line into its three fields, in the file's order: tab
/// separated, or blank separated in OpenKE's files. `expected` describes a
/// line for errors.
static Status splitFields(std::string_view line, const TriplesOptions &options,
                          const std::string &expected,
                          std::array<std::string_view, 3> &fields) {
  if (!options.openKE) {
    int64_t tabs = std::count(line.begin(), line.end(), '\t');
    if (tabs != 2)
      return Status::invalidArgument(
          "expected {}, got {} tab-separated field{}", expected, tabs + 1,
          tabs == 0 ? "" : "s");
    for (std::string_view &field : fields) {
      size_t tab = std::min(line.find('\t'), line.size());
      field = trimSpace(line.substr(0, tab));
      line.remove_prefix(std::min(tab + 1, line.size()));
    }
    return Status::ok();
  }
  size_t count = 0;
  while (!(line = trimSpace(line)).empty()) {
    size_t end = std::min(line.find_first_of(" \t"), line.size());
    if (count < fields.size())
      fields[count] = line.substr(0, end);
    ++count;
    line.remove_prefix(end);
  }
  if (count != fields.size())
    return Status::invalidArgument("expected {}, got {} field{}", expected,
                                   count, count == 1 ? "" : "s");
  return Status::ok();
}

/// Reads the triples of `path` into `triples`, numbering names (by first
/// appearance or by the maps) in `entities` and `relations` or taking
/// integer ids, and sets the entity and relation counts in `options`.
static Status readTriples(const std::string &path, TriplesOptions &options,
                          std::vector<int64_t> &triples, Vocabulary &entities,
                          Vocabulary &relations) {
  if (!options.maps.empty()) {
    OPENKS_RETURN_IF_ERROR(entities.read(options.maps + "/entities.tsv"));
    OPENKS_RETURN_IF_ERROR(relations.read(options.maps + "/relations.tsv"));
  }
  int64_t entityLimit =
      options.entities > 0 ? options.entities : kMaxTensorElements;
  int64_t relationLimit =
      options.relations > 0 ? options.relations : kMaxTensorElements;
  int64_t maxEntity = -1, maxRelation = -1;
  const char *kNames[] = {"head", "relation", "tail"};
  std::array<int, 3> columns = *options.columns;
  std::string expected;
  for (int column = 0; column < 3; ++column)
    expected += std::string(column ? (options.openKE ? " " : "<TAB>") : "") +
                kNames[std::find(columns.begin(), columns.end(), column) -
                       columns.begin()];
  // OpenKE's files begin with their count of triples.
  std::optional<int64_t> declared;
  OPENKS_RETURN_IF_ERROR(forEachDataLine(path, [&](std::string_view line) {
    if (options.openKE && !declared) {
      int64_t count = 0;
      if (!parseInteger(line, count).isOk() || count < 0)
        return Status::invalidArgument(
            "expected the count of triples that OpenKE's files begin with, "
            "got '{}'",
            line);
      declared = count;
      return Status::ok();
    }
    std::array<std::string_view, 3> fields;
    OPENKS_RETURN_IF_ERROR(splitFields(line, options, expected, fields));
    int64_t ids[3];
    for (int part = 0; part < 3; ++part) {
      std::string_view field = fields[columns[part]];
      if (field.empty())
        return Status::invalidArgument("the {} is empty", kNames[part]);
      bool relation = part == 1;
      if (*options.integerIds) {
        OPENKS_RETURN_IF_ERROR(
            parseId(field, relation ? relationLimit : entityLimit, ids[part])
                .withContext(kNames[part]));
        continue;
      }
      Vocabulary &names = relation ? relations : entities;
      std::optional<int64_t> id = names.idOf(field);
      if (!id)
        return Status::invalidArgument("{} '{}' is not in {}", kNames[part],
                                       field, names.map());
      ids[part] = *id;
      if (names.size() > (relation ? relationLimit : entityLimit))
        return Status::invalidArgument(
            "{} '{}' makes {} distinct {}, more than {}={}", kNames[part],
            field, names.size(), relation ? "relations" : "entities",
            relation ? "relations" : "entities",
            relation ? relationLimit : entityLimit);
    }
    maxEntity = std::max({maxEntity, ids[0], ids[2]});
    maxRelation = std::max(maxRelation, ids[1]);
    triples.insert(triples.end(), ids, ids + 3);
    return Status::ok();
  }));
  if (declared && *declared != static_cast<int64_t>(triples.size() / 3))
    return Status::invalidArgument(
        "{}: the first line counts {} triples, but the file holds {}", path,
        *declared, triples.size() / 3);
  // With maps, every entity and relation they name counts.
  if (options.entities < 0)
    options.entities = options.maps.empty() ? maxEntity + 1 : entities.size();
  if (options.relations < 0)
    options.relations =
        options.maps.empty() ? maxRelation + 1 : relations.size();
  return Status::ok();
}

/// Parses "PATH[,key=value...]" into `path` and `options`, the options a
/// file's layout implies filled in.
static Status parseTriplesSpec(std::string_view spec, std::string &path,
                               TriplesOptions &options) {
  size_t comma = spec.find(',');
  path = std::string(trimSpace(spec.substr(0, comma)));
  if (path.empty())
    return Status::invalidArgument(
        "triples data needs a file: triples:PATH[,key=value...]");
  if (comma != std::string_view::npos)
    OPENKS_RETURN_IF_ERROR(parseOptions(spec.substr(comma + 1), options)
                               .withContext("triples data"));
  if (options.openKE && !options.integerIds.value_or(true))
    return Status::invalidArgument(
        "triples data: OpenKE's files hold integer ids, not names");
  if (!options.integerIds)
    options.integerIds = options.openKE;
  if (!options.maps.empty() && *options.integerIds)
    return Status::invalidArgument(
        "triples data: maps number names, and ids=integers has none");
  if (!options.columns)
    options.columns = options.openKE ? std::array<int, 3>{0, 2, 1}
                                     : std::array<int, 3>{0, 1, 2};
  return Status::ok();
}

Status openks::runtime::detail::openTriples(
    std::string_view spec, const std::vector<FeedSpec> &feeds, Shard shard,
    std::unique_ptr<DataSource> &source) {
  std::string path;
  TriplesOptions options;
  OPENKS_RETURN_IF_ERROR(parseTriplesSpec(spec, path, options));
  Layout layout;
  OPENKS_RETURN_IF_ERROR(checkTriplesLayout(feeds, options, layout));
  std::vector<int64_t> triples;
  Vocabulary entities, relations;
  OPENKS_RETURN_IF_ERROR(
      readTriples(path, options, triples, entities, relations));
  if (layout.negatives > 0 && options.entities < 2)
    return Status::invalidArgument(
        "{} names one entity; negative sampling needs at least two", path);
  source = std::make_unique<TriplesSource>(std::move(layout), shard,
                                           std::move(triples), options);
  return Status::ok();
}

StatusOr<std::vector<IdMap>>
openks::runtime::detail::readTriplesIdMaps(std::string_view spec) {
  std::string path;
  TriplesOptions options;
  OPENKS_RETURN_IF_ERROR(parseTriplesSpec(spec, path, options));
  if (*options.integerIds)
    return std::vector<IdMap>();
  std::vector<int64_t> triples;
  Vocabulary entities, relations;
  OPENKS_RETURN_IF_ERROR(
      readTriples(path, options, triples, entities, relations));
  return std::vector<IdMap>{{"entities.tsv", entities.names()},
                            {"relations.tsv", relations.names()}};
}
