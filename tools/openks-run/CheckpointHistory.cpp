//===- CheckpointHistory.cpp - The checkpoints a run keeps ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "CheckpointHistory.h"

#include "openks/Runtime/Checkpoint.h"
#include "openks/Runtime/Metrics.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fmt/format.h>
#include <vector>

using namespace openks;
using namespace openks::run;

namespace fs = std::filesystem;

/// The prefix of a kept checkpoint's directory name, before its step.
static constexpr std::string_view kStepPrefix = "step-";

Status CheckpointHistory::checkTarget() const {
  if (keep_ == 0)
    return runtime::checkCheckpointTarget(dir_);
  std::error_code error;
  if (fs::exists(dir_, error) && !fs::is_directory(dir_, error))
    return Status::invalidArgument(
        "{} is not a directory: with --keep-checkpoints it holds one "
        "checkpoint per save",
        dir_);
  return runtime::checkCheckpointTarget(dirOf(0));
}

std::string CheckpointHistory::dirOf(int64_t step) const {
  if (keep_ == 0)
    return dir_;
  return fmt::format("{}/{}{}", dir_, kStepPrefix, step);
}

Status CheckpointHistory::prune() const {
  if (keep_ == 0)
    return Status::ok();
  // Only the checkpoints this option names, as their manifests say.
  std::vector<std::pair<int64_t, fs::path>> kept;
  std::error_code error;
  for (const fs::directory_entry &entry : fs::directory_iterator(dir_, error)) {
    std::string name = entry.path().filename().string();
    if (name.compare(0, kStepPrefix.size(), kStepPrefix) != 0)
      continue;
    StatusOr<runtime::CheckpointInfo> info =
        runtime::readCheckpointInfo(entry.path().string());
    if (info && dirOf(info->step) == entry.path().string())
      kept.emplace_back(info->step, entry.path());
  }
  if (error)
    return Status::error(StatusCode::IOError, "cannot list {}: {}", dir_,
                         error.message());
  std::sort(kept.begin(), kept.end());
  for (size_t i = 0; i + keep_ < kept.size(); ++i) {
    fs::remove_all(kept[i].second, error);
    if (error)
      return Status::error(StatusCode::IOError, "cannot remove {}: {}",
                           kept[i].second.string(), error.message());
  }
  return Status::ok();
}

Status CheckpointHistory::save(
    int64_t step, const std::optional<std::vector<runtime::Metric>> &heldOut,
    const std::function<Status(const std::string &dir)> &write) {
  if (isDue(step)) {
    OPENKS_RETURN_IF_ERROR(write(dirOf(step)));
    OPENKS_RETURN_IF_ERROR(prune());
  }
  if (keep_ == 0 || !heldOut)
    return Status::ok();
  for (const runtime::Metric &metric : *heldOut)
    if (metric.name == bestMetric_ && improvesBest(metric.value))
      return write(dir_ + "/best");
  return Status::ok();
}

bool CheckpointHistory::improvesBest(double value) {
  if (std::isnan(value))
    return false;
  bool higher = runtime::isHigherBetter(bestMetric_);
  if (best_ && (higher ? value <= *best_ : value >= *best_))
    return false;
  best_ = value;
  return true;
}
