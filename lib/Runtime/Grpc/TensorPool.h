//===- TensorPool.h - Buffers kept for a block's next value -----*- C++ -*-===//
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The buffers a gRPC role sends from and receives into, kept per block for
// the next step: a job in its steady state allocates no memory for its
// values, as the in-process transport allocates none. Fresh memory is not
// free: its pages fault in on first touch, which costs more than the copy.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_RUNTIME_GRPC_TENSORPOOL_H
#define OPENKS_LIB_RUNTIME_GRPC_TENSORPOOL_H

#include "openks/Runtime/Tensor.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace openks::runtime::grpc_wire {

/// Spare tensors by key (a block, or a server's block).
class TensorPool : public std::enable_shared_from_this<TensorPool> {
public:
  /// Returns a spare tensor of `key`, or an empty one when there is none.
  Tensor take(int64_t key);
  /// Keeps `tensor` as a spare of `key`.
  void give(int64_t key, Tensor tensor);
  /// Returns `tensor` shared, to be sent: it comes back as a spare of `key`
  /// once the last reference is gone, if the pool still exists.
  std::shared_ptr<const Tensor> share(int64_t key, Tensor tensor);

  /// Returns a tensor of `like`'s type and shape, from a spare of `key` when
  /// one is large enough; its contents are unspecified.
  StatusOr<Tensor> takeLike(int64_t key, const Tensor &like);

private:
  std::mutex mutex_;
  std::map<int64_t, std::vector<Tensor>> spares_;
};

} // namespace openks::runtime::grpc_wire

#endif // OPENKS_LIB_RUNTIME_GRPC_TENSORPOOL_H
