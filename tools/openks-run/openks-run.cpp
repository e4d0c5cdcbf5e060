//===- openks-run.cpp - Train a program, in one process or as a job -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-run PROGRAM.mlir --steps N --batch-size B --data SPEC [...]
//     trains a train.program in one process (minimizing a forward-only one
//     with --optimizer);
// openks-run PROGRAM.mlir --pservers S --trainers T [--mode ...] [...]
//     minimizes and transpiles it through the real passes and runs the job,
//     every server and trainer a thread;
// openks-run JOB.mlir [...]
//     runs a module that openks-opt has already transpiled;
// openks-run ... --role server|trainer --index I, or in a scheduler's
// environment (PaddleCloud, TF_CONFIG, Slurm)
//     runs one role of the job, the others being other processes.
//
//===----------------------------------------------------------------------===//

#include "CheckpointHistory.h"
#include "Runs.h"
#include "ToolDialects.h"
#include "ToolInput.h"
#include "ToolOutput.h"
#include "ToolVersion.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Fleet/Environment.h"
#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/InitAllPasses.h"
#include "openks/Pipelines/Pipelines.h"
#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/DataSource.h"
#include "openks/Support/InputGuard.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

using namespace mlir;
using namespace openks;
using namespace openks::run;

namespace cl = llvm::cl;

static cl::OptionCategory runCategory("openks-run options");
static cl::OptionCategory jobCategory(
    "Distributed runs (a program with --pservers, or a transpiled job)");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<program.mlir>"),
                                          cl::Required, cl::cat(runCategory));
static cl::opt<int64_t> numSteps("steps", cl::desc("Number of steps to run"),
                                 cl::Required, cl::cat(runCategory));
static cl::opt<int64_t>
    batchSize("batch-size",
              cl::desc("Rows per mini-batch (of a job: per global batch, "
                       "which the trainers share)"),
              cl::Required, cl::cat(runCategory));
static cl::opt<std::string>
    dataSpec("data",
             cl::desc("Data source: csv:PATH, libsvm:PATH, "
                      "synthetic:key=value,... or triples:PATH[,key=value...]"),
             cl::Required, cl::cat(runCategory));
static cl::opt<uint64_t>
    runSeed("seed",
            cl::desc("Mixed into every initializer seed (0 keeps the "
                     "program's own seeds)"),
            cl::init(0), cl::cat(runCategory));
static cl::opt<std::string>
    stepName("step",
             cl::desc("The train.step to run (needed when the input has "
                      "several)"),
             cl::cat(runCategory));
static cl::opt<std::string>
    metricsOut("metrics-out",
               cl::desc("Write per-step metrics as CSV to this file"),
               cl::cat(runCategory));
static cl::opt<std::string> reportOut(
    "report",
    cl::desc("After the run, write a self-contained HTML page of it to this "
             "file: its summary, its curves and, of a job, where the blocks "
             "live and what each role moved"),
    cl::cat(runCategory));
static cl::opt<std::string>
    saveDir("save-dir",
            cl::desc("Save a checkpoint (Paddle tensor files and a manifest) "
                     "to this directory after the last step, and every "
                     "--save-every steps"),
            cl::cat(runCategory));
static cl::opt<int64_t>
    saveEvery("save-every",
              cl::desc("Steps between checkpoints of --save-dir (default: "
                       "only after the last step)"),
              cl::init(0), cl::cat(runCategory));
static cl::opt<std::string>
    loadDir("load-dir",
            cl::desc("Resume from the checkpoint in this directory, saved "
                     "by any layout: train from the step after its step up "
                     "to --steps, skipping the data it was trained on"),
            cl::cat(runCategory));
static cl::opt<int64_t> keepCheckpoints(
    "keep-checkpoints",
    cl::desc("Keep one checkpoint per save in --save-dir, as step-N, the K "
             "of the highest steps, and best/ (with --eval-data)"),
    cl::init(0), cl::cat(runCategory));
static cl::opt<std::string> bestMetric(
    "best-metric",
    cl::desc("The held-out metric that chooses --keep-checkpoints' best/ "
             "(default: eval_accuracy, eval_auc or eval_filtered_mrr, by "
             "what the model predicts; else eval_loss)"),
    cl::cat(runCategory));
