//===- BenchSupport.h - What the runtime benchmarks share -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The helpers of openks-bench-runtime and openks-bench-grpc: the deadline of
// a wait and the failure of a benchmark, the blocks and Adagrad-minimized
// tables of a hand-built server program, and the batches of rows, the
// prefetches and pushes and the rates of the table benchmarks.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_UTILS_BENCH_BENCHSUPPORT_H
#define OPENKS_UTILS_BENCH_BENCHSUPPORT_H

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/Kernels.h"
#include "openks/Runtime/Transport.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace openks::bench {

//===----------------------------------------------------------------------===//
// Waits and failures
//===----------------------------------------------------------------------===//

/// How long any wait of a benchmark may take before it fails.
inline constexpr std::chrono::milliseconds kTimeout{60000};

/// Returns the deadline of a wait that starts now.
inline runtime::Deadline deadline() {
  return runtime::Deadline::after(kTimeout);
}

/// Stops `state` with `status` when it is an error; returns whether it was.
inline bool failed(benchmark::State &state, const Status &status) {
  if (status.isOk())
    return false;
  state.SkipWithError(status.message().c_str());
  return true;
}

/// Reports GB/s given the bytes of one iteration.
inline void setBandwidth(benchmark::State &state, int64_t bytesPerIteration) {
  state.counters["GB/s"] =
      benchmark::Counter(static_cast<double>(bytesPerIteration) / 1e9,
                         benchmark::Counter::kIsIterationInvariantRate);
}

//===----------------------------------------------------------------------===//
// Server programs
//===----------------------------------------------------------------------===//

/// The number of f32 elements in `bytes`.
inline int64_t floatsIn(int64_t bytes) { return bytes / sizeof(float); }

/// Returns the f32 rate of an SGD or Adagrad update, small enough that the
/// parameter stays near 1 through any number of iterations.
inline runtime::Tensor learningRate() {
  runtime::Tensor rate(runtime::DType::F32, runtime::Shape{});
  *rate.data<float>() = 1e-7f;
  return rate;
}

/// Adds an f32 parameter `name` of `shape`, initialised to `initialValue`
/// when the server starts, to `store`.
inline StatusOr<runtime::ParameterId>
addParameter(runtime::ParameterStore &store, std::string name,
             const runtime::Shape &shape, double initialValue) {
  StatusOr<runtime::Tensor> value =
      runtime::Tensor::allocate(runtime::DType::F32, shape);
  if (!value)
    return value.status();
  runtime::Parameter parameter;
  parameter.name = std::move(name);
  parameter.initializer.value = initialValue;
  parameter.wholeShape = shape;
  parameter.value = std::move(*value);
  return store.add(std::move(parameter));
}

/// Adds the one input of an update of `parameter`, the received value.
inline runtime::SlotId addReceivedInput(runtime::Plan::Builder &builder,
                                        const runtime::Tensor &parameter) {
  runtime::SlotId received =
      builder.addSlot(parameter.dtype(), parameter.numel());
  builder.addInput(received,
                   runtime::FeedSpec{parameter.dtype(), parameter.shape()});
  return received;
}

/// Returns the update of a block of `store` that only takes the received
/// buffer: a push to it costs what the transport and the server's protocol
/// cost, whatever the block's size.
inline runtime::Plan takeOnlyPlan(const runtime::ParameterStore &store,
                                  runtime::ParameterId parameter) {
  runtime::Plan::Builder builder(store);
  addReceivedInput(builder, store[parameter].value);
  return std::move(builder).build();
}

