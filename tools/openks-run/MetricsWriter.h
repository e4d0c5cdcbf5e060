//===- MetricsWriter.h - Per-step metrics as CSV ----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The --metrics-out file of openks-run: a header line of column names, then
// one line per step. Names are quoted as RFC 4180 asks when they hold a
// comma, a quote or a line break, and every write is checked, so a full disk
// or an unwritable device is an error, not a silently empty file.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_METRICSWRITER_H
#define OPENKS_TOOLS_OPENKS_RUN_METRICSWRITER_H

#include "openks/Support/Status.h"

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace openks::run {

/// Returns `field` as one CSV field: unchanged, or quoted with its quotes
/// doubled when it holds a comma, a quote or a line break.
std::string quoteCsvField(const std::string &field);

/// Writes a CSV file of per-step figures.
class MetricsWriter {
public:
  /// Creates `path` and writes the header: step, loss, samples_per_sec, then
  /// `extraColumns`.
  static StatusOr<MetricsWriter> create(const std::string &path,
                                        const std::vector<std::string> &extraColumns);

  /// Writes the line of one step; `extra` has one value per extra column,
  /// empty where a step fetched no scalar.
  Status writeStep(int64_t step, double loss, double samplesPerSecond,
                   const std::vector<std::optional<double>> &extra);

  /// Flushes and closes the file, reporting any write that failed.
  Status close();

private:
  MetricsWriter(std::string path, std::FILE *file)
      : path_(std::move(path)), file_(file, &std::fclose) {}

  /// Returns the error of the last failed write, naming the file.
  Status writeError() const;

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file_;
};

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_METRICSWRITER_H
