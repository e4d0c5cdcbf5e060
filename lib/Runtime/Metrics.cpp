//===- Metrics.cpp - Held-out metrics of trained models -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Metrics.h"

#include <algorithm>
#include <cmath>
#include <numeric>

using namespace openks::runtime;

bool openks::runtime::isHigherBetter(const std::string &name) {
  auto endsWith = [&](const char *suffix) {
    size_t length = std::char_traits<char>::length(suffix);
    return name.size() >= length &&
           name.compare(name.size() - length, length, suffix) == 0;
  };
  return !(endsWith("loss") || name == "mr" || endsWith("_mr"));
}

double openks::runtime::computeAuc(const std::vector<double> &scores,
                                   const std::vector<int> &labels) {
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return scores[a] < scores[b]; });
  // The Mann-Whitney statistic: the sum of the positives' ranks, ties
  // sharing the mean rank of their run.
  double positiveRankSum = 0;
  int64_t positives = 0;
  for (size_t begin = 0; begin < order.size();) {
    size_t end = begin;
    while (end < order.size() && scores[order[end]] == scores[order[begin]])
      ++end;
    double meanRank = (double(begin + 1) + double(end)) / 2;
    for (size_t i = begin; i < end; ++i)
      if (labels[order[i]]) {
        positiveRankSum += meanRank;
        ++positives;
      }
    begin = end;
  }
  int64_t negatives = static_cast<int64_t>(scores.size()) - positives;
  if (positives == 0 || negatives == 0)
    return NAN;
  return (positiveRankSum - double(positives) * double(positives + 1) / 2) /
         (double(positives) * double(negatives));
}

/// Returns -log(p) with p floored at kLogLossFloor.
static double negativeLog(double probability) {
  return -std::log(std::max(probability, kLogLossFloor));
}

void ClassificationMetrics::add(const double *probabilities,
                                const int64_t *labels, int64_t rows,
                                int64_t classes) {
  twoClasses_ &= classes == 2;
  for (int64_t row = 0; row < rows; ++row) {
    const double *p = probabilities + row * classes;
    int64_t predicted = std::max_element(p, p + classes) - p;
    correct_ += predicted == labels[row];
    logLoss_ += negativeLog(p[labels[row]]);
    if (classes == 2) {
      positiveScores_.push_back(p[1]);
      positiveLabels_.push_back(labels[row] == 1);
    }
  }
  rows_ += rows;
}

void ClassificationMetrics::addBinary(const double *probabilities,
                                      const int64_t *labels, int64_t rows) {
  for (int64_t row = 0; row < rows; ++row) {
    double p = probabilities[row];
    bool positive = labels[row] == 1;
    correct_ += (p >= 0.5) == positive;
    logLoss_ += negativeLog(positive ? p : 1 - p);
    positiveScores_.push_back(p);
    positiveLabels_.push_back(positive);
  }
  rows_ += rows;
}

std::vector<Metric> ClassificationMetrics::results() const {
  if (rows_ == 0)
    return {};
  std::vector<Metric> metrics = {{"accuracy", double(correct_) / rows_},
                                 {"log_loss", logLoss_ / rows_}};
  if (twoClasses_)
    metrics.push_back({"auc", computeAuc(positiveScores_, positiveLabels_)});
  return metrics;
}

/// The k of the Hits@k that RankingMetrics reports.
static constexpr int kHitsAt[] = {1, 3, 10};

void RankingMetrics::add(double rank) {
  ++count_;
  rankSum_ += rank;
  reciprocalSum_ += 1 / rank;
  for (int i = 0; i < 3; ++i)
    hits_[i] += rank <= kHitsAt[i];
}

std::vector<Metric> RankingMetrics::results(const std::string &prefix) const {
  if (count_ == 0)
    return {};
  std::vector<Metric> metrics = {{prefix + "mr", rankSum_ / count_},
                                 {prefix + "mrr", reciprocalSum_ / count_}};
  for (int i = 0; i < 3; ++i)
    metrics.push_back({prefix + "hits@" + std::to_string(kHitsAt[i]),
                       double(hits_[i]) / count_});
  return metrics;
}

double openks::runtime::rankOf(const double *scores, int64_t candidates,
                               int64_t target,
                               const std::vector<char> &excluded) {
  double targetScore = scores[target];
  int64_t better = 0, tied = 0, counted = 0;
  for (int64_t candidate = 0; candidate < candidates; ++candidate) {
    if (candidate == target || (!excluded.empty() && excluded[candidate]))
      continue;
    ++counted;
    double score = scores[candidate];
    if (std::isnan(targetScore) || score < targetScore)
      ++better;
    else if (score == targetScore)
      ++tied;
  }
  if (std::isnan(targetScore))
    return double(counted + 1);
  return 1 + double(better) + double(tied) / 2;
}
