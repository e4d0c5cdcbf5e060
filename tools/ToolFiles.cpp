//===- ToolFiles.cpp - Checked files of running tools ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "ToolFiles.h"

#include <cerrno>
#include <cstring>

using namespace openks;
using namespace openks::tools;

//===----------------------------------------------------------------------===//
// CheckedFile
//===----------------------------------------------------------------------===//

StatusOr<CheckedFile> CheckedFile::create(const std::string &path) {
  errno = 0;
  std::FILE *file = std::fopen(path.c_str(), "w");
  if (!file)
    return Status::error(StatusCode::IOError, "cannot write {}: {}", path,
                         std::strerror(errno));
  return CheckedFile(path, file);
}

Status CheckedFile::writeError() const {
  return Status::error(StatusCode::IOError, "cannot write {}: {}", path_,
                       std::strerror(errno ? errno : EIO));
}

Status CheckedFile::write(std::string_view text) {
  errno = 0;
  if (std::fwrite(text.data(), 1, text.size(), file_.get()) != text.size())
    return writeError();
  return Status::ok();
}

Status CheckedFile::close() {
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

//===----------------------------------------------------------------------===//
// CsvWriter
//===----------------------------------------------------------------------===//

std::string openks::tools::quoteCsvField(const std::string &field) {
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

StatusOr<CsvWriter> CsvWriter::create(const std::string &path,
                                      const std::vector<std::string> &columns) {
  StatusOr<CheckedFile> file = CheckedFile::create(path);
  if (!file)
    return file.status();
  CsvWriter writer(std::move(*file));
  OPENKS_RETURN_IF_ERROR(writer.writeRow(columns));
  return writer;
}

Status CsvWriter::writeRow(const std::vector<std::string> &fields) {
  std::string line;
  for (size_t i = 0; i < fields.size(); ++i)
    line += (i ? "," : "") + quoteCsvField(fields[i]);
  line += '\n';
  return file_.write(line);
}
