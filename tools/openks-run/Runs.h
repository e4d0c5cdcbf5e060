//===- Runs.h - The ways openks-run trains ----------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-run trains a program in one process (LocalRun.cpp), runs a
// transpiled job with every role a thread (JobRun.cpp), or runs one role of
// a job whose roles are processes (RoleRun.cpp); openks-run.cpp reads the
// command line and the input and picks one.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_RUNS_H
#define OPENKS_TOOLS_OPENKS_RUN_RUNS_H

#include "PrintTo.h"

#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Fleet/LocalJob.h"

#include "mlir/IR/BuiltinOps.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace openks::run {

/// What the command line asks of a run.
struct RunSettings {
  /// The program or job file, as the --report page names it.
  std::string input;
  int64_t steps = 1;
  /// The rows of a (global) batch.
  int64_t batchSize = 1;
  std::string data;
  uint64_t seed = 0;
  std::string metricsOut;
  /// Where the HTML page of the run goes (none when empty).
  std::string reportOut;
  /// Where a single-process run writes its trained parameters (none when
  /// empty).
  std::string paramsOut;
  int64_t logEvery = 0;
  /// How long a role of a job waits for another.
  std::chrono::milliseconds timeout{60000};
  /// Whether a sync job is checked against single-process training, and
  /// the largest relative difference allowed (0: by element type).
  bool verify = false;
  double verifyTolerance = 0;
  std::vector<fleet::InjectedFault> faults;
  /// Checkpoints: where to save (every `saveEvery` steps, 0: only after the
  /// last), and one to resume from.
  std::string saveDir;
  int64_t saveEvery = 0;
  std::string loadDir;
  /// Files every checkpoint keeps besides the variables: the id maps that
  /// numbered the names of the data.
  std::vector<runtime::CheckpointFile> checkpointFiles;
  /// How many checkpoints --save-dir keeps (0: the last one only), and the
  /// held-out metric ("eval_<name>") that chooses the best one.
  int64_t keepCheckpoints = 0;
  std::string bestMetric;
  /// Held-out data evaluated every `evalEvery` steps (0: after the last
  /// only), and the known triples filtered ranks leave out.
  std::string evalData;
  int64_t evalEvery = 0;
  std::vector<std::string> evalFilterData;
};

/// Returns `bytes` for people: "512 B", "3.2 MiB".
std::string formatBytes(int64_t bytes);
/// Returns "1 trainer" or "2 trainers".
std::string countOf(int64_t count, const char *noun);
/// Returns the mode's name: "sync", "async", "half-async" or "geo".
const char *describeMode(runtime::SyncMode mode);

/// Prints `message` as openks-run's error and returns the exit code 1.
int fail(const std::string &message);

/// Writes the trainable parameters of `store` to the text file `path`, one
/// line "NAME<TAB>D0xD1...<TAB>values" each.
Status writeParameters(const runtime::ParameterStore &store,
                       const std::string &path);

/// Trains `step`, which holds its backward and optimizer ops, in one
/// process; returns the exit code.
int trainLocally(train::StepOp step, const RunSettings &settings);

/// Runs the transpiled job `job` with every role a thread; with --verify,
/// `reference` is the minimized step the job was transpiled from. Returns
/// the exit code.
int trainJob(mlir::ModuleOp job, train::StepOp reference,
             const RunSettings &settings);

/// Runs this process's role of the transpiled job `job`, which `roleMaker`
/// (generated) names, meeting the other processes over gRPC; with
/// --verify, trainer 0 checks against `reference`, the minimized step the
/// job was transpiled from. Returns the exit code.
int trainRole(mlir::ModuleOp job, train::StepOp reference,
              const RunSettings &settings,
              std::shared_ptr<fleet::RoleMaker> roleMaker);

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_RUNS_H
