//===- ToolFiles.h - Checked files of running tools -------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The files openks-run and openks-eval write besides their checkpoints: the
// metrics as CSV, the HTML page of a run, the trained parameters as text.
// Every write is checked, so a full disk or an unwritable device is an error
// naming the file ("cannot write <path>: <reason>"), not a silently short
// file. CSV fields are quoted as RFC 4180 asks when they hold a comma, a
// quote or a line break.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_TOOLFILES_H
#define OPENKS_TOOLS_TOOLFILES_H

#include "openks/Support/Status.h"

#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace openks::tools {

/// A file written through checked writes.
class CheckedFile {
public:
  /// Creates `path`, or truncates it, for writing.
  static StatusOr<CheckedFile> create(const std::string &path);

  /// Writes `text`.
  Status write(std::string_view text);

  /// Flushes and closes the file, reporting any write that failed. Nothing
  /// is written after it.
  Status close();

private:
  CheckedFile(std::string path, std::FILE *file)
      : path_(std::move(path)), file_(file, &std::fclose) {}

  /// Returns the error of the last failed write, naming the file.
  Status writeError() const;

  std::string path_;
  std::unique_ptr<std::FILE, int (*)(std::FILE *)> file_;
};

/// Returns `field` as one CSV field: unchanged, or quoted with its quotes
/// doubled when it holds a comma, a quote or a line break.
std::string quoteCsvField(const std::string &field);

/// A CSV file written line by line.
class CsvWriter {
public:
  /// Creates `path` and writes the header line of `columns`.
  static StatusOr<CsvWriter> create(const std::string &path,
                                    const std::vector<std::string> &columns);

  /// Writes a line of `fields`, each quoted as needed.
  Status writeRow(const std::vector<std::string> &fields);

  /// Flushes and closes the file, reporting any write that failed.
  Status close() { return file_.close(); }

private:
  explicit CsvWriter(CheckedFile file) : file_(std::move(file)) {}

  CheckedFile file_;
};

} // namespace openks::tools

#endif // OPENKS_TOOLS_TOOLFILES_H