static cl::opt<std::string>
    evalData("eval-data",
             cl::desc("Held-out data (a --data spec) to evaluate the "
                      "parameters on, as openks-eval does, every "
                      "--eval-every steps and after the last"),
             cl::cat(runCategory));
static cl::opt<int64_t>
    evalEvery("eval-every",
              cl::desc("Steps between evaluations of --eval-data (default: "
                       "after the last step only)"),
              cl::init(0), cl::cat(runCategory));
static cl::list<std::string> evalFilterData(
    "eval-filter-data",
    cl::desc("Link prediction: triples of known true triples that filtered "
             "ranks leave out (repeatable); --eval-data always counts"),
    cl::cat(runCategory));
static cl::opt<std::string> paramsOut(
    "params-out",
    cl::desc("After single-process training, write the trained parameters "
             "as text to this file (a line NAME<TAB>SHAPE<TAB>values each)"),
    cl::cat(runCategory));
static cl::opt<std::string> optimizerName(
    "optimizer",
    cl::desc("Minimize a forward-only program first with this optimizer "
             "(sgd, momentum, adam, adagrad, rmsprop, decayed-adagrad, ftrl "
             "or adamax)"),
    cl::cat(runCategory));
static cl::opt<double> learningRate("lr",
                                    cl::desc("Learning rate for --optimizer"),
                                    cl::init(0.01), cl::cat(runCategory));
static cl::opt<std::string> optimizerOptions(
    "optimizer-options",
    cl::desc("Further openks-minimize options for --optimizer, e.g. "
             "\"beta1=0.8 lr-schedule=exponential decay-steps=100\""),
    cl::cat(runCategory));
static cl::opt<int64_t>
    logEvery("log-every",
             cl::desc("Steps between progress lines when stdout is not a "
                      "terminal (default: a tenth of the steps)"),
             cl::init(0), cl::cat(runCategory));
static cl::opt<uint64_t> maxInputBytes(
    "max-input-bytes",
    cl::desc("Refuse an input larger than this many bytes (default 1 GiB)"),
    cl::init(kDefaultMaxInputBytes), cl::cat(runCategory));

static cl::opt<std::string> pservers(
    "pservers",
    cl::desc("Transpile for this many servers (on 127.0.0.1 from port "
             "6170), or for these comma-separated host:port endpoints"),
    cl::cat(jobCategory));
static cl::opt<int64_t> numTrainers("trainers",
                                    cl::desc("Number of trainers (default 1)"),
                                    cl::init(1), cl::cat(jobCategory));
static cl::opt<std::string>
    modeName("mode", cl::desc("sync (default), async, half-async or geo"),
             cl::init("sync"), cl::cat(jobCategory));
static cl::opt<std::string>
    splitMethodName("split-method",
                    cl::desc("Block placement: round-robin (default) or "
                             "hash-name"),
                    cl::init("round-robin"), cl::cat(jobCategory));
static cl::opt<int64_t>
    minBlockSize("min-block-size",
                 cl::desc("Minimum elements per block (default 8192)"),
                 cl::init(8192), cl::cat(jobCategory));
static cl::opt<bool> noSlice("no-slice",
                             cl::desc("Place every variable whole on one "
                                      "server"),
                             cl::cat(jobCategory));
static cl::opt<int64_t>
    geoPushSteps("geo-push-steps",
                 cl::desc("GEO: local steps between pushes (default 100)"),
                 cl::init(100), cl::cat(jobCategory));
static cl::opt<int64_t>
    timeoutMs("timeout-ms",
              cl::desc("How long any role waits for another before the run "
                       "fails naming it (default 60000)"),
              cl::init(60000), cl::cat(jobCategory));
static cl::opt<bool>
    verify("verify",
           cl::desc("Sync: also train in one process on the same global "
                    "batches, each step from the job's parameters, compare "
                    "every parameter after every step, and fail past the "
                    "tolerance"),
           cl::cat(jobCategory));
static cl::opt<double> verifyTolerance(
    "verify-tolerance",
    cl::desc("Largest relative difference --verify allows (default 1e-5 "
             "with f32 parameters, 1e-10 with f64 only)"),
    cl::init(0), cl::cat(jobCategory));
