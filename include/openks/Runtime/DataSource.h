//===- DataSource.h - Mini-batches from files or a generator ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds the arguments of a `train.step` with mini-batches. A source is opened
// from a spec string:
//
//   csv:PATH        one row per line: the features, then the label (and
//                   optionally '|'-separated id lists in between)
//   libsvm:PATH     "label id:value id:value ...", the CTR convention
//   synthetic:k=v,...  a deterministic teacher network (see below)
//   triples:PATH[,k=v...]  "head<TAB>relation<TAB>tail" knowledge-graph
//                   triples, with seeded negative sampling
//
// and from the step's feed layout (FeedSpec per argument). Sources give
// trainer t of T its own shard: of each global batch of B rows, trainer t
// gets rows [t * B / T, (t + 1) * B / T), so T trainers together see exactly
// the rows one process would. When T does not divide B the shards differ by
// at most one row, the later ones getting the extra rows (B = 10, T = 3
// gives 3, 3 and 4 rows); B must be at least T. Every trainer advances
// through the data by the whole global batch, and at the end of the data a
// source starts over (the next epoch), so a dataset smaller than a batch is
// fine. File sources parse the whole file when opened; malformed rows are
// errors naming the file and line.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_DATASOURCE_H
#define OPENKS_RUNTIME_DATASOURCE_H

#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace openks::runtime {

/// The element type and shape of one step argument; dimension 0 is the
/// batch and may be -1 (dynamic).
struct FeedSpec {
  DType dtype;
  Shape shape;
};

/// The longest line a csv or libsvm file may have, in bytes (1 MiB).
inline constexpr int64_t kMaxLineBytes = int64_t(1) << 20;

/// Which part of every global batch this process reads.
struct Shard {
  int index = 0;
  int count = 1;
};

/// A stream of mini-batches laid out as step arguments.
class DataSource {
public:
  virtual ~DataSource();

  /// Fills `feeds` (one tensor per FeedSpec, in order, of the FeedSpec's
  /// dtype) with this shard's part of the next global batch of
  /// `globalBatch` rows, resizing each to its row count; this allocates only
  /// when a tensor's capacity is too small. Rows are taken in order and wrap
  /// around at the end of the data. Fails when a FeedSpec has a static batch
  /// other than the shard's row count.
  virtual Status next(int64_t globalBatch,
                      const std::vector<Tensor *> &feeds) = 0;

  /// Moves past the next `batches` global batches of `globalBatch` rows as
  /// if next() had read them, for a run that resumes after them. The
  /// default fails: a source that cannot skip cannot resume.
  virtual Status skip(int64_t globalBatch, int64_t batches);

  /// Returns the number of complete passes over the data so far, counted
  /// in global batches (the same in every shard).
  virtual int64_t epoch() const = 0;

  /// Returns the rows of one pass over the data, all shards together, or
  /// nothing when the source does not know.
  virtual std::optional<int64_t> rowsPerEpoch() const { return std::nullopt; }
};

/// The numbering of one kind of names: `names[i]` has the id i.
struct IdMap {
  /// The file the map is kept in: "entities.tsv" or "relations.tsv".
  std::string fileName;
  std::vector<std::string> names;

  /// Returns the text of the map's file: one "ID<TAB>NAME" line per name, in
  /// id order (DGL-KE's layout, which triples data reads with `maps`).
  std::string format() const;
};

/// Returns the id maps by which the source of `spec` numbers the names in
/// its data: for triples of names, the entities and the relations (as read
/// from `maps`, or numbered by first appearance); nothing for other data.
/// Fails as opening the source would on a bad spec or file.
StatusOr<std::vector<IdMap>> readIdMaps(const std::string &spec);

/// Returns whether `spec` is triples data that leaves the numbering of its
/// names to the source: it sets none of `maps`, `ids` and `format`.
bool numbersNamesItself(const std::string &spec);

/// Opens the source described by `spec` for the feed layout `feeds` and the
/// shard `shard`. Layouts:
///
/// * csv: features [B, D] (f32 or f64), then the label: [B] i64 class ids
///   (non-negative integers) or [B, 1] float binary labels (0 or 1). A row
///   has D + 1 numbers separated by commas; blank lines and lines starting
///   with '#' are skipped.
/// * libsvm: ids [B, K] i64, optionally values [B, K] (f32 or f64), then the
///   label as above. A row has a label and at most K blank-separated
///   "id:value" pairs with ids >= 0; a row with fewer is padded with id 0
///   and value 0. Without a values argument the values are read but not
///   fed. Blank lines and '#' lines are skipped as in csv.
/// * synthetic: either csv's or libsvm's layout, generated from `seed`
///   (default 1) for `rows` rows (default 10000) by a fixed random teacher:
///   features are uniform in [-1, 1), ids uniform in [0, `vocab`) (default
///   1000); a class label is the argmax over `classes` (default 2) teacher
///   logits, a binary label whether the teacher logit is positive. Row r
///   depends only on the seed and r. Options are comma-separated key=value
///   pairs; `classes` needs class labels and `vocab` ids.
///
/// * csv with id lists: optional features [B, D], then for each id-list
///   column its ids [N] i64 (dynamic: all the batch's lists of the column
///   one after another) and lengths [B] i64, then the label. A row has the D
///   numbers, one field per list ('|'-separated ids >= 0, empty for an
///   empty list) and the label, comma-separated. These are the operands of
///   train.embedding_pool and train.sequence_pool.
/// * triples: heads, relations and tails [B] i64, optionally followed by
///   negative heads and tails, [B] i64 for one negative per triple or
///   [B, N] i64 for N. A row is "head<TAB>relation<TAB>tail"; names are
///   numbered by first appearance (entities and relations apart, reading
///   each line head, relation, tail), or with `ids=integers` taken as ids.
///   Each negative replaces the head or the tail (probability 1/2 each, or
///   as `corrupt=head|tail` says) by another entity drawn uniformly from
///   [0, `entities`); negative j of the row served p-th (over all shards
///   and epochs) is drawn by Philox keyed by `seed` (default 1) at counter
///   p * N + j, so it does not depend on the shard. Options: `negatives`,
///   `seed`, `corrupt`, `ids`, `order` (hrt or htr), `format` (tsv or
///   openke), `maps` (a directory of entities.tsv and relations.tsv id maps
///   that number the names), `entities`, `relations` (docs/Runtime.md).
///
/// D and K must be static; the batch dimension may be static or dynamic.
/// Fails with a message when the spec, the shard, the layout or the file is
/// invalid.
Status openDataSource(const std::string &spec,
                      const std::vector<FeedSpec> &feeds, Shard shard,
                      std::unique_ptr<DataSource> &source);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_DATASOURCE_H
