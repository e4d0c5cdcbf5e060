//===- RuntimeBench.cpp - PS runtime speed against direct baselines -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Measures the parameter-server runtime next to the direct way to do the
// same work, in the same process and run, so that utils/bench-runtime.sh can
// turn the pairs into ratios that hold on a shared, noisy machine:
//
// * transport: pushes through the in-process transport to an async server,
//   to a block whose update only takes the pushed buffer (the transport's
//   own cost) and to one updated by SGD, and pulls of a block, against
//   memcpy of the same bytes and against the SGD kernel run directly;
// * tables: a block of an embedding table of 1,000,000 rows of 16 or 64
//   f32 elements on an async server, minimized with Adagrad. Prefetches
//   (pullRows) of batches of 4096 or 16384 distinct ascending rows against a
//   plain loop that gathers the same rows out of a table of the same size
//   (goal: >= 10 M rows/s at dim 16), and pushes of their row-sparse
//   gradient (pushRows) against Adagrad run directly on the same gradient
//   (goal: >= 5 M rows/s at dim 16), both as rows/s per server thread (the
//   async server works in the trainer's thread). The batches follow one
//   another through the whole table, as a job's steps do, so that the rows
//   come from memory rather than from the cache;
// * table steps: a step's traffic for a table of 1,000,000 x 16 and a batch
//   touching 4096 of its rows, as the server counts it: the rows' gradient
//   pushed and the rows prefetched (K * (D * 4 + 8) bytes each way, their
//   ids included), against the whole gradient pushed and the whole block
//   pulled (V * D * 4 bytes each way);
// * training: steps of the MLP example (docs/examples/mlp.mlir minimized with
//   SGD) by one trainer and one sync server against single-process steps on
//   the same data, and single-process steps on 1 and 2 threads with the
//   data in memory (the peer of PyTorch in utils/bench-peers.sh);
// * barriers: sync steps of 2, 4 and 8 trainers that only pass the send and
//   fetch barriers of one server holding no blocks.
//
// The transport and barrier benchmarks build their servers by hand from the
// runtime core; only the training benchmarks load programs from IR.
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"

#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"
#include "openks/Pipelines/Pipelines.h"
#include "openks/Runtime/ComputeThreads.h"
#include "openks/Runtime/InProcessTransport.h"
#include "openks/Runtime/Kernels.h"
#include "openks/Runtime/Loader/JobBuilder.h"
#include "openks/Runtime/LocalTrainer.h"
#include "openks/Runtime/ServerRole.h"
#include "openks/Runtime/WorkerRole.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <benchmark/benchmark.h>
#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using namespace openks::bench;

namespace {

/// Returns an f32 tensor of `numel` elements in [-1, 1).
Tensor randomVector(int64_t numel) {
  Tensor tensor(DType::F32, Shape{numel});
  float *data = tensor.data<float>();
  uint32_t state = 12345;
  for (int64_t i = 0; i < numel; ++i) {
    state = state * 1664525u + 1013904223u;
    data[i] = static_cast<float>(state >> 8) / (1 << 23) - 1.0f;
  }
  return tensor;
}

/// Returns the update openks-transpile makes for a parameter minimized with
/// SGD, on the received gradient.
Plan sgdUpdatePlan(const ParameterStore &store, ParameterId parameter) {
  Plan::Builder builder(store);
  SlotId grad = addReceivedInput(builder, store[parameter].value);
  SlotId rate = builder.addConstantSlot(learningRate());
  builder.addInstruction(
      [=](const Frame &frame) -> BoundKernel {
        return [&param = frame.parameter(parameter), &grad = frame.slot(grad),
                &rate = frame.slot(rate)] {
          return kernels::sgd(param, grad, rate);
        };
      },
      "sgd", /*reads=*/{}, /*writes=*/{parameter});
  return std::move(builder).build();
}

/// The server of `spec` (its mode, trainers and blocks) and the in-process
/// transport to it, set up as ServerInstance sets up each server of a job.
class BenchServer {
public:
  static StatusOr<std::unique_ptr<BenchServer>> create(ServerSpec spec) {
    std::unique_ptr<BenchServer> server(new BenchServer(std::move(spec)));
    StatusOr<std::unique_ptr<ServerRole>> role =
        ServerRole::create(*server->spec_.program, server->spec_.name);
    if (!role)
      return role.status();
    server->role_ = std::move(*role);
    OPENKS_RETURN_IF_ERROR(server->role_->initialize());
    server->server_ = std::make_unique<ParameterServer>(
        ServerConfig{server->spec_.name, server->spec_.mode,
                     server->spec_.trainers, kTimeout},
        *server->role_);
    server->transport_ = std::make_unique<InProcessTransport>(
        std::vector<ParameterServer *>{server->server_.get()});
    return server;
  }

