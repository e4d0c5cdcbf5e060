//===- PaddleDialect.cpp - Paddle dialect ---------------------------------===//
//
// Part of the OpenKS Fleet compiler.
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
