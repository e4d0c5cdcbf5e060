//===- Communication.cpp - The kernels of a worker's messages -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Communication.h"

#include <cmath>

using namespace openks;
using namespace openks::runtime;

/// Checks that a plan with communication runs in a worker.
static Status checkContext(const CommunicationContext *context) {
  if (!context || !context->transport)
    return Status::error(StatusCode::FailedPrecondition,
                         "a communication op runs outside a worker: the "
                         "plan was not given a transport");
  return Status::ok();
}

static int64_t bytesOf(const Tensor &tensor) {
  return tensor.numel() * static_cast<int64_t>(dtypeSize(tensor.dtype()));
}

Status kernels::send(const CommunicationContext *context, BlockAddress to,
                     MessageKind kind, Tensor &value) {
  OPENKS_RETURN_IF_ERROR(checkContext(context));
  int64_t bytes = bytesOf(value);
  OPENKS_RETURN_IF_ERROR(context->transport->push(
      to.server, to.block, kind, value, context->trainer,
      Deadline::after(context->timeout)));
  if (context->stats) {
    context->stats->bytesPushed += bytes;
    ++context->stats->pushes;
  }
  return Status::ok();
}

Status kernels::sendRows(const CommunicationContext *context, BlockAddress to,
                         MessageKind kind, Tensor &rowIds, Tensor &values) {
  OPENKS_RETURN_IF_ERROR(checkContext(context));
  int64_t bytes = bytesOf(rowIds) + bytesOf(values);
  OPENKS_RETURN_IF_ERROR(context->transport->pushRows(
      to.server, to.block, kind, rowIds, values, context->trainer,
      Deadline::after(context->timeout)));
  if (context->stats) {
    context->stats->bytesPushed += bytes;
    ++context->stats->pushes;
  }
  return Status::ok();
}

/// Returns this thread's list of pull requests, emptied: the receives of
/// every step reuse it, so that they allocate nothing once it has grown.
static std::vector<PullRequest> &getEmptyPullRequests() {
  static thread_local std::vector<PullRequest> requests;
  requests.clear();
  return requests;
}

Status kernels::recv(const CommunicationContext *context,
                     const std::vector<BlockAddress> &from,
                     const std::vector<Tensor *> &out) {
  OPENKS_RETURN_IF_ERROR(checkContext(context));
  std::vector<PullRequest> &requests = getEmptyPullRequests();
  for (size_t i = 0; i < from.size(); ++i)
    requests.push_back({from[i].server, from[i].block, out[i]});
  // A view that a block of another shape grew or shrank no longer covers
  // its rows of the parameter.
  static thread_local std::vector<Shape> viewShapes;
  viewShapes.clear();
  for (const Tensor *tensor : out)
    viewShapes.push_back(tensor->ownsBuffer() ? Shape{} : tensor->shape());
  OPENKS_RETURN_IF_ERROR(context->transport->pullAll(
      requests, context->trainer, Deadline::after(context->timeout)));
  for (size_t i = 0; i < from.size(); ++i)
    if (viewShapes[i].rank() &&
        (out[i]->ownsBuffer() || out[i]->shape() != viewShapes[i]))
      return Status::error(StatusCode::DataLoss,
                           "block {} of server {} arrived as {}, but its "
                           "rows of the parameter are {}",
                           from[i].block, from[i].server, out[i]->typeString(),
                           typeString(out[i]->dtype(), viewShapes[i]));
  if (context->stats) {
    for (const Tensor *tensor : out)
      context->stats->bytesPulled += bytesOf(*tensor);
    context->stats->pulls += static_cast<int64_t>(out.size());
  }
  return Status::ok();
}

Status kernels::prefetch(const CommunicationContext *context,
                         const std::vector<BlockAddress> &from,
                         const std::vector<const Tensor *> &rowIds,
                         const std::vector<Tensor *> &outIds,
                         const std::vector<Tensor *> &outValues) {
  OPENKS_RETURN_IF_ERROR(checkContext(context));
  std::vector<PullRequest> &requests = getEmptyPullRequests();
  for (size_t i = 0; i < from.size(); ++i) {
    outIds[i]->copyFrom(*rowIds[i]);
    requests.push_back(
        {from[i].server, from[i].block, outValues[i], outIds[i]});
  }
  OPENKS_RETURN_IF_ERROR(context->transport->pullAll(
      requests, context->trainer, Deadline::after(context->timeout)));
  if (context->stats) {
    for (size_t i = 0; i < from.size(); ++i)
      context->stats->bytesPulled +=
          bytesOf(*outValues[i]) + bytesOf(*outIds[i]);
    context->stats->pulls += static_cast<int64_t>(from.size());
  }
  return Status::ok();
}

/// Passes one kind of barrier on each server, timing the wait.
template <typename Call>
static Status passBarriers(const CommunicationContext *context,
                           const std::vector<int> &servers, Call call) {
  OPENKS_RETURN_IF_ERROR(checkContext(context));
  auto start = std::chrono::steady_clock::now();
  for (int server : servers)
    OPENKS_RETURN_IF_ERROR(call(server, Deadline::after(context->timeout)));
  if (context->stats)
    context->stats->barrierWait += std::chrono::steady_clock::now() - start;
  return Status::ok();
}

Status kernels::sendBarrier(const CommunicationContext *context,
                            const std::vector<int> &servers) {
  return passBarriers(context, servers, [&](int server, Deadline deadline) {
    return context->transport->sendBarrier(server, context->trainer, deadline);
  });
}

Status kernels::fetchBarrier(const CommunicationContext *context,
                             const std::vector<int> &servers) {
  return passBarriers(context, servers, [&](int server, Deadline deadline) {
    return context->transport->fetchBarrier(server, context->trainer, deadline);
  });
}

Status kernels::reduceNorm(const CommunicationContext *context,
                           const std::vector<NormAddress> &copies) {
  OPENKS_RETURN_IF_ERROR(checkContext(context));
  // The shares wait for the slowest trainer's gradients, as a barrier does.
  auto start = std::chrono::steady_clock::now();
  double squares = 0;
  for (NormAddress copy : copies) {
    double share = 0;
    OPENKS_RETURN_IF_ERROR(context->transport->normShare(
        copy.server, copy.norm, share, context->trainer,
        Deadline::after(context->timeout)));
    squares += share;
  }
  double norm = std::sqrt(squares);
  for (NormAddress copy : copies)
    OPENKS_RETURN_IF_ERROR(context->transport->giveNorm(
        copy.server, copy.norm, norm, context->trainer,
        Deadline::after(context->timeout)));
  if (context->stats)
    context->stats->barrierWait += std::chrono::steady_clock::now() - start;
  return Status::ok();
}