static cl::opt<std::string> roleName(
    "role",
    cl::desc("Run one role of the job, meeting the other processes over "
             "gRPC: server or trainer (with --index); all runs every role as "
             "a thread here. Without it, a scheduler's environment "
             "(PaddleCloud, TF_CONFIG, Slurm's srun) picks the role"),
    cl::cat(jobCategory));
static cl::opt<int64_t> roleIndex("index",
                                  cl::desc("With --role: the index of the "
                                           "server or trainer"),
                                  cl::init(-1), cl::cat(jobCategory));
static cl::list<std::string> injectFaults(
    "inject-fault",
    cl::desc("For tests: break a role on purpose, as trainerT:KIND@STEP "
             "(KIND error, nan, hang or finish) or serverS:error@UPDATE"),
    cl::Hidden, cl::cat(jobCategory));

int openks::run::fail(const std::string &message) {
  printTo(stderr, "openks-run: error: {}\n", message);
  return 1;
}

/// How this process takes part in a job.
struct RoleChoice {
  /// Every role is a thread of this process (no role was asked for).
  bool inProcess = true;
  /// The role from --role and --index (made once the endpoints are known).
  std::optional<fleet::Role> flagRole;
  /// The role a scheduler's environment gives, generated.
  std::shared_ptr<fleet::RoleMaker> environmentRole;
};

/// Finds this process's role: from --role, else from a scheduler's
/// environment, else none (every role here). An evaluator has nothing to do
/// in a job: it says so and the process exits 0 (`exitNow`).
static FailureOr<RoleChoice> findRole(bool &exitNow) {
  RoleChoice choice;
  if (roleIndex.getNumOccurrences() && roleName.empty()) {
    fail("--index needs --role");
    return failure();
  }
  if (roleName == "all")
    return choice;
  if (!roleName.empty()) {
    if (roleName != "server" && roleName != "trainer") {
      fail(fmt::format("--role: unknown role '{}'; choose server, trainer or "
                       "all",
                       roleName.getValue()));
      return failure();
    }
    if (roleIndex < 0 || roleIndex > (1 << 20)) {
      fail(fmt::format("--role {} needs --index, the {}'s index (0 or more)",
                       roleName.getValue(), roleName.getValue()));
      return failure();
    }
    choice.inProcess = false;
    choice.flagRole =
        roleName == "server" ? fleet::Role::Server : fleet::Role::Worker;
    return choice;
  }
  StatusOr<std::unique_ptr<fleet::RoleMaker>> found =
      fleet::createRoleMakerFromEnvironment(fleet::Environment::process());
  if (!found) {
    if (found.status().code() == StatusCode::NotFound)
      return choice;
    fail(found.status().message());
    return failure();
  }
  if (Status status = (*found)->generateRole(); !status.isOk()) {
    fail(status.message());
    return failure();
  }
  if ((*found)->isEvaluator()) {
    printTo(stdout,
            "{}: this process is an evaluator, which has nothing to do in a "
            "parameter-server job; exiting\n",
            (*found)->describe());
    exitNow = true;
    return choice;
  }
  choice.inProcess = false;
  choice.environmentRole = std::move(*found);
  return choice;
}

