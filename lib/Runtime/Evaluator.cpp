//===- Evaluator.cpp - Held-out metrics and predictions -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Evaluator.h"

#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Executor.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <memory>
#include <numeric>

using namespace openks;
using namespace openks::runtime;

const char *openks::runtime::getTaskName(EvaluationTask task) {
  switch (task) {
  case EvaluationTask::Loss:
    return "loss";
  case EvaluationTask::Classification:
    return "classification";
  case EvaluationTask::Binary:
    return "binary";
  case EvaluationTask::LinkPrediction:
    return "link-prediction";
  }
  return "?";
}

std::vector<std::string>
openks::runtime::getMetricNames(const EvaluationModel &model) {
  std::vector<std::string> names = {"loss"};
  switch (model.task) {
  case EvaluationTask::Loss:
    break;
  case EvaluationTask::Classification:
  case EvaluationTask::Binary:
    names.push_back("accuracy");
    names.push_back("log_loss");
    if (model.classes == 2)
      names.push_back("auc");
    break;
  case EvaluationTask::LinkPrediction:
    for (const char *prefix : {"filtered_", "raw_"})
      for (const char *metric : {"mr", "mrr", "hits@1", "hits@3", "hits@10"})
        names.push_back(std::string(prefix) + metric);
    break;
  }
  return names;
}

std::string openks::runtime::getHeadlineMetric(const EvaluationModel &model) {
  switch (model.task) {
  case EvaluationTask::Loss:
    return "loss";
  case EvaluationTask::Classification:
    return "accuracy";
  case EvaluationTask::Binary:
    return "auc";
  case EvaluationTask::LinkPrediction:
    return "filtered_mrr";
  }
  return "loss";
}

namespace {
/// The --predict-out file: lines written as they come, every write checked.
class PredictionFile {
public:
  /// Creates `path`, or nothing when it is empty.
  static StatusOr<PredictionFile> create(const std::string &path) {
    if (path.empty())
      return PredictionFile(path, nullptr);
    std::FILE *file = std::fopen(path.c_str(), "w");
    if (!file)
      return Status::error(StatusCode::IOError, "cannot create {}: {}", path,
                           std::strerror(errno));
    return PredictionFile(path, file);
  }

  /// Whether predictions are written.
  bool isOpen() const { return file_ != nullptr; }

  /// Writes `line` and a line break.
  void writeLine(const std::string &line) {
    std::fwrite(line.data(), 1, line.size(), file_.get());
    std::fputc('\n', file_.get());
  }

  /// Flushes and closes the file, reporting any write that failed.
  Status close() {
    if (!file_)
      return Status::ok();
    errno = 0;
    bool failed = std::ferror(file_.get()) != 0;
    failed |= std::fclose(file_.release()) != 0;
    if (failed)
      return Status::error(StatusCode::IOError, "cannot write {}: {}", path_,
                           std::strerror(errno ? errno : EIO));
    return Status::ok();
  }

private:
  PredictionFile(std::string path, std::FILE *file)
      : path_(std::move(path)), file_(file, &std::fclose) {}

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file_;
};
} // namespace

/// Returns the elements of the float tensor `tensor` as doubles.
static void readDoubles(const Tensor &tensor, std::vector<double> &values) {
  values.resize(tensor.numel());
  if (tensor.dtype() == DType::F32)
    std::copy_n(tensor.data<float>(), tensor.numel(), values.begin());
  else
    std::copy_n(tensor.data<double>(), tensor.numel(), values.begin());
}

/// Returns the indices of the `k` largest of `values[0, count)` (the
/// smallest when `smallest`), best first, ties by index.
static std::vector<int64_t> topIndices(const double *values, int64_t count,
                                       int64_t k, bool smallest) {
  std::vector<int64_t> order(count);
  std::iota(order.begin(), order.end(), 0);
  k = std::min(k, count);
  std::partial_sort(order.begin(), order.begin() + k, order.end(),
                    [&](int64_t a, int64_t b) {
                      double x = smallest ? -values[a] : values[a];
                      double y = smallest ? -values[b] : values[b];
                      return x > y || (x == y && a < b);
                    });
  order.resize(k);
  return order;
}

