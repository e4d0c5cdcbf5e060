//===- TranspileState.h - What the transpile passes share -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Lookups every transpile pass starts from: the module's job and the
// parameters its optimizer ops update.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H
#define OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H

#include "dialects/PS/IR/PSOps.h"
#include "dialects/Train/IR/TrainOps.h"

#include "mlir/IR/BuiltinOps.h"

namespace openks {

/// Returns the module's `ps.job`, or reports on the module that `pass` needs
/// openks-configure-job to run first.
mlir::FailureOr<ps::JobAttr> getJob(mlir::ModuleOp module,
                                    llvm::StringRef pass);

/// Returns the parameters that optimizer ops update, in the order of their
/// first update (parameter-name order after openks-append-optimizer).
/// Reports on the module when no step has an optimizer op.
mlir::FailureOr<llvm::SmallVector<train::ParamOp>>
getOptimizedParameters(mlir::ModuleOp module, llvm::StringRef pass);

} // namespace openks

#endif // OPENKS_LIB_TRANSFORMS_TRANSPILESTATE_H
