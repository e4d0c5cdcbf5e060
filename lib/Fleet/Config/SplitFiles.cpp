//===- SplitFiles.cpp - Each worker's share of the input files ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/SplitFiles.h"

using namespace openks;
using namespace openks::fleet;

StatusOr<std::vector<std::string>>
fleet::splitFiles(const std::vector<std::string> &files, int workerIndex,
                  int workerNum) {
  if (workerNum < 1)
    return Status::invalidArgument("splitFiles needs at least 1 worker, got {}",
                                   workerNum);
  if (workerIndex < 0 || workerIndex >= workerNum)
    return Status::outOfRange(
        "splitFiles: worker index {} is out of range for {} workers",
        workerIndex, workerNum);
  size_t workers = static_cast<size_t>(workerNum);
  if (files.size() < workers)
    return Status::invalidArgument(
        "splitFiles: {} files cannot be split among {} workers; each worker "
        "needs at least one",
        files.size(), workerNum);
  // Runs of size files / workers; the first files % workers runs get one
  // more.
  size_t index = static_cast<size_t>(workerIndex);
  size_t base = files.size() / workers, extra = files.size() % workers;
  size_t begin = index * base + std::min(index, extra);
  size_t end = begin + base + (index < extra ? 1 : 0);
  return std::vector<std::string>(files.begin() + begin, files.begin() + end);
}
