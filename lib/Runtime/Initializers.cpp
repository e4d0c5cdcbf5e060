//===- Initializers.cpp - Slice-consistent parameter initialisation -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Initializers.h"
#include "openks/Runtime/Random.h"

#include <cmath>

using namespace openks;
using namespace openks::runtime;

/// Writes f(e) for every element of `out`, where e is the element's index in
/// the whole tensor.
template <typename T, typename Fn>
static void fillByIndex(Tensor &out, int64_t firstIndex, Fn &&valueOf) {
  T *data = out.data<T>();
  for (int64_t i = 0, e = out.numel(); i < e; ++i)
    data[i] = static_cast<T>(valueOf(firstIndex + i));
}

template <typename Fn>
static Status fillFloat(Tensor &out, int64_t firstIndex, Fn &&valueOf) {
  switch (out.dtype()) {
  case DType::F32:
    fillByIndex<float>(out, firstIndex, valueOf);
    return Status::ok();
  case DType::F64:
    fillByIndex<double>(out, firstIndex, valueOf);
    return Status::ok();
  case DType::I64:
    break;
  }
  return Status::invalidArgument(
      "random initializers need a float tensor, got {}", out.typeString());
}

Status openks::runtime::initialize(const InitializerSpec &spec,
                                   const Shape &whole, int64_t rowBegin,
                                   Tensor &out) {
  if (whole.rank() != out.rank() ||
      (out.rank() > 0 && (whole.rowWidth() != out.shape().rowWidth() ||
                          rowBegin < 0 || rowBegin + out.dim(0) > whole[0])) ||
      (out.rank() == 0 && rowBegin != 0))
    return Status::invalidArgument(
        "cannot initialise {} as rows from {} of a {} "
        "parameter",
        out.shape().str(), rowBegin, whole.str());
  int64_t firstIndex = rowBegin * (whole.rank() > 0 ? whole.rowWidth() : 1);
  Philox philox(spec.seed);
  switch (spec.kind) {
  case InitializerSpec::Kind::Constant:
    if (out.dtype() == DType::I64) {
      fillByIndex<int64_t>(out, firstIndex,
                           [&](int64_t) { return spec.value; });
      return Status::ok();
    }
    return fillFloat(out, firstIndex, [&](int64_t) { return spec.value; });
  case InitializerSpec::Kind::Uniform:
    return fillFloat(out, firstIndex, [&](int64_t index) {
      return spec.min + (spec.max - spec.min) * philox.uniform(index);
    });
  case InitializerSpec::Kind::Gaussian:
    return fillFloat(out, firstIndex, [&](int64_t index) {
      return spec.mean + spec.std * philox.normal(index);
    });
  case InitializerSpec::Kind::Xavier: {
    if (whole.rank() == 0)
      return Status::invalidArgument("xavier initialisation needs rank >= 1");
    double fanIn = static_cast<double>(whole[0]);
    double fanOut =
        whole.rank() == 1 ? fanIn : static_cast<double>(whole.rowWidth());
    double limit = std::sqrt(6.0 / (fanIn + fanOut));
    return fillFloat(out, firstIndex, [&](int64_t index) {
      return -limit + 2 * limit * philox.uniform(index);
    });
  }
  }
  return Status::internal("unknown initializer kind");
}

uint64_t openks::runtime::mixSeed(uint64_t seed, uint64_t runSeed) {
  if (runSeed == 0)
    return seed;
  // SplitMix64 finaliser over the pair: well spread, deterministic.
  uint64_t z = seed ^ (runSeed * 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
