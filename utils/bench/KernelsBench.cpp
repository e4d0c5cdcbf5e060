//===- KernelsBench.cpp - Kernel speed against direct baselines -----------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Measures our kernels next to the fastest direct way to do the same work in
// the same process: matmul against a plain Eigen GEMM on the same shapes,
// the SGD update against a plain streaming loop. utils/bench-kernels.sh turns
// the pairs into ratios, which stay meaningful on a shared, noisy machine.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include <Eigen/Core>
#include <benchmark/benchmark.h>
#include <random>

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

/// The same product as one direct Eigen GEMM on row-major maps.
void BM_EigenGemm(benchmark::State &state) {
  int64_t m = state.range(0), k = state.range(1), n = state.range(2);
  using Matrix =
      Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  Tensor a(DType::F32, Shape{m, k}), b(DType::F32, Shape{k, n}),
      out(DType::F32, Shape{m, n});
  randomize(a, 1);
  randomize(b, 2);
  Eigen::Map<const Matrix> aMap(a.data<float>(), m, k),
      bMap(b.data<float>(), k, n);
  Eigen::Map<Matrix> outMap(out.data<float>(), m, n);
  for (auto _ : state) {
    outMap.noalias() = aMap * bMap;
    benchmark::DoNotOptimize(out.rawData());
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

void matmulShapes(benchmark::internal::Benchmark *benchmark) {
  // The MLP example's layers at batch 64, then a square product.
  benchmark->Args({64, 784, 256})->Args({64, 256, 10})->Args({512, 512, 512});
}

void sgdSizes(benchmark::internal::Benchmark *benchmark) {
  // A bias-sized, an L2-resident and a memory-bound parameter.
  benchmark->Arg(256)->Arg(200704)->Arg(8 << 20);
}

} // namespace

BENCHMARK(BM_Matmul)->Apply(matmulShapes);
BENCHMARK(BM_EigenGemm)->Apply(matmulShapes);
BENCHMARK(BM_Sgd)->Apply(sgdSizes);
BENCHMARK(BM_SgdLoop)->Apply(sgdSizes);

BENCHMARK_MAIN();
