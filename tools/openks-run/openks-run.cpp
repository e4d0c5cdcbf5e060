//===- openks-run.cpp - Train a program in one process --------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// openks-run PROGRAM.mlir --steps N --batch-size B --data SPEC [--seed S]
//
// Loads a training program whose step holds its backward and optimizer ops
// (or minimizes a forward-only one with --optimizer), runs its initializers,
// then N steps on mini-batches from SPEC (see DataSource.h). Progress (step,
// loss, samples/s) goes to stdout: one refreshing line on a terminal, periodic
// plain lines otherwise.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"
#include "openks/Pipelines/Pipelines.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Executor.h"
#include "openks/Runtime/Loader/PlanBuilder.h"
#include "openks/Support/InputGuard.h"

#include "MetricsWriter.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/os.h>
#include <unistd.h>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;

namespace cl = llvm::cl;

static cl::OptionCategory runCategory("openks-run options");

static cl::opt<std::string>
    inputFilename(cl::Positional, cl::desc("<program.mlir>"), cl::Required, cl::cat(runCategory));
static cl::opt<int64_t> numSteps("steps", cl::desc("Number of steps to run"),
                                 cl::Required, cl::cat(runCategory));
static cl::opt<int64_t> batchSize("batch-size", cl::desc("Rows per mini-batch"),
                                  cl::Required, cl::cat(runCategory));
static cl::opt<std::string>
    dataSpec("data",
             cl::desc("Data source: csv:PATH, libsvm:PATH or "
                      "synthetic:key=value,..."),
             cl::Required, cl::cat(runCategory));
static cl::opt<uint64_t>
    runSeed("seed",
            cl::desc("Mixed into every initializer seed (0 keeps the "
                     "program's own seeds)"),
            cl::init(0), cl::cat(runCategory));
static cl::opt<std::string>
    stepName("step", cl::desc("The train.step to run (needed when the "
                              "input has several)"), cl::cat(runCategory));
static cl::opt<std::string>
    metricsOut("metrics-out",
               cl::desc("Write per-step metrics as CSV to this file"), cl::cat(runCategory));
static cl::opt<std::string> optimizerName(
    "optimizer",
    cl::desc("Minimize a forward-only program first with this optimizer "
             "(sgd, momentum, adam or adagrad)"), cl::cat(runCategory));
static cl::opt<double> learningRate("lr",
                                    cl::desc("Learning rate for --optimizer"),
                                    cl::init(0.01), cl::cat(runCategory));
static cl::opt<std::string> optimizerOptions(
    "optimizer-options",
    cl::desc("Further openks-minimize options for --optimizer, e.g. "
             "\"beta1=0.8 lr-schedule=exponential decay-steps=100\""), cl::cat(runCategory));
static cl::opt<int64_t>
    logEvery("log-every",
             cl::desc("Steps between progress lines when stdout is not a "
                      "terminal (default: a tenth of the steps)"),
             cl::init(0), cl::cat(runCategory));
static cl::opt<uint64_t> maxInputBytes(
    "max-input-bytes",
    cl::desc("Refuse an input larger than this many bytes (default 1 GiB)"),
    cl::init(kDefaultMaxInputBytes), cl::cat(runCategory));

/// Prints `message` as an error and returns the failing exit code.
static int fail(const std::string &message) {
  fmt::print(stderr, "openks-run: error: {}\n", message);
  return 1;
}

/// Finds the step to run: the one named --step, or the only one.
static FailureOr<train::StepOp> findStep(ModuleOp module) {
  SmallVector<train::StepOp> steps;
  module.walk([&](train::StepOp step) { steps.push_back(step); });
  std::vector<std::string> names;
  for (train::StepOp step : steps) {
    if (!stepName.empty() && step.getSymName() == stepName)
      return step;
    names.push_back("@" + step.getSymName().str());
  }
  if (stepName.empty() && steps.size() == 1)
    return steps.front();
  if (steps.empty())
    fail(fmt::format("{} holds no train.step", inputFilename.getValue()));
  else if (stepName.empty())
    fail(fmt::format("{} holds several steps ({}); choose one with --step",
                     inputFilename.getValue(), fmt::join(names, ", ")));
  else
    fail(fmt::format("{} has no step @{} (it has {})", inputFilename.getValue(),
                     stepName.getValue(), fmt::join(names, ", ")));
  return failure();
}

