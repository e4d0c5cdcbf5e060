//===- Initializers.h - Slice-consistent parameter initialisation -*- C++
//-*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Fills parameters as the `train` dialect's initializer attributes describe.
// Random values come from Philox keyed by the seed and counted by the
// element's index in the whole parameter, and Xavier's fan-in and fan-out
// come from the whole shape, so initialising rows [a, b) of a parameter gives
// exactly those rows of the whole parameter's initialisation.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_INITIALIZERS_H
#define OPENKS_RUNTIME_INITIALIZERS_H

#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstdint>

namespace openks::runtime {

/// A parameter initializer, mirroring the dialect's initializer attributes.
struct InitializerSpec {
  enum class Kind { Constant, Uniform, Gaussian, Xavier };

  Kind kind = Kind::Constant;
  /// Constant value.
  double value = 0;
  /// Uniform bounds, [min, max).
  double min = 0, max = 1;
  /// Gaussian moments.
  double mean = 0, std = 1;
  /// Seed of the random kinds.
  uint64_t seed = 0;
};

/// Fills `out`, whose shape is rows [rowBegin, rowBegin + out.dim(0)) of a
/// tensor of shape `whole` (or all of a rank-0 `whole`), with those rows of
/// `whole`'s initialisation by `spec`.
Status initialize(const InitializerSpec &spec, const Shape &whole,
                  int64_t rowBegin, Tensor &out);

/// Returns `seed` combined with a run-wide `runSeed` (the identity for
/// runSeed 0), so one program can be initialised differently per run.
uint64_t mixSeed(uint64_t seed, uint64_t runSeed);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_INITIALIZERS_H
