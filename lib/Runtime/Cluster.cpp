//===- Cluster.cpp - Where the roles of a job meet ------------------------===//
//
// Part of the OpenKS Fleet compiler.
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
