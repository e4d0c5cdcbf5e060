//===- MetricsTest.cpp - Evaluation metrics against naive references ------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Metrics.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>

using namespace openks::runtime;

namespace {

/// Returns the metrics as a map by name.
std::map<std::string, double> byName(const std::vector<Metric> &metrics) {
  std::map<std::string, double> values;
  for (const Metric &metric : metrics)
    values[metric.name] = metric.value;
  return values;
}

/// The AUC by its definition: over every positive-negative pair, 1 when the
/// positive scores higher, 1/2 on a tie.
double naiveAuc(const std::vector<double> &scores,
                const std::vector<int> &labels) {
  double wins = 0;
  int64_t pairs = 0;
  for (size_t p = 0; p < scores.size(); ++p)
    for (size_t n = 0; n < scores.size(); ++n)
      if (labels[p] == 1 && labels[n] == 0) {
        ++pairs;
        wins += scores[p] > scores[n] ? 1 : scores[p] == scores[n] ? 0.5 : 0;
      }
  return wins / pairs;
}

TEST(MetricsTest, AucMatchesPairCountingWithTies) {
  std::mt19937 random(7);
  for (int trial = 0; trial < 20; ++trial) {
    int n = 2 + trial * 13;
    std::vector<double> scores(n);
    std::vector<int> labels(n);
    for (int i = 0; i < n; ++i) {
      // Few distinct scores, so that ties are common.
      scores[i] = double(random() % 7) / 7;
      labels[i] = random() % 3 == 0;
    }
    labels[0] = 1;
    labels[1] = 0;
    EXPECT_NEAR(computeAuc(scores, labels), naiveAuc(scores, labels), 1e-12)
        << "trial " << trial;
  }
  EXPECT_DOUBLE_EQ(computeAuc({0.1, 0.9}, {0, 1}), 1.0);
  EXPECT_DOUBLE_EQ(computeAuc({0.9, 0.1}, {0, 1}), 0.0);
  EXPECT_TRUE(std::isnan(computeAuc({0.3, 0.4}, {1, 1})));
}

TEST(MetricsTest, ClassificationByBatchesMatchesByRow) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> uniform(0.01, 1);
  const int rows = 101, classes = 4;
  std::vector<double> probabilities(rows * classes);
  std::vector<int64_t> labels(rows);
  for (int row = 0; row < rows; ++row) {
    double sum = 0;
    for (int c = 0; c < classes; ++c)
      sum += probabilities[row * classes + c] = uniform(random);
    for (int c = 0; c < classes; ++c)
      probabilities[row * classes + c] /= sum;
    labels[row] = random() % classes;
  }
  // The naive figures.
  double correct = 0, logLoss = 0;
  for (int row = 0; row < rows; ++row) {
    const double *p = &probabilities[row * classes];
    int best = 0;
    for (int c = 1; c < classes; ++c)
      if (p[c] > p[best])
        best = c;
    correct += best == labels[row];
    logLoss -= std::log(p[labels[row]]);
  }
  ClassificationMetrics metrics;
  for (int begin = 0; begin < rows; begin += 17)
    metrics.add(&probabilities[begin * classes], &labels[begin],
                std::min(17, rows - begin), classes);
  std::map<std::string, double> values = byName(metrics.results());
  EXPECT_EQ(values.size(), 2u) << "no AUC of four classes";
  EXPECT_DOUBLE_EQ(values["accuracy"], correct / rows);
  EXPECT_NEAR(values["log_loss"], logLoss / rows, 1e-12);
}

