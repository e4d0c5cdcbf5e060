//===- Communication.h - The kernels of a worker's messages -----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the communication ops of a worker's plans do at run time: a send
// pushes a gradient or a delta of one block to its server, a receive pulls
// a block's current value, the barriers tell each listed server that the
// trainer has sent (fetched) its step, and a norm reduction completes a
// norm that several servers share. The calls go through the
// transport of the worker's CommunicationContext, each with the context's
// timeout as its deadline, and are counted in the context's figures.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_COMMUNICATION_H
#define OPENKS_RUNTIME_COMMUNICATION_H

#include "openks/Runtime/Tensor.h"
#include "openks/Runtime/Transport.h"
#include "openks/Support/Status.h"

#include <chrono>
#include <cstdint>
#include <vector>

namespace openks::runtime {

/// What one trainer's communication has cost so far.
struct CommunicationStats {
  int64_t bytesPushed = 0;
  int64_t bytesPulled = 0;
  int64_t pushes = 0;
  int64_t pulls = 0;
  /// Time spent in barrier calls, waiting for the other trainers.
  std::chrono::nanoseconds barrierWait{0};
};

/// What the communication calls of a worker's plans use: the transport to
/// the job's servers, this trainer's index, how long one call may wait,
/// and where its figures go; and where the trainer's shard of the current
/// global batch begins, for the kernels that draw random numbers by row.
/// Only the trainer's own thread touches them.
struct CommunicationContext {
  Transport *transport = nullptr;
  int trainer = 0;
  std::chrono::milliseconds timeout{60000};
  CommunicationStats *stats = nullptr;
  /// The row of the global batch where this trainer's shard begins.
  int64_t firstRow = 0;
};

/// A block of the job: its server's index among the job's endpoints and its
/// index among that server's blocks.
struct BlockAddress {
  int server;
  int block;
};

/// A server's copy of a shared norm: the server's index among the job's
/// endpoints and the norm's index among that server's norms.
struct NormAddress {
  int server;
  int norm;
};

namespace kernels {

/// Pushes `value`, a `kind` message for block `to`, handing its buffer to
/// the transport: `value` must not be read afterwards (the loader gives a
/// send a buffer of its own when the value is read again).
Status send(const CommunicationContext *context, BlockAddress to,
            MessageKind kind, Tensor &value);

/// Pushes the row-sparse `kind` message `rowIds` and `values` for block
/// `to` as send() does, handing both buffers to the transport.
Status sendRows(const CommunicationContext *context, BlockAddress to,
                MessageKind kind, Tensor &rowIds, Tensor &values);

/// Pulls the current value of each block of `from` into the tensor of
/// `out` at the same position, as one batch (Transport::pullAll). A tensor
/// of `out` that views rows of a parameter (Tensor::viewRows) must receive
/// a block of exactly its shape, which then lands in the parameter.
Status recv(const CommunicationContext *context,
            const std::vector<BlockAddress> &from,
            const std::vector<Tensor *> &out);

/// Fetches the rows `rowIds[i]` (block-local ids) of each block `from[i]`
/// as one batch (Transport::pullAll): `outIds[i]` gets the ids and
/// `outValues[i]` the rows, a row-sparse value of the block.
Status prefetch(const CommunicationContext *context,
                const std::vector<BlockAddress> &from,
                const std::vector<const Tensor *> &rowIds,
                const std::vector<Tensor *> &outIds,
                const std::vector<Tensor *> &outValues);

/// Passes the send barrier of each of `servers`, in order.
Status sendBarrier(const CommunicationContext *context,
                   const std::vector<int> &servers);

/// Passes the fetch barrier of each of `servers`, in order.
Status fetchBarrier(const CommunicationContext *context,
                    const std::vector<int> &servers);

/// Completes a norm that `copies` (one per server that shares it, in the
/// op's order) share: takes each server's share, adds them in that order,
/// and gives each server the square root.
Status reduceNorm(const CommunicationContext *context,
                  const std::vector<NormAddress> &copies);

} // namespace kernels
} // namespace openks::runtime

#endif // OPENKS_RUNTIME_COMMUNICATION_H