  ParameterServer &server() { return *server_; }
  Transport &transport() { return *transport_; }

private:
  explicit BenchServer(ServerSpec spec) : spec_(std::move(spec)) {}

  ServerSpec spec_;
  std::unique_ptr<ServerRole> role_;
  std::unique_ptr<ParameterServer> server_;
  std::unique_ptr<InProcessTransport> transport_;
};

/// Returns the spec of an async server of one trainer, without a program.
ServerSpec asyncServerSpec() {
  ServerSpec spec;
  spec.name = "@ps0 (127.0.0.1:6170)";
  spec.endpoint = "127.0.0.1:6170";
  spec.mode = SyncMode::Async;
  return spec;
}

/// Returns an async server of one trainer holding one f32 block of `numel`
/// elements, initialised to 1, whose update `makeUpdate` builds.
StatusOr<std::unique_ptr<BenchServer>>
createBlockServer(int64_t numel,
                  Plan (*makeUpdate)(const ParameterStore &, ParameterId)) {
  ServerSpec spec = asyncServerSpec();
  OPENKS_RETURN_IF_ERROR(
      addBlock(spec.program.emplace(), "w", numel, makeUpdate));
  return BenchServer::create(std::move(spec));
}

//===----------------------------------------------------------------------===//
// Blocks: pushes and pulls
//===----------------------------------------------------------------------===//

/// memcpy of a block into another buffer: the cost of moving its bytes once.
void BM_Memcpy(benchmark::State &state) {
  int64_t bytes = state.range(0);
  Tensor source = randomVector(floatsIn(bytes));
  Tensor target(DType::F32, Shape{floatsIn(bytes)});
  for (auto _ : state) {
    std::memcpy(target.rawData(), source.rawData(), bytes);
    benchmark::DoNotOptimize(target.rawData());
    benchmark::ClobberMemory();
  }
  setBandwidth(state, bytes);
}

/// The SGD update of a block run directly: what a push of its gradient
/// cannot do without.
void BM_SgdUpdate(benchmark::State &state) {
  int64_t bytes = state.range(0);
  Tensor param = randomVector(floatsIn(bytes));
  Tensor grad = randomVector(floatsIn(bytes));
  Tensor rate = learningRate();
  for (auto _ : state) {
    Status status = kernels::sgd(param, grad, rate);
    benchmark::DoNotOptimize(param.rawData());
    if (failed(state, status))
      break;
  }
  setBandwidth(state, bytes);
}

/// Pushes `range(0)` bytes of gradient to a block whose update
/// `makeUpdate` builds, through the in-process transport to an async
/// server, which runs the update in the trainer's thread.
void pushBlocks(benchmark::State &state,
                Plan (*makeUpdate)(const ParameterStore &, ParameterId)) {
  int64_t bytes = state.range(0);
  StatusOr<std::unique_ptr<BenchServer>> server =
      createBlockServer(floatsIn(bytes), makeUpdate);
  if (failed(state, server.status()))
    return;
  // The transport hands back a buffer of the same capacity, whose contents
  // (a gradient pushed before, or zeros) serve as the next gradient.
  Tensor grad = randomVector(floatsIn(bytes));
  Transport &transport = (*server)->transport();
  for (auto _ : state) {
    grad.resize(Shape{floatsIn(bytes)});
    Status status = transport.push(/*server=*/0, /*block=*/0, MessageKind::Grad,
                                   grad, /*trainer=*/0, deadline());
    if (failed(state, status))
      break;
  }
  setBandwidth(state, bytes);
}

/// A push whose update only takes the buffer: the transport's own cost.
void BM_PushTakeOnly(benchmark::State &state) {
  pushBlocks(state, takeOnlyPlan);
}

/// A push whose update is SGD, as in a job minimized with SGD.
void BM_PushSgd(benchmark::State &state) { pushBlocks(state, sgdUpdatePlan); }

/// A trainer's pull of a block's current value from an async server.
void BM_Pull(benchmark::State &state) {
  int64_t bytes = state.range(0);
  StatusOr<std::unique_ptr<BenchServer>> server =
      createBlockServer(floatsIn(bytes), sgdUpdatePlan);
  if (failed(state, server.status()))
    return;
  Tensor value(DType::F32, Shape{floatsIn(bytes)});
  Transport &transport = (*server)->transport();
  for (auto _ : state) {
    Status status = transport.pull(/*server=*/0, /*block=*/0, value,
                                   /*trainer=*/0, deadline());
    benchmark::DoNotOptimize(value.rawData());
    if (failed(state, status))
      break;
  }
  setBandwidth(state, bytes);
}

/// The blocks of the transport benchmarks, 4 KiB to 64 MiB.
void blockSizes(benchmark::internal::Benchmark *benchmark) {
  for (int64_t kib : {4, 64, 1024, 16 * 1024, 64 * 1024})
    benchmark->Arg(kib * 1024);
}

//===----------------------------------------------------------------------===//
// Tables: prefetches and row-sparse pushes
//===----------------------------------------------------------------------===//

/// Returns an async server of one trainer holding one table block of
/// dimension `dim` (addAdagradTable) on gradients of the kind `gradient`.
StatusOr<std::unique_ptr<BenchServer>> createTableServer(int64_t dim,
                                                         Gradient gradient) {
  ServerSpec spec = asyncServerSpec();
  OPENKS_RETURN_IF_ERROR(
      addAdagradTable(spec.program.emplace(), "emb", dim, gradient));
  return BenchServer::create(std::move(spec));
}

/// Returns the server of createTableServer(dim, gradient), made on first
/// use and kept for the benchmarks that follow: a table takes longer to
/// allocate and fill than a benchmark takes to run.
StatusOr<BenchServer *> getTableServer(int64_t dim, Gradient gradient) {
  static std::map<std::pair<int64_t, Gradient>, std::unique_ptr<BenchServer>>
      servers;
  std::unique_ptr<BenchServer> &server = servers[{dim, gradient}];
  if (!server) {
    StatusOr<std::unique_ptr<BenchServer>> created =
        createTableServer(dim, gradient);
    if (!created)
      return created.status();
    server = std::move(*created);
  }
  return server.get();
}

/// Returns an f32 tensor of `rows` x `dim` elements in [-1, 1).
Tensor randomRows(int64_t rows, int64_t dim) {
  Tensor tensor = randomVector(rows * dim);
  tensor.resize(Shape{rows, dim});
  return tensor;
}

/// A table of kTableRows rows and its Adagrad moment, which the direct
/// baselines work on.
struct DirectTable {
  Tensor values, moment;
};

/// Returns the direct baselines' table of dimension `dim`, its values in
/// [-1, 1) and its moment 0, made on first use and kept as getTableServer
/// keeps the servers' tables.
DirectTable &getDirectTable(int64_t dim) {
  static std::map<int64_t, DirectTable> tables;
  auto [entry, inserted] = tables.try_emplace(dim);
  if (inserted) {
    entry->second.values = randomRows(kTableRows, dim);
    entry->second.moment = Tensor(DType::F32, Shape{kTableRows, dim});
  }
  return entry->second;
}

/// A plain loop that copies a batch of `range(1)` rows of `range(0)`
/// elements out of a table of kTableRows of them: the memory-bound
/// baseline of a prefetch.
void BM_GatherRows(benchmark::State &state) {
  int64_t dim = state.range(0), count = state.range(1);
  const Tensor &table = getDirectTable(dim).values;
  Tensor rows(DType::F32, Shape{count, dim});
  RowBatches batches(count);
  for (auto _ : state) {
    const int64_t *ids = batches.next().data<int64_t>();
    const float *source = table.data<float>();
    float *target = rows.data<float>();
    for (int64_t row = 0; row < count; ++row)
      std::memcpy(target + row * dim, source + ids[row] * dim,
                  dim * sizeof(float));
    benchmark::DoNotOptimize(rows.rawData());
    benchmark::ClobberMemory();
  }
  setRowRates(state, count, dim);
}

/// A trainer's prefetch of a batch of `range(1)` rows of a table block of
/// dimension `range(0)` from an async server, through the in-process
/// transport.
void BM_PullRows(benchmark::State &state) {
  StatusOr<BenchServer *> server =
      getTableServer(state.range(0), Gradient::Rows);
  if (failed(state, server.status()))
    return;
  pullTableRows(state, (*server)->transport(), /*block=*/0);
}

/// Adagrad run directly on a row-sparse gradient of a batch of `range(1)`
/// rows of a table of dimension `range(0)`: what a push of the gradient
/// cannot do without.
void BM_AdagradRows(benchmark::State &state) {
  int64_t dim = state.range(0), count = state.range(1);
  DirectTable &table = getDirectTable(dim);
  Tensor grad = randomRows(count, dim);
  Tensor rate = learningRate();
  RowBatches batches(count);
  for (auto _ : state) {
    Status status = kernels::adagrad(table.values, table.moment,
                                     kernels::GradientRef(batches.next(), grad),
                                     rate, kAdagradEpsilon);
    benchmark::DoNotOptimize(table.values.rawData());
    if (failed(state, status))
      break;
  }
  setRowRates(state, count, dim);
}

/// A trainer's push of the row-sparse gradient of a batch of `range(1)`
/// rows to a table block of dimension `range(0)` of an async server, which
/// runs Adagrad on it in the trainer's thread, through the in-process
/// transport.
void BM_PushRows(benchmark::State &state) {
  int64_t dim = state.range(0), count = state.range(1);
  StatusOr<BenchServer *> server = getTableServer(dim, Gradient::Rows);
  if (failed(state, server.status()))
    return;
  Tensor ids(DType::I64, Shape{count});
  Tensor grad = randomRows(count, dim);
  RowBatches batches(count);
  Transport &transport = (*server)->transport();
  for (auto _ : state)
    if (failed(state, pushRowGradient(transport, /*block=*/0, batches.next(),
                                      ids, grad, dim)))
      break;
  setRowRates(state, count, dim);
}

/// Runs `step` once per iteration on `server` and reports the bytes the
/// server counted pushed and pulled per step.
void countTraffic(benchmark::State &state, BenchServer &server,
                  const std::function<Status()> &step) {
  ParameterServer::Stats before = server.server().stats();
  for (auto _ : state)
    if (failed(state, step()))
      return;
  ParameterServer::Stats after = server.server().stats();
  state.counters["pushed B/step"] = benchmark::Counter(
      static_cast<double>(after.bytesPushed - before.bytesPushed),
      benchmark::Counter::kAvgIterations);
  state.counters["pulled B/step"] = benchmark::Counter(
      static_cast<double>(after.bytesPulled - before.bytesPulled),
      benchmark::Counter::kAvgIterations);
}

/// A step's traffic for a table block of dimension `range(0)` when a batch
/// touches `range(1)` of its rows: their row-sparse gradient pushed, and
/// the rows prefetched.
void BM_TableStepRows(benchmark::State &state) {
  int64_t dim = state.range(0), count = state.range(1);
  StatusOr<BenchServer *> server = getTableServer(dim, Gradient::Rows);
  if (failed(state, server.status()))
    return;
  Tensor ids(DType::I64, Shape{count});
  Tensor grad = randomRows(count, dim);
  Tensor rows(DType::F32, Shape{count, dim});
  RowBatches batches(count);
  Transport &transport = (*server)->transport();
  countTraffic(state, **server, [&] {
    const Tensor &batch = batches.next();
    OPENKS_RETURN_IF_ERROR(
        pushRowGradient(transport, /*block=*/0, batch, ids, grad, dim));
    return transport.pullRows(/*server=*/0, /*block=*/0, batch, rows,
                              /*trainer=*/0, deadline());
  });
}

/// The same step for a dense table: the whole gradient pushed, the whole
/// block pulled.
void BM_TableStepWhole(benchmark::State &state) {
  int64_t dim = state.range(0);
  StatusOr<BenchServer *> server = getTableServer(dim, Gradient::Whole);
  if (failed(state, server.status()))
    return;
  // As in pushBlocks, the buffer handed back is the next gradient.
  Tensor grad = randomRows(kTableRows, dim);
  Tensor table(DType::F32, Shape{kTableRows, dim});
  Transport &transport = (*server)->transport();
  countTraffic(state, **server, [&] {
    grad.resize(Shape{kTableRows, dim});
    OPENKS_RETURN_IF_ERROR(transport.push(/*server=*/0, /*block=*/0,
                                          MessageKind::Grad, grad,
                                          /*trainer=*/0, deadline()));
    return transport.pull(/*server=*/0, /*block=*/0, table, /*trainer=*/0,
                          deadline());
  });
}

//===----------------------------------------------------------------------===//
// Barriers and training
//===----------------------------------------------------------------------===//

/// Remembers the first error of several threads.
class FirstError {
public:
  void record(const Status &status) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (first_.isOk())
      first_ = status;
  }
  Status get() {
    std::lock_guard<std::mutex> lock(mutex_);
    return first_;
  }

private:
  std::mutex mutex_;
  Status first_ = Status::ok();
};

