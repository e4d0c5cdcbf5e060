//===- CheckpointDir.cpp - Directories openks-ckpt reads ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CheckpointDir.h"

#include "llvm/ADT/StringRef.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/stat.h>
#include <utility>
#include <vector>

using namespace openks;
using namespace openks::ckpt;
using namespace openks::runtime;

/// The most close names an unknown variable's error lists.
static constexpr size_t kMaxSuggestions = 5;

StatusOr<CheckpointInfo> openks::ckpt::openCheckpoint(const std::string &dir) {
  struct stat status;
  if (::stat(dir.c_str(), &status) != 0)
    return Status::notFound("{}: cannot open it: {}", dir,
                            std::strerror(errno));
  if (!S_ISDIR(status.st_mode))
    return Status::invalidArgument("{}: not a checkpoint: it is not a "
                                   "directory",
                                   dir);
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir);
  if (info && !info->hasManifest && info->variables.empty())
    return Status::invalidArgument(
        "{}: not a checkpoint: it has no {} and no tensor files (as Paddle's "
        "save_persistables writes them)",
        dir, kCheckpointManifest);
  return info;
}

StatusOr<const CheckpointVariable *>
openks::ckpt::findVariable(const CheckpointInfo &info, const std::string &dir,
                           const std::string &name) {
  // Names within a third of their length in edits, or holding the name
  // asked for (either way, ignoring case), closest first.
  std::vector<std::pair<unsigned, llvm::StringRef>> close;
  llvm::StringRef wanted(name);
  for (const CheckpointVariable &variable : info.variables) {
    if (variable.name == name)
      return &variable;
    llvm::StringRef candidate(variable.name);
    unsigned distance =
        candidate.edit_distance_insensitive(wanted, /*AllowReplacements=*/true);
    if (distance <= std::max<size_t>(2, name.size() / 3) ||
        candidate.contains_insensitive(wanted))
      close.push_back({distance, candidate});
  }
  std::stable_sort(
      close.begin(), close.end(),
      [](const auto &a, const auto &b) { return a.first < b.first; });
  if (close.size() > kMaxSuggestions)
    close.resize(kMaxSuggestions);
  std::vector<std::string> names;
  for (const auto &[distance, candidate] : close)
    names.push_back(candidate.str());
  std::string hint =
      names.empty()
          ? fmt::format("it has {} variables (`openks-ckpt list {}` lists "
                        "them)",
                        info.variables.size(), dir)
          : fmt::format("did you mean {}?", fmt::join(names, ", "));
  return Status::notFound("{}: no variable '{}'; {}", dir, name, hint);
}
