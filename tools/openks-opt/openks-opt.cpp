//===- openks-opt.cpp - The OpenKS optimizer driver -----------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// An mlir-opt style driver that knows the `train` and `ps` dialects, the
// OpenKS passes and pipelines, and the generic MLIR transformations
// (canonicalize, cse, ...).
//
//===----------------------------------------------------------------------===//

#include "openks/InitAllDialects.h"
#include "openks/InitAllPasses.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  openks::registerAllPasses();
  mlir::DialectRegistry registry;
  openks::registerAllDialects(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "OpenKS optimizer driver\n", registry));
}