/// Reads the labels of the rows of `tensor`: class ids in [0, classes), or
/// 0/1 floats when `classes` is 0.
static Status readLabels(const Tensor &tensor, int64_t classes,
                         int64_t firstRow, std::vector<int64_t> &labels) {
  int64_t rows = tensor.dim(0);
  labels.resize(rows);
  for (int64_t row = 0; row < rows; ++row) {
    double value =
        tensor.dtype() == DType::I64   ? double(tensor.data<int64_t>()[row])
        : tensor.dtype() == DType::F32 ? double(tensor.data<float>()[row])
                                       : tensor.data<double>()[row];
    int64_t limit = classes ? classes : 2;
    if (!(value >= 0 && value < limit && value == double(int64_t(value))))
      return Status::invalidArgument(
          "row {}: the label {} is not {}", firstRow + row, value,
          classes ? fmt::format("a class id below {}", classes)
                  : std::string("0 or 1"));
    labels[row] = int64_t(value);
  }
  return Status::ok();
}

/// Runs the forward plan over one pass of the data: the mean loss, and the
/// task's classification metrics and predictions (into `predictions`
/// unless it is null).
static Status evaluateForward(const EvaluationModel &model,
                              ParameterStore &store,
                              const EvaluationOptions &options,
                              PredictionFile *predictions,
                              std::vector<Metric> &metrics) {
  StatusOr<Executor> executor = Executor::create(model.forward, store);
  if (!executor)
    return executor.status();
  std::unique_ptr<DataSource> source;
  OPENKS_RETURN_IF_ERROR(openDataSource(
      options.data, model.forward.inputSpecs(), Shard{}, source));
  std::optional<int64_t> total = source->rowsPerEpoch();
  if (!total)
    return Status::invalidArgument("{}: the data has no fixed number of rows "
                                   "to evaluate",
                                   options.data);
  bool classifies = model.task == EvaluationTask::Classification ||
                    model.task == EvaluationTask::Binary;
  ClassificationMetrics classification;
  double lossSum = 0;
  std::vector<double> probabilities;
  std::vector<int64_t> labels;
  for (int64_t done = 0; done < *total;) {
    int64_t rows = std::min(options.batchSize, *total - done);
    OPENKS_RETURN_IF_ERROR(source->next(rows, executor->inputs()));
    OPENKS_RETURN_IF_ERROR(executor->run());
    std::vector<double> loss;
    readDoubles(*executor->outputs().front(), loss);
    lossSum += loss.front() * double(rows);
    if (classifies) {
      const Tensor &output = *executor->outputs()[1];
      readDoubles(output, probabilities);
      int64_t classes = output.rank() == 2 ? output.dim(1) : 1;
      bool binary = model.task == EvaluationTask::Binary;
      OPENKS_RETURN_IF_ERROR(readLabels(*executor->inputs()[model.labelInput],
                                        binary ? 0 : classes, done, labels));
      if (binary)
        classification.addBinary(probabilities.data(), labels.data(), rows);
      else
        classification.add(probabilities.data(), labels.data(), rows, classes);
      for (int64_t row = 0; predictions && predictions->isOpen() && row < rows;
           ++row) {
        const double *p = probabilities.data() + row * classes;
        if (binary) {
          predictions->writeLine(fmt::format("{:.9g}", p[0]));
        } else if (options.topK > 0) {
          predictions->writeLine(fmt::format(
              "{}",
              fmt::join(topIndices(p, classes, options.topK, false), "\t")));
        } else {
          int64_t best = topIndices(p, classes, 1, false).front();
          predictions->writeLine(fmt::format("{}\t{:.9g}", best, p[best]));
        }
      }
    }
    done += rows;
  }
  metrics.push_back({"loss", lossSum / double(*total)});
  for (Metric &metric : classification.results())
    metrics.push_back(std::move(metric));
  return Status::ok();
}