/// Returns the role maker of `choice` in a job of the servers at
/// `endpoints` and `trainers` trainers.
static std::shared_ptr<fleet::RoleMaker>
makeRoleMaker(const RoleChoice &choice,
              const std::vector<std::string> &endpoints, int64_t trainers) {
  if (choice.environmentRole)
    return choice.environmentRole;
  return std::make_shared<fleet::LocalRoleMaker>(
      *choice.flagRole, static_cast<int>(roleIndex), endpoints,
      static_cast<int>(trainers));
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

/// Returns the value of enum option `option` whose name is `name`, reporting
/// the names it has when none is.
template <typename OptionT>
static auto lookupEnumName(OptionT &option, StringRef flag, StringRef name)
    -> FailureOr<std::decay_t<decltype(option.getValue())>> {
  using ValueT = std::decay_t<decltype(option.getValue())>;
  auto &parser = option.getParser();
  unsigned index = parser.findOption(name);
  if (index == parser.getNumOptions()) {
    std::vector<std::string> names;
    for (unsigned i = 0; i != index; ++i)
      names.push_back(parser.getOption(i).str());
    fail(fmt::format("--{}: unknown value '{}'; choose one of {}", flag,
                     name.str(), fmt::join(names, ", ")));
    return failure();
  }
  return static_cast<const cl::OptionValue<ValueT> &>(
             parser.getOptionValue(index))
      .getValue();
}

/// Runs openks-minimize on the step's program when --optimizer asks for it;
/// refuses to minimize twice or to train a program without an optimizer.
static LogicalResult minimizeIfAsked(ModuleOp module, train::StepOp step) {
  bool hasOptimizer = false;
  step.walk([&](Operation *op) {
    hasOptimizer |= isa<train::OptimizerOpInterface, train::ParamGradOp>(op);
  });
  if (hasOptimizer) {
    // They would have nothing to minimize.
    const cl::Option *minimizeOptions[] = {&optimizerName, &learningRate,
                                           &optimizerOptions};
    for (const cl::Option *option : minimizeOptions)
      if (option->getNumOccurrences()) {
        fail(fmt::format("step @{} already has its backward pass and "
                         "optimizer; drop --{}",
                         step.getSymName().str(), option->ArgStr.str()));
        return failure();
      }
    return success();
  }
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
  FailureOr<OptimizerKind> optimizer =
      lookupEnumName(options.optimizer, "optimizer", optimizerName);
  if (failed(optimizer))
    return failure();
  options.optimizer = *optimizer;
  options.learningRate = learningRate;
  auto pm = PassManager::on<ModuleOp>(module.getContext());
  buildMinimizePipeline(pm, options);
  if (failed(pm.run(module))) {
    fail("cannot minimize the program");
    return failure();
  }
  return success();
}

/// Returns the job options the command line gives, checked by the passes
/// when they run.
static LogicalResult getTranspileOptions(TranspileOptions &options) {
  StringRef servers = pservers;
  std::vector<std::string> endpoints;
  unsigned count = 0;
  if (!servers.getAsInteger(10, count)) {
    if (count < 1 || count > 1024) {
      fail(fmt::format("--pservers: a job has 1 to 1024 servers, got {}",
                       count));
      return failure();
    }
    for (unsigned i = 0; i < count; ++i)
      endpoints.push_back(fmt::format("127.0.0.1:{}", 6170 + i));
  } else {
    SmallVector<StringRef> parts;
    servers.split(parts, ',');
    for (StringRef part : parts)
      endpoints.push_back(part.trim().str());
  }
  options.pservers = endpoints;
  options.trainers = numTrainers;
  FailureOr<ps::Mode> mode = lookupEnumName(options.mode, "mode", modeName);
  FailureOr<ps::SplitMethod> splitMethod =
      lookupEnumName(options.splitMethod, "split-method", splitMethodName);
  if (failed(mode) || failed(splitMethod))
    return failure();
  if (geoPushSteps.getNumOccurrences() && *mode != ps::Mode::Geo) {
    fail(fmt::format("--geo-push-steps sets how often GEO pushes; this job "
                     "is --mode {}",
                     modeName.getValue()));
    return failure();
  }
  if (minBlockSize.getNumOccurrences() && noSlice) {
    fail("--min-block-size sizes the blocks of sliced variables; --no-slice "
         "keeps every variable whole");
    return failure();
  }
  options.mode = *mode;
  options.splitMethod = *splitMethod;
  options.sliceVarUp = !noSlice;
  options.minBlockSize = minBlockSize;
  options.geoPushSteps = geoPushSteps;
  return success();
}

/// Refuses the options that shape a job when the input is one already.
static LogicalResult checkNoJobOptions() {
  const cl::Option *given[] = {&pservers,         &numTrainers,   &modeName,
                               &splitMethodName,  &minBlockSize,  &noSlice,
                               &geoPushSteps,     &optimizerName, &learningRate,
                               &optimizerOptions, &stepName};
  for (const cl::Option *option : given)
    if (option->getNumOccurrences()) {
      fail(fmt::format("{} is already transpiled; --{} has nothing to "
                       "change (transpile it again with openks-opt)",
                       inputFilename.getValue(), option->ArgStr.str()));
      return failure();
    }
  if (verify) {
    fail("--verify needs the program before transpiling, to train it in one "
         "process; run openks-run on it with --pservers");
    return failure();
  }
  return success();
}

/// Checks that `step` fetches its loss first.
static LogicalResult checkFetchesLoss(train::StepOp step) {
  ArrayRef<Type> results = step.getResultTypes();
  auto lossType =
      results.empty() ? nullptr : dyn_cast<RankedTensorType>(results.front());
  if (lossType && lossType.getRank() == 0 &&
      isa<FloatType>(lossType.getElementType()))
    return success();
  fail(fmt::format("step @{} must fetch its loss (a rank-0 float tensor) as "
                   "its first result",
                   step.getSymName().str()));
  return failure();
}

/// Refuses an empty path, name or list: given empty, most of these options
/// would silently mean "none" (nothing written, nothing loaded, no job).
static LogicalResult checkNoEmptyValues() {
  if (inputFilename.empty()) {
    fail("the input file name is empty");
    return failure();
  }
  const cl::opt<std::string> *options[] = {
      &dataSpec,        &stepName,  &metricsOut,    &reportOut, &saveDir,
      &loadDir,         &paramsOut, &optimizerName, &pservers,  &modeName,
      &splitMethodName, &evalData,  &bestMetric};
  for (const cl::opt<std::string> *option : options)
    if (option->getNumOccurrences() && option->empty()) {
      fail(fmt::format("--{} is given an empty value", option->ArgStr.str()));
      return failure();
    }
  return success();
}

/// Reads the options of held-out evaluation and of the checkpoints kept into
/// `settings`, and checks --save-dir before training rather than after.
static LogicalResult getHeldOutSettings(RunSettings &settings) {
  if (keepCheckpoints < 0 || (keepCheckpoints.getNumOccurrences() &&
                              (keepCheckpoints < 1 || saveDir.empty()))) {
    fail(fmt::format("--keep-checkpoints needs --save-dir and a count of at "
                     "least 1, got {}",
                     keepCheckpoints.getValue()));
    return failure();
  }
  const cl::Option *needsData[] = {&evalEvery, &bestMetric,
                                   std::addressof(evalFilterData)};
  for (const cl::Option *option : needsData)
    if (option->getNumOccurrences() && evalData.empty()) {
      fail(fmt::format("--{} needs --eval-data", option->ArgStr.str()));
      return failure();
    }
  if (bestMetric.getNumOccurrences() && !keepCheckpoints) {
    fail("--best-metric chooses the best of --keep-checkpoints; give "
         "--keep-checkpoints too");
    return failure();
  }
  settings.keepCheckpoints = keepCheckpoints;
  settings.bestMetric = bestMetric;
  settings.evalData = evalData;
  settings.evalEvery = evalEvery;
  settings.evalFilterData = evalFilterData;
  if (saveDir.empty())
    return success();
  CheckpointHistory history(saveDir, saveEvery, numSteps, keepCheckpoints,
                            bestMetric);
  if (Status target = history.checkTarget(); !target.isOk()) {
    fail("--save-dir: " + target.message());
    return failure();
  }
  return success();
}

static FailureOr<RunSettings> getRunSettings() {
  if (failed(checkNoEmptyValues()))
    return failure();
  if (numSteps < 1) {
    fail(
        fmt::format("--steps must be at least 1, got {}", numSteps.getValue()));
    return failure();
  }
  if (batchSize < 1) {
    fail(fmt::format("--batch-size must be at least 1, got {}",
                     batchSize.getValue()));
    return failure();
  }
  if (timeoutMs < 1 || timeoutMs > int64_t(24) * 3600 * 1000) {
    fail(fmt::format("--timeout-ms must be between 1 and 86400000, got {}",
                     timeoutMs.getValue()));
    return failure();
  }
  if (verifyTolerance.getNumOccurrences()) {
    if (!verify) {
      fail("--verify-tolerance needs --verify");
      return failure();
    }
    // 0 is the default's "by element type", never asked for.
    if (!(verifyTolerance > 0) || std::isinf(verifyTolerance)) {
      fail(fmt::format("--verify-tolerance must be a finite number > 0, got "
                       "{}",
                       verifyTolerance.getValue()));
      return failure();
    }
  }
  if (Status threads = tools::checkThreadsOption(); !threads.isOk()) {
    fail(threads.message());
    return failure();
  }
  // Both default to 0, "by the steps"; given, a period is a number of steps.
  for (cl::opt<int64_t> *period : {&logEvery, &saveEvery, &evalEvery})
    if (period->getNumOccurrences() && *period < 1) {
      fail(fmt::format("--{} must be at least 1, got {}", period->ArgStr.str(),
                       period->getValue()));
      return failure();
    }
  if (saveEvery.getNumOccurrences() && saveDir.empty()) {
    fail("--save-every needs --save-dir");
    return failure();
  }
  RunSettings settings;
  if (failed(getHeldOutSettings(settings)))
    return failure();
  settings.steps = numSteps;
  settings.batchSize = batchSize;
  settings.data = dataSpec;
  settings.seed = runSeed;
  settings.input = inputFilename;
  settings.metricsOut = metricsOut;
  settings.reportOut = reportOut;
  settings.paramsOut = paramsOut;
  settings.logEvery = logEvery;
  settings.timeout = std::chrono::milliseconds(timeoutMs);
  settings.verify = verify;
  settings.verifyTolerance = verifyTolerance;
  settings.saveDir = saveDir;
  settings.saveEvery = saveEvery;
  settings.loadDir = loadDir;
  // A run that resumes numbers names as the run it resumes did, and every
  // checkpoint keeps the numbering.
  if (!loadDir.empty()) {
    StatusOr<std::string> data =
        runtime::useCheckpointIdMaps(settings.data, loadDir);
    if (!data) {
      fail("--load-dir: " + data.status().message());
      return failure();
    }
    settings.data = *data;
  }
  StatusOr<std::vector<runtime::IdMap>> maps =
      runtime::readIdMaps(settings.data);
  if (!maps) {
    fail("--data: " + maps.status().message());
    return failure();
  }
  for (const runtime::IdMap &map : *maps)
    settings.checkpointFiles.push_back({map.fileName, map.format()});
  for (const std::string &text : injectFaults) {
    StatusOr<fleet::InjectedFault> fault = fleet::parseInjectedFault(text);
    if (!fault) {
      fail("--inject-fault: " + fault.status().message());
      return failure();
    }
    settings.faults.push_back(*fault);
  }
  return settings;
}

/// Loads the input and trains it as the parsed command line asks; returns
/// the exit code.
static int trainFromCommandLine() {
  FailureOr<RunSettings> settings = getRunSettings();
  if (failed(settings))
    return 1;
  // This thread's budget: the run's, or the total a local job splits.
  tools::applyThreadsOption();
  bool exitNow = false;
  FailureOr<RoleChoice> role = findRole(exitNow);
  if (failed(role))
    return 1;
  if (exitNow)
    return 0;
  // A scheduler names the servers and the number of trainers.
  if (role->environmentRole && pservers.empty()) {
    pservers = fmt::format(
        "{}", fmt::join(role->environmentRole->serverEndpoints(), ","));
    if (!numTrainers.getNumOccurrences())
      numTrainers = role->environmentRole->workerNum();
  }

  // What openks-opt parses: a program the passes accept also loads, and an
  // op the runtime cannot run is refused by name when the plan is built.
  DialectRegistry registry;
  tools::registerToolDialects(registry);
  MLIRContext context(registry);
  // An error names its op by location; its text (a whole step) is noise.
  context.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  StatusOr<OwningOpRef<ModuleOp>> parsed = tools::loadBoundedModule(
      inputFilename, maxInputBytes, context, sourceMgr);
  if (!parsed)
    return fail(parsed.status().message());
  OwningOpRef<ModuleOp> &module = *parsed;

  bool isJob = (*module)->hasAttr(ps::JobAttr::kAttrName);
  if (!paramsOut.empty() && (isJob || !pservers.empty()))
    return fail("--params-out writes the parameters of a single-process run; "
                "a job keeps them on its servers");
  // Held-out evaluation and kept checkpoints of a job gather its
  // parameters as the program declares them, in the process that runs
  // every role: they need the program and every role here.
  const cl::Option *programOptions[] = {&evalData, &keepCheckpoints};
  for (const cl::Option *option : programOptions)
    if (option->getNumOccurrences() &&
        (isJob || (!pservers.empty() && !role->inProcess)))
      return fail(fmt::format(
          "--{} needs the program and every role of the job in this "
          "process: run the program with --pservers (a job's checkpoints "
          "evaluate with openks-eval)",
          option->ArgStr.str()));

  // A transpiled job runs as it is.
  if (isJob) {
    if (failed(checkNoJobOptions()))
      return 1;
    auto workers = llvm::to_vector(module->getOps<ps::WorkerOp>());
    if (workers.size() == 1) {
      auto main = SymbolTable::lookupNearestSymbolFrom<train::StepOp>(
          workers.front(), workers.front().getMainAttr());
      if (main && failed(checkFetchesLoss(main)))
        return 1;
    }
    if (!role->inProcess) {
      auto jobAttr =
          (*module)->getAttrOfType<ps::JobAttr>(ps::JobAttr::kAttrName);
      return trainRole(*module, nullptr, *settings,
                       makeRoleMaker(*role, jobAttr.getEndpointNames(),
                                     jobAttr.getTrainers()));
    }
    return trainJob(*module, nullptr, *settings);
  }

  FailureOr<train::StepOp> step = findStep(*module);
  if (failed(step))
    return 1;
  if (auto worker = (*step)->getParentOfType<ps::WorkerOp>())
    return fail(fmt::format("step @{} belongs to the worker @{} of a module "
                            "without a #ps.job; transpile the program with "
                            "openks-opt or run it with --pservers",
                            step->getSymName().str(),
                            worker.getSymName().str()));
  if (failed(checkFetchesLoss(*step)) ||
      failed(minimizeIfAsked(*module, *step)))
    return 1;
  if (pservers.empty() && !role->inProcess)
    return fail("--role runs one role of a job: give the job's servers with "
                "--pservers (host:port,...) and its --trainers");
  if (pservers.empty()) {
    const cl::Option *jobOptions[] = {
        &numTrainers,     &modeName,
        &splitMethodName, &minBlockSize,
        &noSlice,         &geoPushSteps,
        &verify,          &verifyTolerance,
        &timeoutMs,       std::addressof(injectFaults)};
    for (const cl::Option *option : jobOptions)
      if (option->getNumOccurrences())
        return fail(fmt::format("--{} shapes a distributed run; give "
                                "--pservers too",
                                option->ArgStr.str()));
    return trainLocally(*step, *settings);
  }

  // The job is the minimized program transpiled; the program stays as the
  // --verify reference.
  TranspileOptions options;
  if (failed(getTranspileOptions(options)))
    return 1;
  OwningOpRef<ModuleOp> job = module->clone();
  auto pm = PassManager::on<ModuleOp>(&context);
  buildTranspilePipeline(pm, options);
  if (failed(pm.run(*job)))
    return fail("cannot transpile the program");
  if (!role->inProcess)
    return trainRole(*job, *step, *settings,
                     makeRoleMaker(*role, options.pservers, options.trainers));
  return trainJob(*job, *step, *settings);
}

/// Flushes standard output, where the progress and the summary go, and
/// returns an error if any write to it failed.
static Status flushStandardOutput() {
  errno = 0;
  if (std::fflush(stdout) == 0 && !std::ferror(stdout))
    return Status::ok();
  return Status::error(StatusCode::IOError, "cannot write standard output: {}",
                       std::strerror(errno ? errno : EIO));
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  openks::tools::failWritesPastTheSizeLimit();
  openks::tools::printOpenKSVersionFirst("openks-run");
  openks::tools::registerThreadsOption(
      "Threads the kernels may use: in one process, or in all for a job whose "
      "roles are threads here, split among its roles (default: "
      "OMP_NUM_THREADS, else every CPU)",
      runCategory);
  registerAllPasses();
  cl::HideUnrelatedOptions({&runCategory, &jobCategory});
  cl::ParseCommandLineOptions(
      argc, argv,
      "openks-run: train a program in one process, or as a parameter-server "
      "job\n\n"
      "Runs the initializers and --steps steps of a train.step that holds\n"
      "its backward and optimizer ops, or of a forward-only step minimized\n"
      "with --optimizer. With --pservers it transpiles the program and runs\n"
      "every server and trainer as a thread; a module openks-opt has\n"
      "transpiled runs as it is. With --role, or in a scheduler's\n"
      "environment, it runs one role of the job and meets the others over\n"
      "gRPC (docs/Launch.md).\n");
  int exitCode = trainFromCommandLine();
  // A run whose progress or summary was lost (a full disk) has failed too.
  if (Status written = flushStandardOutput(); !written.isOk())
    return fail(written.message());
  return exitCode;
}
