//===- LogTail.h - Reading the logs of running processes --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A role writes its output straight into its log file, so the log is whole
// even if the launcher dies. The launcher shows trainer 0's output by
// following that file, and a failed role's last lines by reading its end.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_LAUNCH_LOGTAIL_H
#define OPENKS_TOOLS_OPENKS_LAUNCH_LOGTAIL_H

#include "openks/Support/Status.h"

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace openks::launch {

/// Follows a growing file and hands out its lines as they are completed.
class LogFollower {
public:
  LogFollower() = default;
  LogFollower(const LogFollower &) = delete;
  LogFollower &operator=(const LogFollower &) = delete;
  ~LogFollower();

  /// Opens `path` to follow it from its start, or fails naming it.
  Status open(const std::string &path);

  /// Calls `line` with every line (without its newline) completed since the
  /// last call; with `atEnd`, also with an unfinished last line. A line
  /// longer than 64 KiB comes in pieces of that size.
  void readLines(const std::function<void(std::string_view)> &line, bool atEnd);

private:
  int fd_ = -1;
  std::string pending_;
};

/// Returns the last `count` lines of the file at `path`, found in its last
/// 64 KiB, or an error naming it.
StatusOr<std::vector<std::string>> lastLines(const std::string &path,
                                             size_t count);

} // namespace openks::launch

#endif // OPENKS_TOOLS_OPENKS_LAUNCH_LOGTAIL_H
