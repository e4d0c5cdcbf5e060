//===- openks-eval.cpp - Evaluate a trained model and predict -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-eval PROGRAM.mlir --load-dir CKPT --data SPEC [...]
//     runs the program's forward pass, without its optimizer, with the
//     parameters of a checkpoint (saved by any layout) or of an inference
//     model, over one pass of the data, and prints the metrics its loss
//     calls for (Runtime/Evaluator.h); --predict-out writes a prediction per
//     row. Names in triples data are numbered by the id maps the checkpoint
//     keeps.
//
//===----------------------------------------------------------------------===//

#include "ToolDialects.h"
#include "ToolFiles.h"
#include "ToolInput.h"
#include "ToolOutput.h"
#include "ToolVersion.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/Evaluator.h"
#include "openks/Runtime/Loader/EvaluationBuilder.h"
#include "openks/Support/InputGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <cstdio>
#include <fmt/format.h>

using namespace mlir;
using namespace openks;
using namespace openks::runtime;

namespace cl = llvm::cl;

static cl::OptionCategory evalCategory("openks-eval options");

static cl::opt<std::string> inputFilename(
    cl::Positional,
    cl::desc("<program.mlir, or an inference model's __model__.mlir>"),
    cl::Required, cl::cat(evalCategory));
static cl::opt<std::string>
    loadDir("load-dir",
            cl::desc("The checkpoint (of any layout) or inference model "
                     "directory whose parameters to evaluate"),
            cl::Required, cl::cat(evalCategory));
static cl::opt<std::string>
    dataSpec("data",
             cl::desc("The data to evaluate, one pass: csv:PATH, "
                      "libsvm:PATH, synthetic:... or triples:PATH[,...]"),
             cl::Required, cl::cat(evalCategory));
static cl::opt<int64_t> batchSize("batch-size",
                                  cl::desc("Rows per forward run (default "
                                           "256)"),
                                  cl::init(256), cl::cat(evalCategory));
static cl::opt<std::string>
    stepName("step",
             cl::desc("The train.step to evaluate (needed when the program "
                      "has several)"),
             cl::cat(evalCategory));
static cl::list<std::string> filterData(
    "filter-data",
    cl::desc("Link prediction: triples data of known true triples that "
             "filtered ranks leave out (repeatable: train, valid); the "
             "evaluated data always counts"),
    cl::cat(evalCategory));
static cl::opt<int64_t>
    numEntities("entities",
                cl::desc("Link prediction: rank entities [0, N) (default: "
                         "the id map's entities, else the table's rows)"),
                cl::init(0), cl::cat(evalCategory));
static cl::opt<int64_t> distanceBatch(
    "distance-batch",
    cl::desc("Link prediction: rows per distance run, a multiple of the "
             "entities ranked per query (default 65536)"),
    cl::init(65536), cl::cat(evalCategory));
static cl::opt<std::string> predictOut(
    "predict-out",
    cl::desc("Write one prediction per data row to this file: a class and "
             "its probability, a probability, or a triple's distance"),
    cl::cat(evalCategory));
static cl::opt<int64_t>
    topK("top-k",
         cl::desc("With --predict-out: the K most probable classes, or the K "
                  "nearest tails of (head, relation), best first"),
         cl::init(0), cl::cat(evalCategory));
static cl::opt<std::string>
    metricsOut("metrics-out",
               cl::desc("Also write the metrics as CSV (metric,value) to "
                        "this file"),
               cl::cat(evalCategory));
static cl::opt<uint64_t> maxInputBytes(
    "max-input-bytes",
    cl::desc("Refuse an input larger than this many bytes (default 1 GiB)"),
    cl::init(kDefaultMaxInputBytes), cl::cat(evalCategory));

/// Prints `message` as openks-eval's error and returns the exit code 1.
static int fail(const std::string &message) {
  fmt::print(stderr, "openks-eval: error: {}\n", message);
  return 1;
}

/// Finds the step to evaluate: the one named --step, or the only one.
static FailureOr<train::StepOp> findStep(ModuleOp module) {
  SmallVector<train::StepOp> steps;
  module.walk([&](train::StepOp step) {
    if (stepName.empty() || step.getSymName() == stepName)
      steps.push_back(step);
  });
  if (steps.size() == 1)
    return steps.front();
  fail(steps.empty()
           ? fmt::format("{} has no train.step{}", inputFilename.getValue(),
                         stepName.empty() ? "" : " @" + stepName)
           : fmt::format("{} holds several steps; choose one with "
                         "--step",
                         inputFilename.getValue()));
  return failure();
}

/// Checks the numeric options.
static LogicalResult checkOptions() {
  auto below = [](cl::opt<int64_t> &option, int64_t least) {
    if (option < least) {
      fail(fmt::format("--{} must be at least {}, got {}", option.ArgStr.str(),
                       least, option.getValue()));
      return true;
    }
    return false;
  };
  if (below(batchSize, 1) || below(numEntities, 0) || below(topK, 0) ||
      below(distanceBatch, 1))
    return failure();
  if (topK > 0 && predictOut.empty()) {
    fail("--top-k chooses what --predict-out writes; give --predict-out too");
    return failure();
  }
  if (Status threads = tools::checkThreadsOption(); !threads.isOk()) {
    fail(threads.message());
    return failure();
  }
  return success();
}