/// Sync steps of `range(0)` trainers that pass a blockless server's send
/// and fetch barriers and do nothing else. Each iteration is a fresh job
/// of kSteps steps; its time is trainer 0's from the end of the first step
/// to the end of the last, so thread start-up is not counted.
void BM_Barrier(benchmark::State &state) {
  constexpr int64_t kSteps = 1000;
  int trainers = static_cast<int>(state.range(0));
  for (auto _ : state) {
    ServerSpec spec;
    spec.name = "@ps0 (127.0.0.1:6170)";
    spec.endpoint = "127.0.0.1:6170";
    spec.trainers = trainers;
    // BenchServer runs the spec's program, which holds no blocks.
    spec.program.emplace();
    StatusOr<std::unique_ptr<BenchServer>> server =
        BenchServer::create(std::move(spec));
    if (failed(state, server.status()))
      return;
    Transport &transport = (*server)->transport();
    FirstError errors;
    std::thread serving([&] { errors.record((*server)->server().serve()); });
    Deadline::Clock::time_point first, last;
    std::vector<std::thread> threads;
    for (int trainer = 0; trainer < trainers; ++trainer)
      threads.emplace_back([&, trainer] {
        auto run = [&]() -> Status {
          // The startup step: a pull phase of its own.
          OPENKS_RETURN_IF_ERROR(
              transport.fetchBarrier(0, trainer, deadline()));
          for (int64_t step = 1; step <= kSteps; ++step) {
            OPENKS_RETURN_IF_ERROR(
                transport.sendBarrier(0, trainer, deadline()));
            OPENKS_RETURN_IF_ERROR(
                transport.fetchBarrier(0, trainer, deadline()));
            if (trainer == 0 && step == 1)
              first = Deadline::Clock::now();
          }
          if (trainer == 0)
            last = Deadline::Clock::now();
          return transport.complete(0, trainer, deadline());
        };
        if (Status status = run(); !status.isOk()) {
          errors.record(status);
          transport.abort(0, trainer, status);
        }
      });
    for (std::thread &thread : threads)
      thread.join();
    serving.join();
    if (failed(state, errors.get()))
      return;
    state.SetIterationTime(std::chrono::duration<double>(last - first).count());
  }
  state.counters["us/step"] = benchmark::Counter(
      (kSteps - 1) / 1e6, benchmark::Counter::kIsIterationInvariantRate |
                              benchmark::Counter::kInvert);
}

