//===- RunReport.h - The HTML page of a run ---------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --report file of openks-run: one self-contained HTML page, written
// after the run, that shows what it did. It has a summary of the run, a
// curve of each figure of the steps (the loss, the samples per second, each
// further fetched scalar) and of each held-out evaluation metric, and, of a
// job, its mode, where each block of each variable lives and what each role
// moved. The figures are also in the page as JSON (the script element
// `openks-run-data`), from which its inline script draws the curves as SVG;
// the page loads nothing from anywhere else. Every name in it is escaped,
// and every write is checked, so a full disk is an error naming the file.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_RUNREPORT_H
#define OPENKS_TOOLS_OPENKS_RUN_RUNREPORT_H

#include "ToolFiles.h"

#include "openks/Runtime/JobSpec.h"
#include "openks/Support/Status.h"

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace openks::run {

/// What the summary of a page says a run is.
struct ReportedRun {
  /// The program or job file trained.
  std::string input;
  /// How it ran, e.g. "one process".
  std::string kind;
  /// The rows of a (global) batch, and where they came from (--data).
  int64_t batchSize = 0;
  std::string data;
};

/// What one server of a job moved.
struct ServerTraffic {
  /// The bytes it received (gradients, deltas) and sent (pulled blocks).
  int64_t bytesReceived = 0;
  int64_t bytesSent = 0;
  /// The sync steps it applied; none outside sync mode.
  std::optional<int64_t> stepsApplied;
};

/// What one trainer of a job did and moved.
struct TrainerTraffic {
  int trainer = 0;
  int64_t steps = 0;
  int64_t rows = 0;
  int64_t bytesPushed = 0;
  int64_t bytesPulled = 0;
  /// The time it waited at barriers for the other trainers.
  std::chrono::nanoseconds barrierWait{0};
};

/// Gathers the figures of a run while it runs, then writes its page. The
/// caller serializes the calls.
class RunReport {
public:
  /// Creates `path`, to hold the page of `run`, whose steps fetch the
  /// scalars `extraColumns` after the loss.
  static StatusOr<RunReport> create(const std::string &path, ReportedRun run,
                                    std::vector<std::string> extraColumns);

  /// Creates `path`, as create does, to hold the page of `run`, which runs
  /// `job` (see setJob).
  static StatusOr<RunReport> createForJob(const std::string &path,
                                          ReportedRun run,
                                          std::vector<std::string> extraColumns,
                                          const runtime::JobSpec &job);

  /// Records one step; `extra` has one value per extra column, none where
  /// the step fetched no scalar.
  void addStep(int64_t step, double loss, double samplesPerSecond,
               const std::vector<std::optional<double>> &extra);

  /// Records held-out evaluation metrics taken after `step`, each a name
  /// and its value; each name is a curve of its own over the steps it was
  /// taken at, drawn with the training curve of the same name if any.
  void
  addEvaluation(int64_t step,
                const std::vector<std::pair<std::string, double>> &metrics);

  /// Records that the run was a job: its mode, its trainers, and its
  /// servers with where each block lies.
  void setJob(const runtime::JobSpec &job);

  /// Records what server `server` of the job moved, after setJob; the page
  /// leaves out the traffic of a server never given.
  void setServerTraffic(int server, const ServerTraffic &traffic);

  /// Records what a trainer of the job did and moved, after setJob.
  void addTrainerTraffic(const TrainerTraffic &traffic);

  /// Records how long the run took and how many samples it trained on.
  void setTotals(std::chrono::duration<double> wallTime, int64_t samples);

  /// Writes the page and closes the file, reporting any write that failed.
  Status write();

private:
  /// One server of the job.
  struct Server {
    std::string name;
    std::string endpoint;
    std::vector<runtime::BlockLayout> blocks;
    std::optional<ServerTraffic> traffic;
  };
  /// The curve of one held-out metric.
  struct Evaluation {
    std::string name;
    std::vector<int64_t> steps;
    std::vector<double> values;
  };
  /// What the page says of a job.
  struct Job {
    std::string mode;
    int trainers = 1;
    std::vector<Server> servers;
    std::vector<TrainerTraffic> trainerTraffic;
  };

  RunReport(tools::CheckedFile file, ReportedRun run,
            std::vector<std::string> extraColumns)
      : file_(std::move(file)), run_(std::move(run)),
        extraColumns_(std::move(extraColumns)),
        extraValues_(extraColumns_.size()) {}

  /// Returns the page's JSON of the figures.
  std::string renderData() const;
  /// Returns the page's summary table.
  std::string renderSummary() const;
  /// Returns the page's section on the job: its roles and its blocks.
  std::string renderJob() const;

  tools::CheckedFile file_;
  ReportedRun run_;
  std::vector<std::string> extraColumns_;
  std::vector<int64_t> steps_;
  std::vector<double> losses_;
  std::vector<double> samplesPerSecond_;
  /// Per extra column, its value at each step.
  std::vector<std::vector<std::optional<double>>> extraValues_;
  std::vector<Evaluation> evaluations_;
  std::optional<Job> job_;
  double wallSeconds_ = 0;
  int64_t samples_ = 0;
};

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_RUNREPORT_H
