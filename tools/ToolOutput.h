//===- ToolOutput.h - Checked output of the MLIR drivers --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-opt and openks-translate write through an llvm::raw_fd_ostream,
// which remembers a failed write (a full disk, /dev/full) and, unless the
// error is cleared, aborts with "IO failure on output stream" and no path
// when it is destroyed. writeOutputFile opens the -o file, lets the driver
// write, and turns a failed write into the driver's error naming the file.
// A write past the file-size limit (`ulimit -f`) is such a failure once the
// tool ignores SIGXFSZ, whose default ends the process.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_TOOLOUTPUT_H
#define OPENKS_TOOLS_TOOLOUTPUT_H

#include "mlir/Support/FileUtilities.h"
#include "mlir/Support/LogicalResult.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <memory>
#include <string>

namespace openks::tools {

/// Makes a write past the file-size limit fail with EFBIG, which the tool
/// reports naming the file, instead of ending the process by SIGXFSZ. Call
/// it first thing in main().
inline void failWritesPastTheSizeLimit() { std::signal(SIGXFSZ, SIG_IGN); }

/// Flushes `os`, the stream of `path` ("-" for standard output), and, if a
/// write to it failed, prints "<tool>: error: cannot write <path>: <reason>"
/// and clears the error, so that destroying the stream does not abort.
inline mlir::LogicalResult checkWritten(llvm::raw_fd_ostream &os,
                                        llvm::StringRef path,
                                        llvm::StringRef tool) {
  os.flush();
  if (!os.has_error())
    return mlir::success();
  llvm::errs() << tool << ": error: cannot write "
               << (path == "-" ? llvm::StringRef("standard output") : path)
               << ": " << os.error().message() << "\n";
  os.clear_error();
  return mlir::failure();
}

/// Opens `path` ("-" for standard output), calls `write` on its stream and
/// keeps the file when `write` succeeds and every byte was written. Errors,
/// the driver's own (reported by `write`) and those of opening or writing
/// the file (reported as `tool`'s), are failures that remove the file.
inline mlir::LogicalResult writeOutputFile(
    llvm::StringRef path, llvm::StringRef tool,
    llvm::function_ref<mlir::LogicalResult(llvm::raw_ostream &)> write) {
  std::string errorMessage;
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(path, &errorMessage);
  if (!output) {
    llvm::errs() << tool << ": error: " << errorMessage << "\n";
    return mlir::failure();
  }
  bool wrote = mlir::succeeded(write(output->os()));
  // Checked also after a failed `write`: its partial output may have failed
  // to reach the file as well.
  if (mlir::failed(checkWritten(output->os(), path, tool)) || !wrote)
    return mlir::failure();
  output->keep();
  return mlir::success();
}

} // namespace openks::tools

#endif // OPENKS_TOOLS_TOOLOUTPUT_H