/// Adds to `program` an f32 block `name` of `numel` elements, initialised to
/// 1, whose update `makeUpdate` builds.
inline Status
addBlock(runtime::ServerProgramSpec &program, std::string name, int64_t numel,
         runtime::Plan (*makeUpdate)(const runtime::ParameterStore &,
                                     runtime::ParameterId)) {
  StatusOr<runtime::ParameterId> id =
      addParameter(program.store, std::move(name), runtime::Shape{numel},
                   /*initialValue=*/1);
  if (!id)
    return id.status();
  program.updates.push_back(makeUpdate(program.store, *id));
  program.blocks.push_back({*id, runtime::MessageKind::Grad,
                            program.updates.size() - 1, /*takesRows=*/false});
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Tables
//===----------------------------------------------------------------------===//

/// The rows of a table block of the table benchmarks, their dimensions, and
/// the most rows of a batch.
inline constexpr int64_t kTableRows = 1000000;
inline constexpr int64_t kTableDims[] = {16, 64};
inline constexpr int64_t kMaxBatchRows = 16384;

/// Adagrad's epsilon in the updates of the tables.
inline constexpr double kAdagradEpsilon = 1e-6;

/// How a table's gradient reaches its server: its rows, or whole.
enum class Gradient { Rows, Whole };

/// Returns the update openks-transpile makes for a table minimized with
/// Adagrad, on the received gradient: the rows, then their ids, of at most
/// kMaxBatchRows rows (Gradient::Rows), or the whole gradient.
inline runtime::Plan adagradUpdatePlan(const runtime::ParameterStore &store,
                                       runtime::ParameterId table,
                                       runtime::ParameterId moment,
                                       Gradient gradient) {
  runtime::Plan::Builder builder(store);
  const runtime::Tensor &value = store[table].value;
  runtime::SlotId grad;
  std::optional<runtime::SlotId> ids;
  if (gradient == Gradient::Whole) {
    grad = addReceivedInput(builder, value);
  } else {
    runtime::Shape rows = value.shape();
    rows[0] = -1;
    grad = builder.addSlot(value.dtype(), kMaxBatchRows * rows.rowWidth());
    builder.addInput(grad, runtime::FeedSpec{value.dtype(), rows});
    ids = builder.addSlot(runtime::DType::I64, kMaxBatchRows);
    builder.addInput(
        *ids, runtime::FeedSpec{runtime::DType::I64, runtime::Shape{-1}});
  }
  runtime::SlotId rate = builder.addConstantSlot(learningRate());
  builder.addInstruction(
      [=](const runtime::Frame &frame) -> runtime::BoundKernel {
        const runtime::Tensor *rowIds = ids ? &frame.slot(*ids) : nullptr;
        return
            [&param = frame.parameter(table), &state = frame.parameter(moment),
             &grad = frame.slot(grad), rowIds, &rate = frame.slot(rate)] {
              return runtime::kernels::adagrad(
                  param, state,
                  rowIds ? runtime::kernels::GradientRef(*rowIds, grad)
                         : runtime::kernels::GradientRef(grad),
                  rate, kAdagradEpsilon);
            };
      },
      "adagrad", /*reads=*/{}, /*writes=*/{table, moment});
  return std::move(builder).build();
}

/// Adds to `program` a table block `name` of kTableRows x `dim` f32
/// elements, initialised to 1, minimized with Adagrad (whose moment,
/// initialised to 0, only the server holds) on gradients of the kind
/// `gradient`.
inline Status addAdagradTable(runtime::ServerProgramSpec &program,
                              const std::string &name, int64_t dim,
                              Gradient gradient) {
  runtime::Shape shape{kTableRows, dim};
  StatusOr<runtime::ParameterId> table =
      addParameter(program.store, name, shape, /*initialValue=*/1);
  if (!table)
    return table.status();
  StatusOr<runtime::ParameterId> moment =
      addParameter(program.store, name + "_moment", shape, /*initialValue=*/0);
  if (!moment)
    return moment.status();
  program.updates.push_back(
      adagradUpdatePlan(program.store, *table, *moment, gradient));
  program.blocks.push_back({*table, runtime::MessageKind::Grad,
                            program.updates.size() - 1,
                            /*takesRows=*/gradient == Gradient::Rows});
  return Status::ok();
}

/// Batches of distinct ascending row ids of a table block, each of `count`
/// ids drawn uniformly, enough of them that they touch about every row
/// once: iterations that take one batch after the other find their rows in
/// memory, as a job's steps do, not in the cache.
class RowBatches {
public:
  explicit RowBatches(int64_t count) {
    std::mt19937_64 generator(7);
    std::uniform_int_distribution<int64_t> draw(0, kTableRows - 1);
    std::vector<bool> taken(kTableRows);
    for (int64_t first = 0; first < kTableRows; first += count) {
      runtime::Tensor &batch =
          batches_.emplace_back(runtime::DType::I64, runtime::Shape{count});
      int64_t *ids = batch.data<int64_t>();
      std::fill(taken.begin(), taken.end(), false);
      for (int64_t drawn = 0; drawn < count;) {
        int64_t id = draw(generator);
        if (!taken[id]) {
          taken[id] = true;
          ids[drawn++] = id;
        }
      }
      std::sort(ids, ids + count);
    }
  }

  /// Returns the next batch, going round.
  const runtime::Tensor &next() {
    const runtime::Tensor &batch = batches_[next_];
    next_ = (next_ + 1) % batches_.size();
    return batch;
  }

private:
  std::vector<runtime::Tensor> batches_;
  size_t next_ = 0;
};

/// Reports rows/s, and the GB/s of their values, given the rows of `dim`
/// f32 elements of one iteration.
inline void setRowRates(benchmark::State &state, int64_t rows, int64_t dim) {
  state.counters["rows/s"] = benchmark::Counter(
      static_cast<double>(rows), benchmark::Counter::kIsIterationInvariantRate);
  setBandwidth(state, rows * dim * static_cast<int64_t>(sizeof(float)));
}

/// Each iteration: a prefetch through `transport` of a batch of `range(1)`
/// rows of `block` of server 0, a table block of dimension `range(0)`.
inline void pullTableRows(benchmark::State &state,
                          runtime::Transport &transport, int block) {
  int64_t dim = state.range(0), count = state.range(1);
  runtime::Tensor rows(runtime::DType::F32, runtime::Shape{count, dim});
  RowBatches batches(count);
  for (auto _ : state) {
    Status status = transport.pullRows(/*server=*/0, block, batches.next(),
                                       rows, /*trainer=*/0, deadline());
    benchmark::DoNotOptimize(rows.rawData());
    if (failed(state, status))
      break;
  }
  setRowRates(state, count, dim);
}

/// Pushes `ids` and `grad`, a row-sparse gradient of `ids.numel()` rows of
/// `dim` elements, through `transport` to `block` of server 0, a table
/// block. The transport may take both buffers and hand back others of the
/// same capacity: `ids` is refilled from `batch` first, as a step computes
/// its ids, and the values handed back (a gradient pushed before, or zeros)
/// serve as the next gradient.
inline Status pushRowGradient(runtime::Transport &transport, int block,
                              const runtime::Tensor &batch,
                              runtime::Tensor &ids, runtime::Tensor &grad,
                              int64_t dim) {
  ids.copyFrom(batch);
  grad.resize(runtime::Shape{batch.numel(), dim});
  return transport.pushRows(/*server=*/0, block, runtime::MessageKind::Grad,
                            ids, grad, /*trainer=*/0, deadline());
}

/// The dimensions of the table benchmarks, and the rows of their batches.
inline void tableShapes(benchmark::internal::Benchmark *benchmark) {
  for (int64_t dim : kTableDims)
    for (int64_t count : {int64_t(4096), kMaxBatchRows})
      benchmark->Args({dim, count});
}

} // namespace openks::bench

#endif // OPENKS_UTILS_BENCH_BENCHSUPPORT_H