/// The MLP example's step: its global batch and its data.
constexpr int64_t kBatch = 64;
const char *const kMlpData = "synthetic:classes=10,seed=7";

/// docs/examples/mlp.mlir minimized with SGD (lr 0.1), and the same
/// transpiled for one sync server and one trainer; built once.
class MlpPrograms {
public:
  /// Returns the programs, or null after printing why they cannot be built.
  static MlpPrograms *get() {
    static std::unique_ptr<MlpPrograms> programs = build();
    return programs.get();
  }

  /// Returns a single-process trainer of the minimized step.
  StatusOr<std::unique_ptr<LocalTrainer>> localTrainer() {
    StatusOr<std::pair<ParameterStore, Plan>> step = localStep();
    if (!step)
      return step.status();
    return LocalTrainer::create(std::move(step->first), std::move(step->second),
                                kMlpData);
  }

  /// Returns the minimized step's parameters and plan.
  StatusOr<std::pair<ParameterStore, Plan>> localStep() {
    train::StepOp step;
    minimized_->walk([&](train::StepOp op) { step = op; });
    FailureOr<ParameterStore> store =
        buildParameterStore(step->getParentOp(), planOptions());
    if (mlir::failed(store))
      return Status::internal("cannot build the MLP's parameter store");
    FailureOr<Plan> plan = buildPlan(step.getBody(), *store, planOptions());
    if (mlir::failed(plan))
      return Status::internal("cannot build the MLP's step plan");
    return std::make_pair(std::move(*store), std::move(*plan));
  }

