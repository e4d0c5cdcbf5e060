//===- MetricsWriter.cpp - Per-step metrics as CSV ------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MetricsWriter.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::run;

StatusOr<MetricsWriter>
MetricsWriter::create(const std::string &path,
                      const std::vector<std::string> &extraColumns) {
  std::vector<std::string> columns = {"step", "loss", "samples_per_sec"};
  columns.insert(columns.end(), extraColumns.begin(), extraColumns.end());
  StatusOr<tools::CsvWriter> csv = tools::CsvWriter::create(path, columns);
  if (!csv)
    return csv.status();
  return MetricsWriter(std::move(*csv));
}

Status
MetricsWriter::writeStep(int64_t step, double loss, double samplesPerSecond,
                         const std::vector<std::optional<double>> &extra) {
  std::vector<std::string> fields = {fmt::format("{}", step),
                                     fmt::format("{:.6g}", loss),
                                     fmt::format("{:.1f}", samplesPerSecond)};
  for (const std::optional<double> &value : extra)
    fields.push_back(value ? fmt::format("{:.6g}", *value) : std::string());
  return csv_.writeRow(fields);
}
