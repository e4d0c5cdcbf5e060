//===- Cluster.cpp - Where the roles of a job meet ------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Cluster.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;

Cluster::~Cluster() = default;

Status openks::runtime::checkSameJob(const std::string &endpoint,
                                     uint64_t serverJob, uint64_t trainerJob) {
  if (serverJob == trainerJob)
    return Status::ok();
  return Status::invalidArgument(
      "the server at {} runs another job (fingerprint {:016x}, this "
      "trainer's {:016x}): start every role from the same program and "
      "options",
      endpoint, serverJob, trainerJob);
}