/// Runs openks-minimize on the step's program when --optimizer asks for it;
/// refuses to minimize twice or to train a program without an optimizer.
static LogicalResult minimizeIfAsked(ModuleOp module, train::StepOp step) {
  bool hasOptimizer = false;
  step.walk([&](Operation *op) {
    hasOptimizer |= isa<train::OptimizerOpInterface, train::ParamGradOp>(op);
  });
  if (hasOptimizer && !optimizerName.empty()) {
    fail(fmt::format("step @{} already has its backward pass and optimizer; "
                     "drop --optimizer",
                     step.getSymName().str()));
    return failure();
  }
  if (hasOptimizer)
    return success();
  if (optimizerName.empty()) {
    fail(fmt::format("step @{} has no optimizer ops; pass --optimizer to "
                     "minimize it first",
                     step.getSymName().str()));
    return failure();
  }
  // --optimizer-options first, then --optimizer and --lr as typed values.
  MinimizeOptions options;
  std::string errors;
  llvm::raw_string_ostream errorStream(errors);
  if (failed(options.parseFromString(optimizerOptions, errorStream))) {
    // llvm::cl reports a bad value on stderr, not on errorStream.
    fail(fmt::format("--optimizer-options: {}",
                     errors.empty() ? fmt::format("cannot parse \"{}\"",
                                                  optimizerOptions.getValue())
                                    : llvm::StringRef(errors).trim().str()));
    return failure();
  }
  if (options.optimizer.getNumOccurrences() ||
      options.learningRate.getNumOccurrences()) {
    fail("--optimizer-options: set the optimizer and lr with --optimizer and "
         "--lr");
    return failure();
  }
  // --optimizer takes the names of the pipeline's optimizer option.
  auto &optimizers = options.optimizer.getParser();
  unsigned index = optimizers.findOption(optimizerName);
  if (index == optimizers.getNumOptions()) {
    std::vector<std::string> names;
    for (unsigned i = 0; i != index; ++i)
      names.push_back(optimizers.getOption(i).str());
    fail(fmt::format("--optimizer: unknown optimizer '{}'; choose one of {}",
                     optimizerName.getValue(), fmt::join(names, ", ")));
    return failure();
  }
  options.optimizer = static_cast<const cl::OptionValue<OptimizerKind> &>(
                          optimizers.getOptionValue(index))
                          .getValue();
  options.learningRate = learningRate;
  auto pm = PassManager::on<ModuleOp>(module.getContext());
  buildMinimizePipeline(pm, options);
  if (failed(pm.run(module))) {
    fail("cannot minimize the program");
    return failure();
  }
  return success();
}

/// Returns the value of a rank-0 float tensor.
static double scalarValue(const Tensor &tensor) {
  return tensor.dtype() == DType::F32 ? *tensor.data<float>()
                                      : *tensor.data<double>();
}

