//===- Transport.cpp - How trainers talk to parameter servers -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Transport.h"

using namespace openks;
using namespace openks::runtime;

Transport::~Transport() = default;

Status Transport::pullAll(const std::vector<PullRequest> &requests, int trainer,
                          Deadline deadline) {
  for (const PullRequest &request : requests)
    OPENKS_RETURN_IF_ERROR(request.rowIds
                               ? pullRows(request.server, request.block,
                                          *request.rowIds, *request.out,
                                          trainer, deadline)
                               : pull(request.server, request.block,
                                      *request.out, trainer, deadline));
  return Status::ok();
}

Status Transport::flush(int, Deadline) { return Status::ok(); }

Tensor *Transport::sharedBlock(int, int) { return nullptr; }

const char *openks::runtime::describeMessageKind(MessageKind kind) {
  switch (kind) {
  case MessageKind::Grad:
    return "gradient";
  case MessageKind::Delta:
    return "delta";
  case MessageKind::Param:
    return "parameter";
  }
  return "message";
}