  /// Returns the loaded job.
  StatusOr<JobSpec> job() {
    FailureOr<JobSpec> job = buildJob(*transpiled_, planOptions());
    if (mlir::failed(job))
      return Status::internal("cannot load the MLP's job");
    return std::move(*job);
  }

private:
  template <typename T> using FailureOr = mlir::FailureOr<T>;

  static PlanOptions planOptions() {
    PlanOptions options;
    options.maxBatch = kBatch;
    return options;
  }

  static std::unique_ptr<MlpPrograms> build() {
    auto programs = std::make_unique<MlpPrograms>();
    if (mlir::failed(programs->compile()))
      return nullptr;
    return programs;
  }

  mlir::LogicalResult compile() {
    registerAllPasses();
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    context_.appendDialectRegistry(registry);
    context_.loadAllAvailableDialects();
    minimized_ = mlir::parseSourceFile<mlir::ModuleOp>(
        OPENKS_SOURCE_DIR "/docs/examples/mlp.mlir", &context_);
    if (!minimized_)
      return mlir::failure();
    MinimizeOptions minimize;
    minimize.optimizer = OptimizerKind::SGD;
    minimize.learningRate = 0.1;
    auto pm = mlir::PassManager::on<mlir::ModuleOp>(&context_);
    buildMinimizePipeline(pm, minimize);
    if (mlir::failed(pm.run(*minimized_)))
      return mlir::failure();

    transpiled_ = minimized_->clone();
    TranspileOptions transpile;
    transpile.pservers = {"127.0.0.1:6170"};
    transpile.trainers = 1;
    auto transpilePm = mlir::PassManager::on<mlir::ModuleOp>(&context_);
    buildTranspilePipeline(transpilePm, transpile);
    return transpilePm.run(*transpiled_);
  }

