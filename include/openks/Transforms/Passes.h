//===- Passes.h - OpenKS minimize and transpile passes ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TRANSFORMS_PASSES_H
#define OPENKS_TRANSFORMS_PASSES_H

#include "mlir/Pass/Pass.h"
#include "openks/Dialect/PS/IR/PSOps.h"

#include <cstdint>

namespace openks {

/// The update rules openks-append-optimizer can append.
enum class OptimizerKind {
  SGD,
  Momentum,
  Adam,
  Adagrad,
  RMSProp,
  DecayedAdagrad,
  Ftrl,
  Adamax
};

/// The learning-rate schedules openks-append-optimizer can append.
enum class LRSchedule { Constant, Exponential, Piecewise };

#define GEN_PASS_DECL
#include "openks/Transforms/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "openks/Transforms/Passes.h.inc"

} // namespace openks

#endif // OPENKS_TRANSFORMS_PASSES_H
