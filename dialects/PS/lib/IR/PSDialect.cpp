//===- PSDialect.cpp - Parameter-server dialect ---------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSDialect.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace openks::ps;

#include "openks/Dialect/PS/IR/PSDialect.cpp.inc"
#include "openks/Dialect/PS/IR/PSEnums.cpp.inc"

void PSDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "openks/Dialect/PS/IR/PSOps.cpp.inc"
      >();
}
