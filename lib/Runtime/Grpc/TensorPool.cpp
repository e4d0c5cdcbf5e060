//===- TensorPool.cpp - Buffers kept for the next value of a block --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "TensorPool.h"

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

/// The spares kept per key: a value being sent, one being filled, and one
/// more for a step that overlaps the next.
static constexpr size_t kSparesPerKey = 3;

Tensor TensorPool::take(int64_t key) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto found = spares_.find(key);
  if (found == spares_.end() || found->second.empty())
    return Tensor();
  Tensor tensor = std::move(found->second.back());
  found->second.pop_back();
  return tensor;
}

void TensorPool::give(int64_t key, Tensor tensor) {
  if (tensor.capacity() == 0)
    return;
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<Tensor> &spares = spares_[key];
  if (spares.size() < kSparesPerKey)
    spares.push_back(std::move(tensor));
}

std::shared_ptr<const Tensor> TensorPool::share(int64_t key, Tensor tensor) {
  std::weak_ptr<TensorPool> pool = weak_from_this();
  return std::shared_ptr<const Tensor>(
      new Tensor(std::move(tensor)), [pool, key](const Tensor *sent) {
        std::unique_ptr<Tensor> owned(const_cast<Tensor *>(sent));
        if (std::shared_ptr<TensorPool> self = pool.lock())
          self->give(key, std::move(*owned));
      });
}

StatusOr<Tensor> TensorPool::takeLike(int64_t key, const Tensor &like) {
  Tensor spare = take(key);
  if (spare.dtype() == like.dtype() && spare.capacity() >= like.numel()) {
    spare.resize(like.shape());
    return spare;
  }
  return Tensor::allocate(like.dtype(), like.shape());
}
