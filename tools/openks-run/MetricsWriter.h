//===- MetricsWriter.h - Per-step metrics as CSV ----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --metrics-out file of openks-run: a header line of column names, then
// one line per step, written by the CSV writer of ToolFiles.h, which
// openks-eval's --metrics-out shares: names are quoted as RFC 4180 asks, and
// every write is checked.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_METRICSWRITER_H
#define OPENKS_TOOLS_OPENKS_RUN_METRICSWRITER_H

#include "ToolFiles.h"

#include "openks/Support/Status.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace openks::run {

/// Writes a CSV file of per-step figures.
class MetricsWriter {
public:
  /// Creates `path` and writes the header: step, loss, samples_per_sec, then
  /// `extraColumns`.
  static StatusOr<MetricsWriter>
  create(const std::string &path, const std::vector<std::string> &extraColumns);

  /// Writes the line of one step; `extra` has one value per extra column,
  /// empty where a step fetched no scalar.
  Status writeStep(int64_t step, double loss, double samplesPerSecond,
                   const std::vector<std::optional<double>> &extra);

  /// Flushes and closes the file, reporting any write that failed.
  Status close() { return csv_.close(); }

private:
  explicit MetricsWriter(tools::CsvWriter csv) : csv_(std::move(csv)) {}

  tools::CsvWriter csv_;
};

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_METRICSWRITER_H