  mlir::MLIRContext context_;
  mlir::OwningOpRef<mlir::ModuleOp> minimized_, transpiled_;
};

void setSamplesPerSecond(benchmark::State &state) {
  state.counters["samples/s"] =
      benchmark::Counter(kBatch, benchmark::Counter::kIsIterationInvariantRate);
}

/// One step of single-process training: the next batch, forward, backward
/// and the SGD update, as `openks-run` runs it without servers.
void BM_MlpLocal(benchmark::State &state) {
  MlpPrograms *programs = MlpPrograms::get();
  if (!programs) {
    state.SkipWithError("cannot compile docs/examples/mlp.mlir");
    return;
  }
  StatusOr<std::unique_ptr<LocalTrainer>> trainer = programs->localTrainer();
  if (failed(state, trainer.status()) || failed(state, (*trainer)->start()))
    return;
  for (auto _ : state)
    if (failed(state, (*trainer)->step(kBatch)))
      break;
  setSamplesPerSecond(state);
}

/// One step of single-process training on `range(0)` threads with the data
/// in memory, as PyTorch's peer runs it (utils/bench/peer-torch.py): 16
/// batches generated before timing, each step's copied into the plan's
/// inputs, then forward, backward and the SGD update.
void BM_MlpLocalInMemory(benchmark::State &state) {
  MlpPrograms *programs = MlpPrograms::get();
  if (!programs) {
    state.SkipWithError("cannot compile docs/examples/mlp.mlir");
    return;
  }
  StatusOr<std::pair<ParameterStore, Plan>> step = programs->localStep();
  if (failed(state, step.status()))
    return;
  auto &[store, plan] = *step;
  StatusOr<Executor> executor = Executor::create(plan, store);
  if (failed(state, executor.status()) || failed(state, store.initialize()))
    return;
  std::unique_ptr<DataSource> source;
  if (failed(state,
             openDataSource(kMlpData, plan.inputSpecs(), Shard{}, source)))
    return;
  constexpr int kBatches = 16;
  std::vector<std::vector<Tensor>> batches(kBatches);
  for (std::vector<Tensor> &batch : batches) {
    if (failed(state, source->next(kBatch, executor->inputs())))
      return;
    for (const Tensor *input : executor->inputs()) {
      batch.emplace_back(input->dtype(), input->shape());
      batch.back().copyFrom(*input);
    }
  }
  setComputeThreads(state.range(0));
  int64_t next = 0;
  for (auto _ : state) {
    const std::vector<Tensor> &batch = batches[next++ % kBatches];
    for (size_t i = 0; i < batch.size(); ++i)
      executor->inputs()[i]->copyFrom(batch[i]);
    if (failed(state, executor->run()))
      break;
  }
  setComputeThreads(getAvailableCpus());
  setSamplesPerSecond(state);
}