namespace {
/// Triples as three columns.
struct Triples {
  std::vector<int64_t> heads, relations, tails;
  size_t size() const { return heads.size(); }
};

/// The known true triples by (head, relation) and by (relation, tail).
struct KnownTriples {
  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> tailsOf;
  std::map<std::pair<int64_t, int64_t>, std::vector<int64_t>> headsOf;

  void add(const Triples &triples) {
    for (size_t i = 0; i < triples.size(); ++i) {
      tailsOf[{triples.heads[i], triples.relations[i]}].push_back(
          triples.tails[i]);
      headsOf[{triples.relations[i], triples.tails[i]}].push_back(
          triples.heads[i]);
    }
  }
};
} // namespace

/// Reads every triple of the triples data `spec`.
static StatusOr<Triples> readAllTriples(const std::string &spec) {
  std::vector<FeedSpec> feeds(3, FeedSpec{DType::I64, Shape{-1}});
  std::unique_ptr<DataSource> source;
  OPENKS_RETURN_IF_ERROR(openDataSource(spec, feeds, Shard{}, source));
  int64_t rows = source->rowsPerEpoch().value_or(0);
  Tensor columns[3] = {Tensor(DType::I64, Shape{rows}),
                       Tensor(DType::I64, Shape{rows}),
                       Tensor(DType::I64, Shape{rows})};
  OPENKS_RETURN_IF_ERROR(
      source->next(rows, {&columns[0], &columns[1], &columns[2]}));
  auto take = [&](int i) {
    return std::vector<int64_t>(columns[i].data<int64_t>(),
                                columns[i].data<int64_t>() + rows);
  };
  return Triples{take(0), take(1), take(2)};
}