TEST(MetricsTest, BinaryMetrics) {
  std::vector<double> p = {0.9, 0.2, 0.6, 0.4, 0.5, 0.0};
  std::vector<int64_t> labels = {1, 0, 0, 1, 1, 1};
  ClassificationMetrics metrics;
  metrics.addBinary(p.data(), labels.data(), 6);
  std::map<std::string, double> values = byName(metrics.results());
  // Right: 0.9 (1), 0.2 (0), 0.5 (1, at the threshold).
  EXPECT_DOUBLE_EQ(values["accuracy"], 3.0 / 6);
  double expected = -(std::log(0.9) + std::log(0.8) + std::log(0.4) +
                      std::log(0.4) + std::log(0.5) + std::log(kLogLossFloor)) /
                    6;
  EXPECT_NEAR(values["log_loss"], expected, 1e-12);
  EXPECT_NEAR(values["auc"],
              naiveAuc({0.9, 0.2, 0.6, 0.4, 0.5, 0.0}, {1, 0, 0, 1, 1, 1}),
              1e-12);
  // Two-class softmax rows give the same AUC as their positive column.
  ClassificationMetrics twoClass;
  std::vector<double> rows;
  for (double q : p) {
    rows.push_back(1 - q);
    rows.push_back(q);
  }
  twoClass.add(rows.data(), labels.data(), 6, 2);
  EXPECT_DOUBLE_EQ(byName(twoClass.results())["auc"], values["auc"]);
  EXPECT_TRUE(ClassificationMetrics().results().empty());
}

TEST(MetricsTest, RankOfMatchesSortingAllCandidates) {
  std::mt19937 random(11);
  for (int trial = 0; trial < 50; ++trial) {
    int n = 1 + trial;
    std::vector<double> scores(n);
    std::vector<char> excluded(n);
    for (int i = 0; i < n; ++i) {
      scores[i] = double(random() % 5);
      excluded[i] = random() % 4 == 0;
    }
    int target = random() % n;
    // Naive: the optimistic and pessimistic positions after sorting the
    // kept candidates.
    std::vector<double> kept;
    for (int i = 0; i < n; ++i)
      if (i != target && !excluded[i])
        kept.push_back(scores[i]);
    int optimistic = 1, pessimistic = 1;
    for (double score : kept) {
      optimistic += score < scores[target];
      pessimistic += score <= scores[target];
    }
    EXPECT_DOUBLE_EQ(rankOf(scores.data(), n, target, excluded),
                     (optimistic + pessimistic) / 2.0);
    // Raw: nothing excluded.
    int raw = 1, rawTies = 0;
    for (int i = 0; i < n; ++i)
      if (i != target) {
        raw += scores[i] < scores[target];
        rawTies += scores[i] == scores[target];
      }
    EXPECT_DOUBLE_EQ(rankOf(scores.data(), n, target, {}), raw + rawTies / 2.0);
  }
  std::vector<double> withNan = {NAN, 1, 2};
  EXPECT_DOUBLE_EQ(rankOf(withNan.data(), 3, 0, {}), 3.0);
  EXPECT_DOUBLE_EQ(rankOf(withNan.data(), 3, 1, {}), 1.0);
}

TEST(MetricsTest, RankingMetrics) {
  RankingMetrics metrics;
  for (double rank : {1.0, 2.0, 4.0, 11.0, 3.0})
    metrics.add(rank);
  std::map<std::string, double> values = byName(metrics.results("filtered_"));
  EXPECT_DOUBLE_EQ(values["filtered_mr"], 21.0 / 5);
  EXPECT_DOUBLE_EQ(values["filtered_mrr"],
                   (1 + 1 / 2.0 + 1 / 4.0 + 1 / 11.0 + 1 / 3.0) / 5);
  EXPECT_DOUBLE_EQ(values["filtered_hits@1"], 1.0 / 5);
  EXPECT_DOUBLE_EQ(values["filtered_hits@3"], 3.0 / 5);
  EXPECT_DOUBLE_EQ(values["filtered_hits@10"], 4.0 / 5);
  EXPECT_FALSE(isHigherBetter("filtered_mr"));
  EXPECT_FALSE(isHigherBetter("log_loss"));
  EXPECT_TRUE(isHigherBetter("filtered_mrr"));
  EXPECT_TRUE(isHigherBetter("auc"));
}

} // namespace
