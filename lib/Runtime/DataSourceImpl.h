//===- DataSourceImpl.h - Shared parts of the data sources ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the csv, libsvm, synthetic and triples sources share: the validated
// feed layout, the batching and sharding logic (RowSource), the in-memory
// table that file sources parse into, and helpers for reading text data.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_DATASOURCEIMPL_H
#define OPENKS_LIB_RUNTIME_DATASOURCEIMPL_H

#include "openks/Runtime/DataSource.h"

#include <functional>
#include <string_view>

namespace openks::runtime::detail {

/// Returns "tensor<?x784xf32>" for `feed`.
std::string describe(const FeedSpec &feed);

/// What a step argument receives from each data row.
enum class FeedRole {
  /// Dense features, or the values of sparse features: doubles.
  Values,
  /// Sparse feature ids.
  Ids,
  /// The label.
  Label,
  /// The ids of one id-list column, the shard's lists one after another.
  ListIds,
  /// The lengths of the lists of the column of the ListIds before it.
  ListLengths,
  /// The head, relation or tail of a triple.
  Head,
  Relation,
  Tail,
  /// The heads or tails of a triple's negative samples.
  NegativeHeads,
  NegativeTails,
};

/// A feed layout checked against a kind of data (see openDataSource).
struct Layout {
  std::vector<FeedSpec> feeds;
  /// One role per feed, in order.
  std::vector<FeedRole> roles;
  /// Whether rows are sparse (ids, optional values) rather than dense.
  bool sparse = false;
  /// Whether a sparse layout has a values argument.
  bool hasValues = false;
  /// Whether labels are i64 class ids rather than 0/1 floats.
  bool classLabels = false;
  /// Features per row: D for dense rows, K for sparse ones.
  int64_t width = 0;
  /// Id-list columns per row (csv), each feeding a ListIds and a
  /// ListLengths argument.
  int64_t numLists = 0;
  /// Negative samples per triple.
  int64_t negatives = 0;
};

/// One data row as the batching logic reads it. `values` holds `width`
/// doubles (null for a sparse layout without values); `ids` holds `width`
/// ids for a sparse layout, or a triple's head, relation and tail. List `k`
/// of the row is listIds[listOffsets[k], listOffsets[k + 1]). `negatives`
/// holds a triple's negative heads, then its negative tails.
struct RowRef {
  const double *values = nullptr;
  const int64_t *ids = nullptr;
  int64_t label = 0;
  const int64_t *listIds = nullptr;
  const int64_t *listOffsets = nullptr;
  const int64_t *negatives = nullptr;
};

/// A source of a fixed number of rows that handles sharding, wrap-around and
/// epochs; subclasses only produce rows by index.
class RowSource : public DataSource {
public:
  /// Serves `numRows` (at least 1) rows laid out as `layout` to `shard`.
  RowSource(Layout layout, Shard shard, int64_t numRows);

  Status next(int64_t globalBatch, const std::vector<Tensor *> &feeds) final;
  Status skip(int64_t globalBatch, int64_t batches) final;
  int64_t epoch() const final { return epoch_; }
  std::optional<int64_t> rowsPerEpoch() const final { return numRows_; }

protected:
  const Layout &layout() const { return layout_; }

  /// Returns data row `index` (in [0, numRows)), served as row `position`
  /// of the stream of all rows served so far in every shard (`index` plus
  /// numRows times the complete passes before it), which sources that draw
  /// random numbers per row count by; the pointers stay valid until the
  /// next call.
  virtual RowRef row(int64_t index, int64_t position) = 0;

private:
  /// Checks that a global batch of `globalBatch` rows can be shared.
  Status checkGlobalBatch(int64_t globalBatch) const;
  /// Advances the cursor and epoch past `rows` rows.
  void advance(int64_t rows);
  /// Checks `feeds` against the layout for a shard of `rows` rows.
  Status checkFeeds(const std::vector<Tensor *> &feeds, int64_t rows,
                    int64_t globalBatch) const;

  Layout layout_;
  Shard shard_;
  int64_t numRows_;
  /// The data row at which the next global batch starts.
  int64_t cursor_ = 0;
  int64_t epoch_ = 0;
};

/// Rows parsed from a file: `width` values and/or ids per row, row-major,
/// one label per row, and `numLists` id lists per row: list k of row r is
/// listIds[listOffsets[r * numLists + k], listOffsets[r * numLists + k + 1]).
struct Table {
  std::vector<double> values;
  std::vector<int64_t> ids;
  std::vector<int64_t> labels;
  std::vector<int64_t> listIds;
  std::vector<int64_t> listOffsets = {0};
};

/// Returns a source serving the rows of `table`, which must hold at least
/// one row.
std::unique_ptr<DataSource> makeTableSource(Layout layout, Shard shard,
                                            Table table);

/// Returns `text` without leading and trailing blanks (spaces, tabs, '\r').
std::string_view trimSpace(std::string_view text);

/// Calls `parseRow` on every data line of the text file `path` (trimmed;
/// blank lines and lines starting with '#' skipped) and puts "PATH:LINE: "
/// in front of its errors. Fails when the file cannot be read or holds no
/// data line.
Status forEachDataLine(const std::string &path,
                       const std::function<Status(std::string_view)> &parseRow);

/// Parses all of `token` as a finite number.
Status parseNumber(std::string_view token, double &value);

/// Parses all of `token` as an integer.
Status parseInteger(std::string_view token, int64_t &value);

/// Parses a label: a non-negative integer class id for class labels, 0 or 1
/// for binary ones.
Status parseLabel(std::string_view token, bool classLabels, int64_t &label);

/// Parses the csv file `path` into `table`.
Status readCsv(const std::string &path, const Layout &layout, Table &table);

/// Parses the libsvm file `path` into `table`, padding rows to the width.
Status readLibsvm(const std::string &path, const Layout &layout, Table &table);

/// Calls `parseOption` on each key and value of the comma-separated
/// "key=value" items of `options` (both trimmed); fails on an item without
/// '=' and on a key given twice.
Status forEachOption(
    std::string_view options,
    const std::function<Status(std::string_view key, std::string_view value)>
        &parseOption);

/// Opens a synthetic source from its comma-separated `options`.
Status openSynthetic(std::string_view options, Layout layout, Shard shard,
                     std::unique_ptr<DataSource> &source);

/// Opens a triples source from "PATH[,key=value...]" for the feeds
/// `feeds`.
Status openTriples(std::string_view spec, const std::vector<FeedSpec> &feeds,
                   Shard shard, std::unique_ptr<DataSource> &source);

/// Returns the entity and relation maps of the triples of "PATH[,key=value
/// ...]"; nothing for integer ids.
StatusOr<std::vector<IdMap>> readTriplesIdMaps(std::string_view spec);

} // namespace openks::runtime::detail

#endif // OPENKS_LIB_RUNTIME_DATASOURCEIMPL_H