static bool isScalarFloat(const Tensor &tensor) {
  return tensor.rank() == 0 && tensor.dtype() != DType::I64;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  registerAllPasses();
  cl::HideUnrelatedOptions(runCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "openks-run: train a program in one process\n\n"
      "Runs the initializers and --steps steps of a train.step that holds\n"
      "its backward and optimizer ops, or of a forward-only step minimized\n"
      "with --optimizer.\n");
  if (numSteps < 1)
    return fail(
        fmt::format("--steps must be at least 1, got {}", numSteps.getValue()));
  if (batchSize < 1)
    return fail(fmt::format("--batch-size must be at least 1, got {}",
                            batchSize.getValue()));

  DialectRegistry registry;
  registerAllDialects(registry);
  MLIRContext context(registry);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  StatusOr<std::string> text = readBoundedInput(inputFilename, maxInputBytes);
  if (!text)
    return fail(text.status().message());
  if (Status nesting = checkNestingDepth(*text, kMaxNestingDepth);
      !nesting.isOk())
    return fail(inputFilename + ": " + nesting.message());
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(*text, inputFilename),
      llvm::SMLoc());
  OwningOpRef<ModuleOp> module =
      parseSourceFile<ModuleOp>(sourceMgr, &context);
  if (!module)
    return fail(fmt::format("cannot load {}", inputFilename.getValue()));
  FailureOr<train::StepOp> step = findStep(*module);
  if (failed(step))
    return 1;
  if (auto worker = (*step)->getParentOfType<ps::WorkerOp>())
    return fail(fmt::format("step @{} belongs to the transpiled worker @{}; "
                            "openks-run trains a train.program in one "
                            "process",
                            step->getSymName().str(),
                            worker.getSymName().str()));

  ArrayRef<Type> results = step->getResultTypes();
  auto lossType =
      results.empty() ? nullptr : dyn_cast<RankedTensorType>(results.front());
  if (!lossType || lossType.getRank() != 0 ||
      !isa<FloatType>(lossType.getElementType()))
    return fail(fmt::format("step @{} must fetch its loss (a rank-0 float "
                            "tensor) as its first result",
                            step->getSymName().str()));
  if (failed(minimizeIfAsked(*module, *step)))
    return 1;

  PlanOptions options;
  options.maxBatch = batchSize;
  options.runSeed = runSeed;
  std::string planError =
      "cannot build an execution plan for @" + step->getSymName().str();
  FailureOr<ParameterStore> store = buildParameterStore(
      SymbolTable::getNearestSymbolTable((*step)->getParentOp()), options);
  if (failed(store))
    return fail(planError);
  FailureOr<Plan> plan = buildPlan(step->getBody(), *store, options);
  if (failed(plan))
    return fail(planError);
  StatusOr<Executor> created = Executor::create(*plan, *store);
  if (!created)
    return fail(created.status().message());
  Executor &executor = *created;

  std::unique_ptr<DataSource> source;
  Status status = openDataSource(dataSpec, plan->inputSpecs(), Shard{}, source);
  if (!status.isOk())
    return fail(status.message());

  std::optional<run::MetricsWriter> metrics;
  if (!metricsOut.empty()) {
    std::vector<std::string> columns(plan->outputNames().begin() + 1,
                                     plan->outputNames().end());
    StatusOr<run::MetricsWriter> writer =
        run::MetricsWriter::create(metricsOut, columns);
    if (!writer)
      return fail(writer.status().message());
    metrics.emplace(std::move(*writer));
  }

  status = store->initialize();
  if (!status.isOk())
    return fail(status.message());

  bool terminal = isatty(fileno(stdout));
  int64_t every =
      logEvery > 0 ? logEvery.getValue() : std::max<int64_t>(1, numSteps / 10);
  using Clock = std::chrono::steady_clock;
  Clock::time_point start = Clock::now(), windowStart = start;
  int64_t windowRows = 0, totalRows = 0;
  double loss = 0;
  for (int64_t stepIndex = 1; stepIndex <= numSteps; ++stepIndex) {
    Clock::time_point stepStart = Clock::now();
    status = source->next(batchSize, executor.inputs());
    if (status.isOk())
      status = executor.run();
    if (!status.isOk())
      return fail(fmt::format("step {}: {}", stepIndex, status.message()));
    Clock::time_point stepEnd = Clock::now();

    int64_t rows = executor.inputs().empty()
                       ? batchSize.getValue()
                       : executor.inputs().front()->dim(0);
    windowRows += rows;
    totalRows += rows;
    loss = scalarValue(*executor.outputs().front());
    if (!std::isfinite(loss))
      return fail(fmt::format("step {}: the loss is {}; lower the learning "
                              "rate or check the data",
                              stepIndex, loss));
    double stepSeconds =
        std::chrono::duration<double>(stepEnd - stepStart).count();
    if (metrics) {
      std::vector<std::optional<double>> extra;
      for (size_t i = 1; i < executor.outputs().size(); ++i) {
        const Tensor &output = *executor.outputs()[i];
        extra.push_back(isScalarFloat(output)
                            ? std::optional<double>(scalarValue(output))
                            : std::nullopt);
      }
      status = metrics->writeStep(stepIndex, loss,
                                  rows / std::max(stepSeconds, 1e-9), extra);
      if (!status.isOk())
        return fail(status.message());
    }

    bool last = stepIndex == numSteps;
    if (terminal || last || stepIndex % every == 0) {
      double windowSeconds =
          std::chrono::duration<double>(stepEnd - windowStart).count();
      std::string line =
          fmt::format("step {}/{}  loss {:.6f}  {:.0f} samples/s", stepIndex,
                      numSteps.getValue(), loss,
                      windowRows / std::max(windowSeconds, 1e-9));
      if (terminal)
        fmt::print("\r{}\x1b[K{}", line, last ? "\n" : "");
      else
        fmt::print("{}\n", line);
      std::fflush(stdout);
      windowStart = stepEnd;
      windowRows = 0;
    }
  }
  if (metrics)
    if (status = metrics->close(); !status.isOk())
      return fail(status.message());
  double seconds = std::chrono::duration<double>(Clock::now() - start).count();
  fmt::print("trained {} steps ({} samples, {} epochs) in {:.2f} s: final "
             "loss {:.6f}\n",
             numSteps.getValue(), totalRows, source->epoch(), seconds, loss);
  return 0;
}
