//===- Summary.cpp - How openks-run words its figures ---------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Runs.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

std::string openks::run::formatBytes(int64_t bytes) {
  if (bytes < 1024)
    return fmt::format("{} B", bytes);
  if (bytes < 1024 * 1024)
    return fmt::format("{:.1f} KiB", bytes / 1024.0);
  return fmt::format("{:.1f} MiB", bytes / (1024.0 * 1024.0));
}

std::string openks::run::countOf(int64_t count, const char *noun) {
  return fmt::format("{} {}{}", count, noun, count == 1 ? "" : "s");
}

const char *openks::run::describeMode(SyncMode mode) {
  switch (mode) {
  case SyncMode::Sync:
    return "sync";
  case SyncMode::Async:
    return "async";
  case SyncMode::HalfAsync:
    return "half-async";
  case SyncMode::Geo:
    return "geo";
  }
  return "?";
}
