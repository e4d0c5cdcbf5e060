//===- ToolInput.h - The input and --threads of running tools ---*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-run and openks-eval run the program they are given, so they load it
// the same way: read whole up to a size limit and checked for nesting before
// MLIR's parser sees it (openks/Support/InputGuard.h), then parsed through
// the caller's source manager, whose diagnostic handler shows the source
// lines of errors also while the program runs. Both also take --threads,
// the threads the kernels may use.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_TOOLINPUT_H
#define OPENKS_TOOLS_TOOLINPUT_H

#include "openks/Support/Status.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <string>

namespace llvm {
class SourceMgr;
} // namespace llvm

namespace openks::tools {

/// Reads the module in `path` ("-" for standard input), refusing a file
/// larger than `maxBytes` or nested deeper than the tools parse, adds it to
/// `sourceMgr` and parses it in `context`. A parse error is reported through
/// `context`'s diagnostics, and the returned error is then "cannot load
/// <path>".
StatusOr<mlir::OwningOpRef<mlir::ModuleOp>>
loadBoundedModule(const std::string &path, uint64_t maxBytes,
                  mlir::MLIRContext &context, llvm::SourceMgr &sourceMgr);

/// Makes the tool's --threads option, the threads the kernels may use,
/// described by `description` (a literal: the option keeps it), in
/// `category`. LLVM's ThinLTO code generator, which the upstream dialects
/// bring in, registers a "threads" option of its own when the program loads;
/// nothing here reads it, so this drops it first. Call it once, in main,
/// before parsing the command line.
void registerThreadsOption(llvm::StringRef description,
                           llvm::cl::OptionCategory &category);

/// Returns an error naming --threads if it was given a value outside
/// [1, 1024].
Status checkThreadsOption();

/// Lets the kernels use the threads --threads asks for, if it was given.
void applyThreadsOption();

} // namespace openks::tools

#endif // OPENKS_TOOLS_TOOLINPUT_H
