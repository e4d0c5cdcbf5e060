//===- KernelsBench.cpp - Kernel speed against direct baselines -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Measures our kernels next to the fastest direct way to do the same work in
// the same process: matmul against oneDNN's sgemm called directly on the
// same shapes (the MLP's layers, the products of their gradients, 512^3),
// the SGD update against a plain streaming loop, and the kernels that
// deduplicate the ids of a batch of an embedding table against std::sort of
// the same ids: routeIds, which splits the distinct ids of a batch of 65536
// between the two sections of a table of 10,000,000 rows (goal: >= 50 M
// ids/s), embeddingGradRows, which sums the batch's row-sparse gradient, and
// mergeRows, which adds two such gradients (against std::sort of their row
// ids). The ids are drawn uniformly or by Zipf's law. utils/bench-kernels.sh
// turns the pairs into ratios, which stay meaningful on a shared, noisy
// machine. relu, its gradient and the bias add run alone, on the MLP's
// activations: their baseline is the same benchmark built from an earlier
// commit, run back to back.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include <algorithm>
#include <benchmark/benchmark.h>
#include <cmath>
#include <dnnl.h>
#include <random>
#include <vector>

using namespace openks;
using namespace openks::runtime;

namespace {

/// Fills a float tensor with values in [-1, 1).
void randomize(Tensor &tensor, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(-1, 1);
  for (int64_t i = 0; i < tensor.numel(); ++i)
    tensor.data<float>()[i] = distribution(generator);
}

/// Reports GFLOP/s given the floating-point operations of one iteration.
void setFlops(benchmark::State &state, double flopsPerIteration) {
  state.counters["GFLOPS"] = benchmark::Counter(
      flopsPerIteration / 1e9, benchmark::Counter::kIsIterationInvariantRate);
}

/// kernels::matmul on [M, K] x [K, N].
void BM_Matmul(benchmark::State &state) {
  int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  Tensor a(DType::F32, Shape{m, k}), b(DType::F32, Shape{k, n}),
      out(DType::F32, Shape{m, n});
  randomize(a, 1);
  randomize(b, 2);
  for (auto _ : state) {
    Status status = kernels::matmul(a, b, out);
    benchmark::DoNotOptimize(out.rawData());
    if (!status.isOk())
      state.SkipWithError(status.message().c_str());
  }
  setFlops(state, 2.0 * m * k * n);
}

/// The same product as one direct call of oneDNN's sgemm, the library
/// kernels::matmul runs on.
void BM_DnnlSgemm(benchmark::State &state) {
  int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  Tensor a(DType::F32, Shape{m, k}), b(DType::F32, Shape{k, n}),
      out(DType::F32, Shape{m, n});
  randomize(a, 1);
  randomize(b, 2);
  for (auto _ : state) {
    dnnl_status_t status =
        dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data<float>(), k, b.data<float>(),
                   n, 0.0f, out.data<float>(), n);
    benchmark::DoNotOptimize(out.rawData());
    if (status != dnnl_success)
      state.SkipWithError("dnnl_sgemm failed");
  }
  setFlops(state, 2.0 * m * k * n);
}