/// Writes `metrics` as CSV to `path`.
static Status writeMetrics(const std::vector<Metric> &metrics,
                           const std::string &path) {
  StatusOr<tools::CsvWriter> csv =
      tools::CsvWriter::create(path, {"metric", "value"});
  if (!csv)
    return csv.status();
  for (const Metric &metric : metrics)
    OPENKS_RETURN_IF_ERROR(
        csv->writeRow({metric.name, fmt::format("{:.9g}", metric.value)}));
  return csv->close();
}

/// Loads the input and evaluates it as the command line asks; returns the
/// exit code.
static int evaluateFromCommandLine() {
  if (failed(checkOptions()))
    return 1;
  tools::applyThreadsOption();
  DialectRegistry registry;
  tools::registerToolDialects(registry);
  MLIRContext context(registry);
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  StatusOr<OwningOpRef<ModuleOp>> parsed = tools::loadBoundedModule(
      inputFilename, maxInputBytes, context, sourceMgr);
  if (!parsed)
    return fail(parsed.status().message());
  OwningOpRef<ModuleOp> &module = *parsed;
  if ((*module)->hasAttr(ps::JobAttr::kAttrName))
    return fail(fmt::format("{} is a transpiled job; evaluate the program it "
                            "was transpiled from (its checkpoints load in any "
                            "layout)",
                            inputFilename.getValue()));
  FailureOr<train::StepOp> step = findStep(*module);
  if (failed(step))
    return 1;

  // The parameters: every one the step's program declares, from the
  // checkpoint.
  PlanOptions planOptions;
  planOptions.maxBatch = batchSize;
  FailureOr<ParameterStore> store =
      buildParameterStore((*step)->getParentOp(), planOptions);
  if (failed(store))
    return fail("cannot build the parameters of the program");
  if (Status status = store->initialize(); !status.isOk())
    return fail(status.message());
  if (StatusOr<CheckpointInfo> loaded = loadCheckpoint(loadDir, {&*store});
      !loaded)
    return fail(loaded.status().message());

  EvaluationOptions options;
  options.batchSize = batchSize;
  options.entities = numEntities;
  options.predictOut = predictOut;
  options.topK = topK;
  StatusOr<std::string> data = useCheckpointIdMaps(dataSpec, loadDir);
  if (!data)
    return fail(data.status().message());
  options.data = *data;
  for (const std::string &spec : filterData) {
    StatusOr<std::string> filter = useCheckpointIdMaps(spec, loadDir);
    if (!filter)
      return fail(filter.status().message());
    options.filterData.push_back(*filter);
  }
  StatusOr<std::vector<IdMap>> maps = readIdMaps(options.data);
  if (!maps)
    return fail(maps.status().message());
  if (!maps->empty()) {
    options.entityNames = maps->front().names;
    if (!numEntities.getNumOccurrences())
      options.entities = static_cast<int64_t>(options.entityNames.size());
  }

  FailureOr<EvaluationModel> model =
      buildEvaluationModel(*step, *store, planOptions, distanceBatch);
  if (failed(model))
    return fail(fmt::format("cannot evaluate @{}", step->getSymName().str()));
  StatusOr<std::vector<Metric>> metrics = evaluate(*model, *store, options);
  if (!metrics)
    return fail(metrics.status().message());
  fmt::print("evaluated @{} ({}) on {}\n", step->getSymName().str(),
             getTaskName(model->task), dataSpec.getValue());
  for (const Metric &metric : *metrics)
    fmt::print("  {:<18} {:.6f}\n", metric.name, metric.value);
  if (!metricsOut.empty())
    if (Status status = writeMetrics(*metrics, metricsOut); !status.isOk())
      return fail(status.message());
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  tools::failWritesPastTheSizeLimit();
  tools::printOpenKSVersionFirst("openks-eval");
  tools::registerThreadsOption("Threads the kernels may use (default: "
                               "OMP_NUM_THREADS, else every CPU)",
                               evalCategory);
  cl::HideUnrelatedOptions(evalCategory);
  cl::ParseCommandLineOptions(
      argc, argv,
      "openks-eval: evaluate a trained model, and predict\n\n"
      "Runs the forward pass of a train.step (forward-only or minimized;\n"
      "the optimizer never runs) with the parameters of --load-dir over one\n"
      "pass of --data and prints the mean loss and the metrics the loss\n"
      "calls for: accuracy, log loss and AUC for softmax and sigmoid\n"
      "cross-entropy models; raw and filtered MR, MRR and Hits@1/3/10 for a\n"
      "margin loss over triple distances (TransE), ranking every entity as\n"
      "the head and the tail of each triple.\n");
  int exitCode = evaluateFromCommandLine();
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return fail("cannot write standard output");
  return exitCode;
}
