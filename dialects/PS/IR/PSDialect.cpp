//===- PSDialect.cpp - Parameter-server dialect ---------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "dialects/PS/IR/PSDialect.h"
#include "dialects/PS/IR/PSOps.h"
#include "dialects/Train/IR/TrainDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks::ps;

#include "dialects/PS/IR/PSDialect.cpp.inc"
#include "dialects/PS/IR/PSEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "dialects/PS/IR/PSAttrs.cpp.inc"

void PSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/PS/IR/PSAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/PS/IR/PSOps.cpp.inc"
      >();
}
