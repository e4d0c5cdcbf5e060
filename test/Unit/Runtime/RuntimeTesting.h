//===- RuntimeTesting.h - Helpers for runtime unit tests --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Part of the OpenKS project.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_RUNTIME_RUNTIMETESTING_H
#define OPENKS_TEST_UNIT_RUNTIME_RUNTIMETESTING_H

#include "openks/Runtime/Executor.h"

#include <cstdio>
#include <cstdlib>
#include <gtest/gtest.h>

namespace openks::runtime::testing {

/// Returns an executor of `plan` over `store`; a test whose buffers cannot
/// be allocated fails and stops there, since nothing after it can run.
inline Executor
createExecutor(const Plan &plan, ParameterStore &store,
               const CommunicationContext *communication = nullptr) {
  StatusOr<Executor> executor = Executor::create(plan, store, communication);
  if (!executor) {
    std::fprintf(stderr, "cannot create an executor: %s\n",
                 executor.status().message().c_str());
    std::abort();
  }
  return std::move(*executor);
}

} // namespace openks::runtime::testing

#endif // OPENKS_TEST_UNIT_RUNTIME_RUNTIMETESTING_H
