//===- LogTail.cpp - Reading the logs of running processes ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LogTail.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <unistd.h>

using namespace openks;
using namespace openks::launch;

/// The longest line handed out whole, and the most of a file's end read.
static constexpr size_t kChunkBytes = 64 * 1024;

LogFollower::~LogFollower() {
  if (fd_ >= 0)
    ::close(fd_);
}

Status LogFollower::open(const std::string &path) {
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0)
    return Status::error(StatusCode::IOError, "cannot read {}: {}", path,
                         std::strerror(errno));
  return Status::ok();
}

void LogFollower::readLines(const std::function<void(std::string_view)> &line,
                            bool atEnd) {
  if (fd_ < 0)
    return;
  char buffer[4096];
  for (;;) {
    ssize_t got = ::read(fd_, buffer, sizeof(buffer));
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0)
      break;
    pending_.append(buffer, static_cast<size_t>(got));
    size_t start = 0;
    for (size_t newline;
         (newline = pending_.find('\n', start)) != std::string::npos;
         start = newline + 1)
      line(std::string_view(pending_).substr(start, newline - start));
    pending_.erase(0, start);
    while (pending_.size() >= kChunkBytes) {
      line(std::string_view(pending_).substr(0, kChunkBytes));
      pending_.erase(0, kChunkBytes);
    }
  }
  if (atEnd && !pending_.empty()) {
    line(pending_);
    pending_.clear();
  }
}

StatusOr<std::vector<std::string>>
openks::launch::lastLines(const std::string &path, size_t count) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file)
    return Status::error(StatusCode::IOError, "cannot read {}: {}", path,
                         std::strerror(errno));
  std::streamoff size = file.tellg();
  if (size < 0)
    return Status::error(StatusCode::IOError, "cannot read {}", path);
  std::streamoff start =
      size > static_cast<std::streamoff>(kChunkBytes) ? size - kChunkBytes : 0;
  std::string text(static_cast<size_t>(size - start), '\0');
  file.seekg(start);
  if (!file.read(text.data(), static_cast<std::streamsize>(text.size())))
    return Status::error(StatusCode::IOError, "cannot read {}", path);
  // A read from inside the file starts inside a line: drop that part.
  size_t begin = 0;
  if (start > 0) {
    size_t newline = text.find('\n');
    begin = newline == std::string::npos ? text.size() : newline + 1;
  }
  std::vector<std::string> lines;
  while (begin < text.size()) {
    size_t newline = text.find('\n', begin);
    if (newline == std::string::npos)
      newline = text.size();
    lines.push_back(text.substr(begin, newline - begin));
    begin = newline + 1;
  }
  if (lines.size() > count)
    lines.erase(lines.begin(),
                lines.end() - static_cast<std::ptrdiff_t>(count));
  return lines;
}
