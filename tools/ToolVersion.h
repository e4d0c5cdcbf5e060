//===- ToolVersion.h - `--version` of the OpenKS tools ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every OpenKS tool answers `--version` with the OpenKS release first and
// then, as LLVM's tools do, the LLVM it was built with:
//
//   openks-opt: OpenKS version 0.1.0
//   LLVM (http://llvm.org/):
//     LLVM version 22.1.8
//     ...
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_TOOLVERSION_H
#define OPENKS_TOOLS_TOOLVERSION_H

#include "openks/Version.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace openks::tools {

/// Makes `--version` print "<toolName>: OpenKS version X.Y.Z" before LLVM's
/// version message. Call before the command line is parsed.
inline void printOpenKSVersionFirst(llvm::StringRef toolName) {
  llvm::cl::SetVersionPrinter([name = toolName.str()](llvm::raw_ostream &os) {
    os << name << ": OpenKS version " OPENKS_VERSION_STRING "\n";
    os.flush();
    llvm::cl::PrintVersionMessage();
  });
}

} // namespace openks::tools

#endif // OPENKS_TOOLS_TOOLVERSION_H
