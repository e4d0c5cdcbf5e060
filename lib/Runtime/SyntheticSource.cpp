//===- SyntheticSource.cpp - Rows labelled by a random teacher ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Generates rows on demand. Every number is drawn from Philox keyed by the
// seed and counted by the row index, so row r is the same in every process
// and for every batch size and shard. The label comes from a fixed random
// linear teacher: logits[c] = sum_j value_j * W[input_j, c], where input_j is
// feature j for dense rows and id j for sparse ones (whose value is 1 when
// the layout has no values). Class labels are the argmax of `classes`
// logits, binary labels whether a single logit is positive: a linear model,
// and so a small MLP, can learn either exactly.
//
//===----------------------------------------------------------------------===//

#include "DataSourceImpl.h"
#include "openks/Runtime/Random.h"
#include "openks/Support/Limits.h"

#include <Eigen/Core>
#include <algorithm>
#include <limits>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::detail;

namespace {
/// The spec's options.
struct SyntheticOptions {
  int64_t seed = 1;
  int64_t rows = 10000;
  int64_t classes = 2;
  int64_t vocab = 1000;
};

/// What a Philox stream draws; the stream's low word is an element index.
enum class Draw : uint64_t { Values = 1, Ids = 2, Teacher = 3 };

/// Generates the rows.
class SyntheticSource final : public RowSource {
public:
  SyntheticSource(Layout layout, Shard shard, const SyntheticOptions &options);

protected:
  RowRef row(int64_t index, int64_t position) override;

private:
  using Matrix =
      Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

  /// Returns the Philox stream of element `element` of `draw`.
  static uint64_t stream(Draw draw, uint64_t element) {
    return static_cast<uint64_t>(draw) << 32 | element;
  }

  Philox philox_;
  int64_t vocab_;
  /// The dense teacher, [logits, width] with unit rows (so that no class
  /// dominates); a sparse teacher's weights are drawn per id as needed.
  Matrix denseTeacher_;
  /// The current row and its teacher logits: the classes, or one logit for
  /// binary labels.
  std::vector<double> values_;
  std::vector<int64_t> ids_;
  Eigen::VectorXd logits_;
};
} // namespace

SyntheticSource::SyntheticSource(Layout layout, Shard shard,
                                 const SyntheticOptions &options)
    : RowSource(std::move(layout), shard, options.rows),
      philox_(static_cast<uint64_t>(options.seed)), vocab_(options.vocab),
      logits_(this->layout().classLabels ? options.classes : 1) {
  int64_t width = this->layout().width;
  if (this->layout().sparse)
    ids_.resize(width);
  if (!this->layout().sparse || this->layout().hasValues)
    values_.resize(width);
  if (this->layout().sparse)
    return;
  denseTeacher_.resize(logits_.size(), width);
  for (int64_t output = 0; output < logits_.size(); ++output)
    for (int64_t input = 0; input < width; ++input)
      denseTeacher_(output, input) =
          philox_.normal(input, stream(Draw::Teacher, output));
  denseTeacher_.rowwise().normalize();
}

RowRef SyntheticSource::row(int64_t index, int64_t /*position*/) {
  // Values take 24 bits each, four to a Philox block: exact in f32.
  int64_t width = layout().width;
  int64_t numValues = static_cast<int64_t>(values_.size());
  for (int64_t block = 0; block * 4 < numValues; ++block) {
    Philox::Block bits = philox_(index, stream(Draw::Values, block));
    for (int64_t k = 0; k < 4 && block * 4 + k < numValues; ++k)
      values_[block * 4 + k] = (bits[k] >> 8) * 0x1p-23 - 1;
  }
  for (size_t j = 0; j < ids_.size(); ++j) {
    Philox::Block bits = philox_(index, stream(Draw::Ids, j));
    uint64_t word = static_cast<uint64_t>(bits[0]) << 32 | bits[1];
    ids_[j] = static_cast<int64_t>(word % static_cast<uint64_t>(vocab_));
  }

  if (ids_.empty()) {
    logits_.noalias() = denseTeacher_ * Eigen::Map<const Eigen::VectorXd>(
                                            values_.data(), width);
  } else {
    logits_.setZero();
    for (int64_t j = 0; j < width; ++j) {
      double value = values_.empty() ? 1.0 : values_[j];
      for (int64_t output = 0; output < logits_.size(); ++output)
        logits_[output] +=
            value * philox_.normal(ids_[j], stream(Draw::Teacher, output));
    }
  }

  RowRef data;
  data.values = values_.empty() ? nullptr : values_.data();
  data.ids = ids_.empty() ? nullptr : ids_.data();
  if (logits_.size() == 1)
    data.label = logits_[0] > 0;
  else
    logits_.maxCoeff(&data.label);
  return data;
}

/// Parses "key=value,..." into `options`, checking them against `layout`.
static Status parseOptions(std::string_view text, const Layout &layout,
                           SyntheticOptions &options) {
  struct Option {
    const char *key;
    int64_t *value;
    int64_t min, max;
    bool seen;
  };
  // The rows are drawn one at a time, the ids are taken modulo the vocab;
  // the teacher holds classes x features weights.
  constexpr int64_t kMaxRows = int64_t(1) << 40;
  constexpr int64_t kMaxClasses = int64_t(1) << 16;
  Option table[] = {
      {"seed", &options.seed, 0, std::numeric_limits<int64_t>::max(), false},
      {"rows", &options.rows, 1, kMaxRows, false},
      {"classes", &options.classes, 2, kMaxClasses, false},
      {"vocab", &options.vocab, 1, kMaxTensorElements, false}};
  OPENKS_RETURN_IF_ERROR(forEachOption(
      text, [&](std::string_view key, std::string_view valueText) {
        Option *option = std::find_if(
            std::begin(table), std::end(table),
            [&](const Option &candidate) { return key == candidate.key; });
        if (option == std::end(table))
          return Status::invalidArgument(
              "unknown option '{}' (expected seed, rows, classes "
              "or vocab)",
              key);
        option->seen = true;
        if (!parseInteger(valueText, *option->value).isOk() ||
            *option->value < option->min || *option->value > option->max)
          return Status::invalidArgument(
              "{} must be an integer in [{}, {}], got '{}'", key, option->min,
              option->max, valueText);
        return Status::ok();
      }));
  constexpr int64_t kMaxTeacherWeights = int64_t(1) << 26;
  if (!layout.sparse && options.classes * layout.width > kMaxTeacherWeights)
    return Status::invalidArgument(
        "classes={} over {} features make a teacher of more than {} "
        "weights; use fewer classes",
        options.classes, layout.width, kMaxTeacherWeights);
  const Option &vocab = table[3];
  if (!layout.classLabels && options.classes != 2)
    return Status::invalidArgument(
        "classes={} needs class labels tensor<?xi64>; 0/1 "
        "labels have 2 classes",
        options.classes);
  if (vocab.seen && !layout.sparse)
    return Status::invalidArgument(
        "vocab applies to ids tensor<?xKxi64>, but the "
        "features are dense");
  return Status::ok();
}

Status
openks::runtime::detail::openSynthetic(std::string_view text, Layout layout,
                                       Shard shard,
                                       std::unique_ptr<DataSource> &source) {
  SyntheticOptions options;
  OPENKS_RETURN_IF_ERROR(parseOptions(text, layout, options));
  source = std::make_unique<SyntheticSource>(std::move(layout), shard, options);
  return Status::ok();
}