/// One step of the same training by one trainer and one sync server, each
/// a thread, as a LocalJob runs them: the next batch, forward, backward,
/// push every gradient, the send barrier, the server's updates, pull every
/// block and the fetch barrier.
void BM_MlpSync(benchmark::State &state) {
  MlpPrograms *programs = MlpPrograms::get();
  if (!programs) {
    state.SkipWithError("cannot compile docs/examples/mlp.mlir");
    return;
  }
  StatusOr<JobSpec> job = programs->job();
  if (failed(state, job.status()))
    return;
  StatusOr<std::unique_ptr<BenchServer>> server =
      BenchServer::create(std::move(job->servers.front()));
  if (failed(state, server.status()))
    return;
  Transport &transport = (*server)->transport();
  StatusOr<std::unique_ptr<WorkerRole>> worker =
      WorkerRole::create(*job->worker, transport, /*trainer=*/0, kTimeout);
  std::unique_ptr<DataSource> source;
  Status status = worker.status();
  if (status.isOk())
    status = openDataSource(kMlpData, job->worker->main.inputSpecs(), Shard{},
                            source);
  if (failed(state, status))
    return;

  // Each role gets its share of the machine, as LocalJob gives it.
  std::vector<int> budgets = splitComputeThreads(0, 1, 1);
  FirstError errors;
  std::thread serving([&] {
    setComputeThreads(budgets[0]);
    errors.record((*server)->server().serve());
  });
  setComputeThreads(budgets[1]);
  status = (*worker)->start();
  for (auto _ : state) {
    if (status.isOk())
      status = source->next(kBatch, (*worker)->inputs());
    if (status.isOk())
      status = (*worker)->step();
    if (!status.isOk())
      break;
  }
  if (status.isOk())
    status = (*worker)->finish();
  else
    (*worker)->abort(status);
  serving.join();
  setComputeThreads(getAvailableCpus());
  if (status.isOk())
    status = errors.get();
  if (failed(state, status))
    return;
  setSamplesPerSecond(state);
}

/// The sync pair crosses threads: samples/s is by the clock on the wall, and
/// the CPU time is the whole process's, every thread's work. The wall clock
/// of a shared machine needs more repetitions than the others.
void trainingSettings(benchmark::internal::Benchmark *benchmark) {
  benchmark->UseRealTime()->MeasureProcessCPUTime()->Repetitions(15)->Unit(
      benchmark::kMillisecond);
}

} // namespace

BENCHMARK(BM_Memcpy)->Apply(blockSizes);
BENCHMARK(BM_SgdUpdate)->Apply(blockSizes);
BENCHMARK(BM_PushTakeOnly)->Apply(blockSizes);
BENCHMARK(BM_PushSgd)->Apply(blockSizes);
BENCHMARK(BM_Pull)->Apply(blockSizes);
BENCHMARK(BM_GatherRows)->Apply(tableShapes);
BENCHMARK(BM_PullRows)->Apply(tableShapes);
BENCHMARK(BM_AdagradRows)->Apply(tableShapes);
BENCHMARK(BM_PushRows)->Apply(tableShapes);
BENCHMARK(BM_TableStepRows)->Args({16, 4096});
BENCHMARK(BM_TableStepWhole)->Arg(16);
BENCHMARK(BM_MlpLocal)->Apply(trainingSettings);
BENCHMARK(BM_MlpLocalInMemory)->Arg(1)->Arg(2)->Apply(trainingSettings);
BENCHMARK(BM_MlpSync)->Apply(trainingSettings);
BENCHMARK(BM_Barrier)
    ->Arg(1)
    ->Arg(2)
    ->Arg(4)
    ->Arg(8)
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
