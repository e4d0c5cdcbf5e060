//===- PaddleDialect.cpp - Paddle dialect ---------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleDialect.h"
#include "openks/Dialect/Paddle/IR/PaddleOps.h"

using namespace mlir;
using namespace openks::paddle;

#include "openks/Dialect/Paddle/IR/PaddleDialect.cpp.inc"
#include "openks/Dialect/Paddle/IR/PaddleEnums.cpp.inc"

void PaddleDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "openks/Dialect/Paddle/IR/PaddleOps.cpp.inc"
      >();
}