/// kernels::sgd over n parameters.
void BM_Sgd(benchmark::State &state) {
  int64_t n = state.range(0);
  Tensor param(DType::F32, Shape{n}), grad(DType::F32, Shape{n}),
      lr(DType::F32, Shape{});
  randomize(param, 3);
  randomize(grad, 4);
  *lr.data<float>() = 1e-6f;
  for (auto _ : state) {
    Status status = kernels::sgd(param, grad, lr);
    benchmark::DoNotOptimize(param.rawData());
    if (!status.isOk())
      state.SkipWithError(status.message().c_str());
  }
  state.counters["updates/s"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

/// The same update as a plain loop the compiler vectorises.
void BM_SgdLoop(benchmark::State &state) {
  int64_t n = state.range(0);
  Tensor param(DType::F32, Shape{n}), grad(DType::F32, Shape{n});
  randomize(param, 3);
  randomize(grad, 4);
  float lr = 1e-6f;
  for (auto _ : state) {
    float *p = param.data<float>();
    const float *g = grad.data<float>();
    for (int64_t i = 0; i < n; ++i)
      p[i] -= lr * g[i];
    benchmark::DoNotOptimize(param.rawData());
  }
  state.counters["updates/s"] = benchmark::Counter(
      static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate);
}

/// The inputs a benchmark of an element-wise kernel cycles through: new
/// activations each step, as in training, whose signs a branch predictor
/// cannot learn.
constexpr int kActivations = 8;

/// Times `run(x, other, out)` on random [range(0), range(1)] f32 tensors x,
/// random f32 tensors `other` of x's shape or, with `bias`, of its last
/// dimension, and an f32 result, reporting the elements of x per second.
template <typename Run>
void elementwise(benchmark::State &state, bool bias, Run run) {
  int64_t rows = state.range(0), width = state.range(1);
  Shape shape{rows, width};
  std::vector<Tensor> xs, others;
  for (unsigned input = 0; input < kActivations; ++input) {
    randomize(xs.emplace_back(DType::F32, shape), 7 + 2 * input);
    randomize(others.emplace_back(DType::F32, bias ? Shape{width} : shape),
              8 + 2 * input);
  }
  Tensor out(DType::F32, shape);
  int64_t next = 0;
  for (auto _ : state) {
    int64_t input = next++ % kActivations;
    Status status = run(xs[input], others[input], out);
    benchmark::DoNotOptimize(out.rawData());
    if (!status.isOk())
      state.SkipWithError(status.message().c_str());
  }
  state.counters["elements/s"] =
      benchmark::Counter(static_cast<double>(rows * width),
                         benchmark::Counter::kIsIterationInvariantRate);
}

/// kernels::relu of an activation.
void BM_Relu(benchmark::State &state) {
  elementwise(state, /*bias=*/false,
              [](const Tensor &x, const Tensor &, Tensor &out) {
                return kernels::relu(x, out);
              });
}

/// kernels::reluGrad of a random result (half of it positive) and upstream
/// gradient.
void BM_ReluGrad(benchmark::State &state) {
  elementwise(state, /*bias=*/false,
              [](const Tensor &y, const Tensor &dy, Tensor &dx) {
                return kernels::reluGrad(y, dy, dx);
              });
}

/// kernels::add of a bias to each row of an activation.
void BM_AddBias(benchmark::State &state) {
  elementwise(state, /*bias=*/true,
              [](const Tensor &x, const Tensor &bias, Tensor &out) {
                return kernels::add(x, bias, out);
              });
}

/// The rows of the table the ids of a batch index, in two sections of
/// kTableRows / 2 rows (a table split between two servers).
constexpr int64_t kTableRows = 10000000;
/// The ids of a batch.
constexpr int64_t kBatchIds = 65536;
/// The width of the table's rows in embeddingGradRows and mergeRows.
constexpr int64_t kTableDim = 16;

/// How the ids of a batch are drawn from the table.
enum class IdDistribution { Uniform, Zipf };

/// Returns kBatchIds ids of the table drawn by `distribution`: uniformly
/// (few repeat), or by Zipf's law with exponent 1 (the id of rank r comes up
/// in proportion to 1 / r; many repeat), the ranks scattered over the table
/// so that the hot ids lie in both sections.
Tensor drawIds(IdDistribution distribution, unsigned seed) {
  std::mt19937_64 generator(seed);
  std::uniform_real_distribution<double> unit(0, 1);
  const double logRows = std::log(static_cast<double>(kTableRows));
  Tensor ids(DType::I64, Shape{kBatchIds});
  int64_t *data = ids.data<int64_t>();
  for (int64_t position = 0; position < kBatchIds; ++position) {
    double draw = unit(generator);
    if (distribution == IdDistribution::Uniform) {
      data[position] = static_cast<int64_t>(draw * kTableRows);
      continue;
    }
    // Ranks from 0, log-uniform: the continuous form of Zipf's law.
    auto rank = static_cast<uint64_t>(std::exp(draw * logRows)) - 1;
    // A multiplier prime to kTableRows (odd, not a multiple of 5) makes a
    // bijection of the table's rows.
    data[position] = static_cast<int64_t>(rank * 2654435761u % kTableRows);
  }
  return ids;
}

/// Reports ids/s given the ids of one iteration, and `distinct`, how many
/// of them differ.
void setIdRates(benchmark::State &state, int64_t ids, int64_t distinct) {
  state.counters["ids/s"] = benchmark::Counter(
      static_cast<double>(ids), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["distinct"] = static_cast<double>(distinct);
}

/// std::sort of a copy of the ids of `lists` together, as one iteration:
/// the baseline of the kernels that deduplicate ids.
void sortIds(benchmark::State &state,
             const std::vector<const Tensor *> &lists) {
  std::vector<int64_t> sorted;
  for (const Tensor *list : lists)
    sorted.insert(sorted.end(), list->data<int64_t>(),
                  list->data<int64_t>() + list->numel());
  std::vector<int64_t> ids = sorted;
  for (auto _ : state) {
    std::copy(ids.begin(), ids.end(), sorted.begin());
    std::sort(sorted.begin(), sorted.end());
    benchmark::DoNotOptimize(sorted.data());
  }
  setIdRates(state, static_cast<int64_t>(ids.size()),
             std::unique(sorted.begin(), sorted.end()) - sorted.begin());
}

/// std::sort of a batch's ids.
void BM_SortIds(benchmark::State &state, IdDistribution distribution) {
  Tensor ids = drawIds(distribution, /*seed=*/5);
  sortIds(state, {&ids});
}

/// kernels::routeIds of a batch's ids to the table's two sections.
void BM_RouteIds(benchmark::State &state, IdDistribution distribution) {
  Tensor ids = drawIds(distribution, /*seed=*/5);
  Tensor first(DType::I64, Shape{kBatchIds}),
      second(DType::I64, Shape{kBatchIds});
  const std::vector<const Tensor *> inputs{&ids};
  const std::vector<int64_t> sections{kTableRows / 2, kTableRows / 2};
  const std::vector<Tensor *> outs{&first, &second};
  for (auto _ : state) {
    Status status = kernels::routeIds(inputs, "emb", sections, outs);
    benchmark::DoNotOptimize(first.rawData());
    if (!status.isOk())
      state.SkipWithError(status.message().c_str());
  }
  setIdRates(state, kBatchIds, first.numel() + second.numel());
}

/// Returns in `rowIds` and `values` the row-sparse gradient of the table of
/// the lookups of `ids`, whose own gradients are `dout`.
Status embeddingGradRows(const Tensor &ids, const Tensor &dout, Tensor &rowIds,
                         Tensor &values) {
  return kernels::embeddingGradRows(ids, dout, Shape{kTableRows, kTableDim},
                                    /*paddingIdx=*/std::nullopt, rowIds,
                                    values);
}

/// kernels::embeddingGradRows of the lookups of a batch's ids.
void BM_EmbeddingGradRows(benchmark::State &state,
                          IdDistribution distribution) {
  Tensor ids = drawIds(distribution, /*seed=*/5);
  Tensor dout(DType::F32, Shape{kBatchIds, kTableDim});
  randomize(dout, 6);
  Tensor rowIds(DType::I64, Shape{kBatchIds}),
      values(DType::F32, Shape{kBatchIds, kTableDim});
  for (auto _ : state) {
    Status status = embeddingGradRows(ids, dout, rowIds, values);
    benchmark::DoNotOptimize(values.rawData());
    if (!status.isOk())
      state.SkipWithError(status.message().c_str());
  }
  setIdRates(state, kBatchIds, rowIds.numel());
}

/// The row-sparse gradients of two batches, as two trainers push them.
struct TwoGradients {
  /// Sums the gradients of two batches of ids drawn by `distribution`.
  Status sum(IdDistribution distribution) {
    for (unsigned batch = 0; batch < 2; ++batch) {
      Tensor ids = drawIds(distribution, /*seed=*/5 + batch);
      Tensor dout(DType::F32, Shape{kBatchIds, kTableDim});
      randomize(dout, 6 + batch);
      OPENKS_RETURN_IF_ERROR(
          embeddingGradRows(ids, dout, rowIds[batch], values[batch]));
    }
    return Status::ok();
  }

  Tensor rowIds[2] = {Tensor(DType::I64, Shape{kBatchIds}),
                      Tensor(DType::I64, Shape{kBatchIds})};
  Tensor values[2] = {Tensor(DType::F32, Shape{kBatchIds, kTableDim}),
                      Tensor(DType::F32, Shape{kBatchIds, kTableDim})};
};

/// std::sort of the row ids of the gradients of two batches.
void BM_SortRowIds(benchmark::State &state, IdDistribution distribution) {
  TwoGradients gradients;
  if (Status status = gradients.sum(distribution); !status.isOk()) {
    state.SkipWithError(status.message().c_str());
    return;
  }
  sortIds(state, {&gradients.rowIds[0], &gradients.rowIds[1]});
}

/// kernels::mergeRows of the gradients of two batches.
void BM_MergeRows(benchmark::State &state, IdDistribution distribution) {
  TwoGradients gradients;
  if (Status status = gradients.sum(distribution); !status.isOk()) {
    state.SkipWithError(status.message().c_str());
    return;
  }
  const std::vector<const Tensor *> rowIds{&gradients.rowIds[0],
                                           &gradients.rowIds[1]};
  const std::vector<const Tensor *> values{&gradients.values[0],
                                           &gradients.values[1]};
  Tensor outIds(DType::I64, Shape{2 * kBatchIds}),
      outValues(DType::F32, Shape{2 * kBatchIds, kTableDim});
  for (auto _ : state) {
    Status status = kernels::mergeRows(
        rowIds, values, Shape{kTableRows, kTableDim}, outIds, outValues);
    benchmark::DoNotOptimize(outValues.rawData());
    if (!status.isOk())
      state.SkipWithError(status.message().c_str());
  }
  setIdRates(state, rowIds[0]->numel() + rowIds[1]->numel(), outIds.numel());
}

void matmulShapes(benchmark::internal::Benchmark *benchmark) {
  // The MLP example's layers at batch 64, the products of their weights'
  // gradients (K x batch x N), then a square product.
  benchmark->Args({64, 784, 256})
      ->Args({64, 256, 10})
      ->Args({784, 64, 256})
      ->Args({512, 512, 512});
}

void activationShapes(benchmark::internal::Benchmark *benchmark) {
  // The MLP example's hidden and output activations at batch 64.
  benchmark->Args({64, 256})->Args({64, 10});
}

void sgdSizes(benchmark::internal::Benchmark *benchmark) {
  // A bias-sized, an L2-resident and a memory-bound parameter.
  benchmark->Arg(256)->Arg(200704)->Arg(8 << 20);
}

} // namespace

BENCHMARK(BM_Matmul)->Apply(matmulShapes);
BENCHMARK(BM_DnnlSgemm)->Apply(matmulShapes);
BENCHMARK(BM_Sgd)->Apply(sgdSizes);
BENCHMARK(BM_SgdLoop)->Apply(sgdSizes);
BENCHMARK(BM_Relu)->Apply(activationShapes);
BENCHMARK(BM_ReluGrad)->Apply(activationShapes);
BENCHMARK(BM_AddBias)->Apply(activationShapes);
BENCHMARK_CAPTURE(BM_SortIds, uniform, IdDistribution::Uniform);
BENCHMARK_CAPTURE(BM_SortIds, zipf, IdDistribution::Zipf);
BENCHMARK_CAPTURE(BM_RouteIds, uniform, IdDistribution::Uniform);
BENCHMARK_CAPTURE(BM_RouteIds, zipf, IdDistribution::Zipf);
BENCHMARK_CAPTURE(BM_EmbeddingGradRows, uniform, IdDistribution::Uniform);
BENCHMARK_CAPTURE(BM_EmbeddingGradRows, zipf, IdDistribution::Zipf);
BENCHMARK_CAPTURE(BM_SortRowIds, uniform, IdDistribution::Uniform);
BENCHMARK_CAPTURE(BM_SortRowIds, zipf, IdDistribution::Zipf);
BENCHMARK_CAPTURE(BM_MergeRows, uniform, IdDistribution::Uniform);
BENCHMARK_CAPTURE(BM_MergeRows, zipf, IdDistribution::Zipf);

BENCHMARK_MAIN();
