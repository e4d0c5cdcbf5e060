//===- MetricsWriter.cpp - Per-step metrics as CSV ------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MetricsWriter.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>

using namespace openks;
using namespace openks::run;

std::string openks::run::quoteCsvField(const std::string &field) {
  if (field.find_first_of(",\"\r\n") == std::string::npos)
    return field;
  std::string quoted = "\"";
  for (char c : field) {
    if (c == '"')
      quoted += '"';
    quoted += c;
  }
  return quoted + '"';
}

Status MetricsWriter::writeError() const {
  return Status::error(StatusCode::IOError, "cannot write {}: {}", path_,
                       std::strerror(errno ? errno : EIO));
}

StatusOr<MetricsWriter>
MetricsWriter::create(const std::string &path,
                      const std::vector<std::string> &extraColumns) {
  errno = 0;
  std::FILE *file = std::fopen(path.c_str(), "w");
  if (!file)
    return Status::error(StatusCode::IOError, "cannot write {}: {}", path,
                         std::strerror(errno));
  MetricsWriter writer(path, file);
  std::string header = "step,loss,samples_per_sec";
  for (const std::string &column : extraColumns)
    header += "," + quoteCsvField(column);
  if (std::fprintf(file, "%s\n", header.c_str()) < 0)
    return writer.writeError();
  return writer;
}

Status MetricsWriter::writeStep(int64_t step, double loss,
                                double samplesPerSecond,
                                const std::vector<std::optional<double>> &extra) {
  std::string line = fmt::format("{},{:.6g},{:.1f}", step, loss,
                                 samplesPerSecond);
  for (const std::optional<double> &value : extra)
    line += value ? fmt::format(",{:.6g}", *value) : std::string(",");
  errno = 0;
  if (std::fprintf(file_.get(), "%s\n", line.c_str()) < 0)
    return writeError();
  return Status::ok();
}

Status MetricsWriter::close() {
  errno = 0;
  bool failed = std::fflush(file_.get()) != 0 || std::ferror(file_.get());
  int savedErrno = errno;
  failed |= std::fclose(file_.release()) != 0;
  if (failed) {
    errno = savedErrno ? savedErrno : errno;
    return writeError();
  }
  return Status::ok();
}
