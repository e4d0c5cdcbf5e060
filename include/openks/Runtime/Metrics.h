//===- Metrics.h - Held-out metrics of trained models -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The metrics users of the examples' models expect, accumulated batch by
// batch: accuracy, log loss and AUC of classifiers and click models, and the
// rank metrics of link prediction (mean rank, mean reciprocal rank and
// Hits@k). Each accumulator sees the rows of an evaluation in any batching
// and gives the same figures.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_METRICS_H
#define OPENKS_RUNTIME_METRICS_H

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace openks::runtime {

/// One named figure of an evaluation ("accuracy", "filtered_mrr", ...).
struct Metric {
  std::string name;
  double value = 0;
};

/// Returns whether a larger value of the metric `name` is better: false for
/// losses and mean ranks ("loss", "log_loss", "*mr"), true for the others.
bool isHigherBetter(const std::string &name);

/// The probability floor of log loss: -log(p) is taken of max(p, this), so
/// that one confident mistake costs 34.5 rather than infinity.
inline constexpr double kLogLossFloor = 1e-15;

/// Returns the area under the ROC curve of `scores` (higher means more
/// likely positive) against the 0/1 `labels`: the probability that a random
/// positive scores above a random negative, ties counting one half. NaN when
/// the labels are all of one class.
double computeAuc(const std::vector<double> &scores,
                  const std::vector<int> &labels);

/// Accuracy, log loss and, for two classes, AUC of a classifier's class
/// probabilities.
class ClassificationMetrics {
public:
  /// Adds `rows` rows of `classes` probabilities each (row-major) and their
  /// class ids in [0, classes). A row's prediction is its first most
  /// probable class.
  void add(const double *probabilities, const int64_t *labels, int64_t rows,
           int64_t classes);
  /// Adds `rows` probabilities of the positive class and their 0/1 labels; a
  /// row is predicted positive when its probability is at least 0.5.
  void addBinary(const double *probabilities, const int64_t *labels,
                 int64_t rows);

  /// Returns "accuracy" and "log_loss", and "auc" when the rows had two
  /// classes; nothing when no row was added.
  std::vector<Metric> results() const;

private:
  int64_t rows_ = 0;
  int64_t correct_ = 0;
  double logLoss_ = 0;
  /// Whether every row had two classes, and their positive probabilities
  /// and labels for the AUC.
  bool twoClasses_ = true;
  std::vector<double> positiveScores_;
  std::vector<int> positiveLabels_;
};

/// The rank metrics of link prediction over the ranks of true answers among
/// all candidates (1 is best).
class RankingMetrics {
public:
  /// Adds one query's rank (a half when ties are shared: see rankOf).
  void add(double rank);
  /// Returns "PREFIXmr", "PREFIXmrr" and "PREFIXhits@K" for K in 1, 3 and
  /// 10; nothing when no rank was added.
  std::vector<Metric> results(const std::string &prefix) const;

private:
  int64_t count_ = 0;
  double rankSum_ = 0;
  double reciprocalSum_ = 0;
  int64_t hits_[3] = {0, 0, 0};
};

/// Returns the rank of candidate `target` among `scores` where lower scores
/// are better (distances): 1 plus the candidates scoring strictly better,
/// plus half of the others scoring the same (the mean of the optimistic and
/// the pessimistic rank). Candidates whose `excluded` flag is set (the other
/// known true answers, for filtered ranks) do not count; `excluded` is empty
/// or one flag per candidate. A NaN score of the target ranks it last; NaN
/// scores of the others count as worse.
double rankOf(const double *scores, int64_t candidates, int64_t target,
              const std::vector<char> &excluded);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_METRICS_H