/// Ranks every candidate entity as the tail and as the head of each triple
/// of the data: raw and filtered rank metrics, and the predictions.
static Status evaluateRanks(const EvaluationModel &model, ParameterStore &store,
                            const EvaluationOptions &options,
                            PredictionFile &predictions,
                            std::vector<Metric> &metrics) {
  int64_t candidates = options.entities ? options.entities : model.entityRows;
  if (candidates < 1 || candidates > model.entityRows)
    return Status::invalidArgument(
        "{} candidate entities: the entity table has {} rows", candidates,
        model.entityRows);
  if (candidates > model.distanceBatch)
    return Status::invalidArgument(
        "{} candidate entities do not fit a distance batch of {} rows",
        candidates, model.distanceBatch);
  StatusOr<Triples> triples = readAllTriples(options.data);
  if (!triples)
    return triples.status();
  for (size_t i = 0; i < triples->size(); ++i)
    for (int64_t entity : {triples->heads[i], triples->tails[i]})
      if (entity >= candidates)
        return Status::invalidArgument(
            "{}: triple {} names the entity {}, beyond the {} candidates",
            options.data, i + 1, entity, candidates);
  KnownTriples known;
  known.add(*triples);
  for (const std::string &spec : options.filterData) {
    StatusOr<Triples> filter = readAllTriples(spec);
    if (!filter)
      return filter.status();
    known.add(*filter);
  }

  StatusOr<Executor> executor = Executor::create(*model.distance, store);
  if (!executor)
    return executor.status();
  // Query 2i ranks the tails of triple i, query 2i + 1 its heads.
  int64_t queries = 2 * static_cast<int64_t>(triples->size());
  int64_t queriesPerRun = model.distanceBatch / candidates;
  RankingMetrics raw, filtered;
  std::vector<double> distances;
  std::vector<char> excluded(candidates);
  for (int64_t first = 0; first < queries; first += queriesPerRun) {
    int64_t count = std::min(queriesPerRun, queries - first);
    const std::vector<Tensor *> &inputs = executor->inputs();
    for (Tensor *input : inputs)
      input->resize(Shape{count * candidates});
    int64_t *columns[3] = {inputs[0]->data<int64_t>(),
                           inputs[1]->data<int64_t>(),
                           inputs[2]->data<int64_t>()};
    for (int64_t q = 0; q < count; ++q) {
      size_t triple = (first + q) / 2;
      bool tails = (first + q) % 2 == 0;
      int64_t fixed[3] = {triples->heads[triple], triples->relations[triple],
                          triples->tails[triple]};
      for (int64_t e = 0; e < candidates; ++e)
        for (int c = 0; c < 3; ++c)
          columns[c][q * candidates + e] = c == (tails ? 2 : 0) ? e : fixed[c];
    }
    OPENKS_RETURN_IF_ERROR(executor->run());
    readDoubles(*executor->outputs().front(), distances);
    for (int64_t q = 0; q < count; ++q) {
      size_t triple = (first + q) / 2;
      bool tails = (first + q) % 2 == 0;
      const double *scores = distances.data() + q * candidates;
      int64_t target = tails ? triples->tails[triple] : triples->heads[triple];
      raw.add(rankOf(scores, candidates, target, {}));
      const std::vector<int64_t> &others =
          tails ? known.tailsOf[{triples->heads[triple],
                                 triples->relations[triple]}]
                : known.headsOf[{triples->relations[triple],
                                 triples->tails[triple]}];
      for (int64_t other : others)
        if (other < candidates)
          excluded[other] = true;
      filtered.add(rankOf(scores, candidates, target, excluded));
      for (int64_t other : others)
        if (other < candidates)
          excluded[other] = false;
      if (!tails || !predictions.isOpen())
        continue;
      if (options.topK <= 0) {
        predictions.writeLine(fmt::format("{:.9g}", scores[target]));
        continue;
      }
      std::vector<std::string> best;
      for (int64_t entity :
           topIndices(scores, candidates, options.topK, /*smallest=*/true))
        best.push_back(size_t(entity) < options.entityNames.size()
                           ? options.entityNames[entity]
                           : std::to_string(entity));
      predictions.writeLine(fmt::format("{}", fmt::join(best, "\t")));
    }
  }
  for (Metric &metric : filtered.results("filtered_"))
    metrics.push_back(std::move(metric));
  for (Metric &metric : raw.results("raw_"))
    metrics.push_back(std::move(metric));
  return Status::ok();
}

StatusOr<std::vector<Metric>>
openks::runtime::evaluate(const EvaluationModel &model, ParameterStore &store,
                          const EvaluationOptions &options) {
  if (options.batchSize < 1)
    return Status::invalidArgument("the batch size must be at least 1, got {}",
                                   options.batchSize);
  if (options.topK > 0 && (model.task == EvaluationTask::Binary ||
                           model.task == EvaluationTask::Loss))
    return Status::invalidArgument(
        "top-k predictions need a classifier or a link predictor; this "
        "model's task is {}",
        getTaskName(model.task));
  if (!options.predictOut.empty() && model.task == EvaluationTask::Loss)
    return Status::invalidArgument(
        "the model's loss does not say what it predicts (a softmax or "
        "sigmoid cross-entropy, or a margin loss over distances), so it has "
        "no predictions to write");
  StatusOr<PredictionFile> predictions =
      PredictionFile::create(options.predictOut);
  if (!predictions)
    return predictions.status();
  bool ranks = model.task == EvaluationTask::LinkPrediction;
  std::vector<Metric> metrics;
  OPENKS_RETURN_IF_ERROR(evaluateForward(
      model, store, options, ranks ? nullptr : &*predictions, metrics));
  if (ranks)
    OPENKS_RETURN_IF_ERROR(
        evaluateRanks(model, store, options, *predictions, metrics));
  OPENKS_RETURN_IF_ERROR(predictions->close());
  return metrics;
}
