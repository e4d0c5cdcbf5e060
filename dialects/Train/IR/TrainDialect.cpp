//===- TrainDialect.cpp - Train dialect -----------------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "dialects/Train/IR/TrainDialect.h"
#include "dialects/Train/IR/TrainOps.h"

using namespace mlir;
using namespace openks::train;

#include "dialects/Train/IR/TrainDialect.cpp.inc"

void TrainDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/Train/IR/TrainOps.cpp.inc"
      >();
}
