//===- SplitFiles.h - Each worker's share of the input files ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_SPLITFILES_H
#define OPENKS_FLEET_SPLITFILES_H

#include "openks/Support/Status.h"

#include <string>
#include <vector>

namespace openks::fleet {

/// Returns worker `workerIndex`'s share of `files`, as Paddle's Fleet
/// split_files: the files are cut, in order, into `workerNum` contiguous
/// runs, and the first files.size() % workerNum runs get one file more
/// (5 files for 2 workers: [a, b, c] and [d, e]). Fails when `workerNum`
/// is below 1, `workerIndex` is not in [0, workerNum), or there are fewer
/// files than workers (as Paddle does: a worker would get nothing).
StatusOr<std::vector<std::string>>
splitFiles(const std::vector<std::string> &files, int workerIndex,
           int workerNum);

} // namespace openks::fleet

#endif // OPENKS_FLEET_SPLITFILES_H
