//===- NameMap.cpp - Names of a variable's rows from a TSV file -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "NameMap.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace openks;
using namespace openks::ckpt;

StatusOr<std::vector<std::string>>
openks::ckpt::readNameMap(const std::string &path, int64_t rows) {
  std::error_code ignored;
  if (std::filesystem::is_directory(path, ignored))
    return Status::invalidArgument("{}: cannot read it: it is a directory",
                                   path);
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return Status::notFound("{}: cannot open it: {}", path,
                            std::strerror(errno ? errno : ENOENT));
  std::vector<std::string> names(static_cast<size_t>(rows));
  // The line that gave each id its name (0: none yet).
  std::vector<int64_t> lines(static_cast<size_t>(rows), 0);
  int64_t number = 0, mapped = 0;
  std::string line;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r')
      line.pop_back();
    size_t tab = line.find('\t');
    int64_t id = -1;
    auto [end, error] = std::from_chars(
        line.data(), line.data() + std::min(tab, line.size()), id);
    if (tab == std::string::npos || tab == 0 || error != std::errc() ||
        end != line.data() + tab ||
        line.find('\t', tab + 1) != std::string::npos)
      return Status::invalidArgument("{}:{}: expected 'ID<TAB>NAME', with ID "
                                     "a row number and NAME without tabs",
                                     path, number);
    if (id < 0 || id >= rows)
      return Status::outOfRange("{}:{}: id {} is out of range: the variable "
                                "has {} rows (ids 0 to {})",
                                path, number, id, rows, rows - 1);
    int64_t &first = lines[static_cast<size_t>(id)];
    if (first)
      return Status::invalidArgument("{}:{}: id {} is listed twice, also on "
                                     "line {}",
                                     path, number, id, first);
    first = number;
    names[static_cast<size_t>(id)] = line.substr(tab + 1);
    ++mapped;
  }
  if (in.bad())
    return Status::error(StatusCode::IOError, "{}: cannot read it: {}", path,
                         std::strerror(errno ? errno : EIO));
  if (mapped != rows)
    return Status::invalidArgument("{}: maps {} ids, but the variable has {} "
                                   "rows",
                                   path, mapped, rows);
  return names;
}
