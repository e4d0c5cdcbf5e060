//===- PSDialect.cpp - Parameter-server dialect ---------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "dialects/PS/IR/PSDialect.h"
#include "dialects/PS/IR/PSOps.h"
#include "dialects/Train/IR/TrainDialect.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace openks::ps;

#include "dialects/PS/IR/PSDialect.cpp.inc"
#include "dialects/PS/IR/PSEnums.cpp.inc"

void PSDialect::initialize() {
  registerAttributes();
  addOperations<
#define GET_OP_LIST
#include "dialects/PS/IR/PSOps.cpp.inc"
      >();
}
