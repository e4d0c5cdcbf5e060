//===- InProcessTransport.cpp - Servers and trainers as threads -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/InProcessTransport.h"

using namespace openks;
using namespace openks::runtime;

StatusOr<ParameterServer *> InProcessTransport::getServer(int index) const {
  if (index < 0 || index >= numServers())
    return Status::invalidArgument("there is no server {} (the job has {})",
                                   index, numServers());
  return servers_[index];
}

Status InProcessTransport::push(int server, int block, MessageKind kind,
                                Tensor &value, int trainer, Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->push(block, kind, value, trainer, deadline);
}

Status InProcessTransport::pushRows(int server, int block, MessageKind kind,
                                    Tensor &rowIds, Tensor &values, int trainer,
                                    Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->pushRows(block, kind, rowIds, values, trainer, deadline);
}

Status InProcessTransport::pull(int server, int block, Tensor &out, int trainer,
                                Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->pull(block, out, trainer, deadline);
}

Status InProcessTransport::pullRows(int server, int block, const Tensor &rowIds,
                                    Tensor &out, int trainer, Deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->pullRows(block, rowIds, out, trainer);
}

Status InProcessTransport::read(int server, int block, Tensor &out, Deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->read(block, out);
}

Status InProcessTransport::sendBarrier(int server, int trainer,
                                       Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  // A trainer with one server would sleep while the server's thread
  // updates, and wake it and be woken back: it updates in its own thread
  // instead. With more servers their threads update at the same time.
  return (*target)->sendBarrier(trainer, deadline,
                                /*updateInCaller=*/numServers() == 1);
}

Status InProcessTransport::fetchBarrier(int server, int trainer,
                                        Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->fetchBarrier(trainer, deadline);
}

Status InProcessTransport::normShare(int server, int norm, double &share,
                                     int trainer, Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->normShare(norm, share, trainer, deadline);
}

Status InProcessTransport::giveNorm(int server, int norm, double value,
                                    int trainer, Deadline deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->giveNorm(norm, value, trainer, deadline);
}

Status InProcessTransport::complete(int server, int trainer, Deadline) {
  StatusOr<ParameterServer *> target = getServer(server);
  if (!target)
    return target.status();
  return (*target)->complete(trainer);
}

Tensor *InProcessTransport::sharedBlock(int server, int block) {
  StatusOr<ParameterServer *> target = getServer(server);
  return target ? (*target)->sharedBlock(block) : nullptr;
}

void InProcessTransport::abort(int server, int trainer, const Status &status) {
  if (StatusOr<ParameterServer *> target = getServer(server))
    (*target)->abort(trainer, status);
}
