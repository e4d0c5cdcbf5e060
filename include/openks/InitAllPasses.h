//===- InitAllPasses.h - Register OpenKS passes and pipelines ---*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One call that makes the OpenKS passes and pipelines available to a tool or
// an embedding compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_INITALLPASSES_H
#define OPENKS_INITALLPASSES_H

#include "openks/Pipelines/Pipelines.h"
#include "openks/Transforms/Passes.h"

namespace openks {

/// Registers every OpenKS pass and pipeline (openks-minimize,
/// openks-transpile) with the global registries.
inline void registerAllPasses() {
  registerOpenKSPasses();
  registerOpenKSPipelines();
}

} // namespace openks

#endif // OPENKS_INITALLPASSES_H
