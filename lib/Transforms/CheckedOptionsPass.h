//===- CheckedOptionsPass.h - Passes whose options are checked --*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A base for passes with option values to check (see PassOptions.h): they
// are checked when parsed from text, so a bad value is reported against the
// option rather than a line of the program, and again when the pass runs,
// for passes built from C++ option structs.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_TRANSFORMS_CHECKEDOPTIONSPASS_H
#define OPENKS_LIB_TRANSFORMS_CHECKEDOPTIONSPASS_H

#include "openks/Transforms/PassOptions.h"

#include "mlir/IR/Diagnostics.h"

namespace openks {

/// `BaseT` (a generated pass base) whose options `checkOptions()` checks.
template <typename BaseT> class CheckedOptionsPass : public BaseT {
public:
  using BaseT::BaseT;

  mlir::LogicalResult
  initializeOptions(llvm::StringRef options,
                    llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                        errorHandler) override {
    return option_checks::parsePassOptions(
        this->getArgument(), options, errorHandler,
        [&](llvm::function_ref<mlir::LogicalResult(const llvm::Twine &)>
                handler) { return BaseT::initializeOptions(options, handler); },
        [&] { return checkOptions(); });
  }

protected:
  /// Returns "" when the options are valid, else what is wrong.
  virtual std::string checkOptions() = 0;

  /// Checks the options when the pass runs, reporting an error at the
  /// anchor's location (without printing the anchor).
  mlir::LogicalResult checkOptionsOnRun() {
    std::string error = checkOptions();
    if (error.empty())
      return mlir::success();
    return mlir::emitError(this->getOperation().getLoc())
           << this->getArgument() << ": " << error;
  }
};

} // namespace openks

#endif // OPENKS_LIB_TRANSFORMS_CHECKEDOPTIONSPASS_H
