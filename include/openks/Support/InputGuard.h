//===- InputGuard.h - Bounded reading of the tools' inputs ------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the tools check before they hand a file to MLIR's parser, which would
// otherwise read an endless input (/dev/zero) until memory runs out, and
// recurse once per level of brackets until the stack overflows. Needs
// neither MLIR nor LLVM.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_INPUTGUARD_H
#define OPENKS_SUPPORT_INPUTGUARD_H

#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace openks {

/// The default limit on the size of an input file: 1 GiB.
inline constexpr uint64_t kDefaultMaxInputBytes = uint64_t(1) << 30;

/// The deepest nesting of brackets the tools parse. MLIR's parser takes a
/// few stack frames per level; 512 levels stay far below the 8 MiB stack,
/// also in sanitizer builds, and far above any real program.
inline constexpr int kMaxNestingDepth = 512;

/// Reads the file at `path` ("-" for standard input) whole, failing with
/// ResourceExhausted, without reading on, once it exceeds `maxBytes`.
StatusOr<std::string> readBoundedInput(const std::string &path,
                                       uint64_t maxBytes);

/// Checks that the (), [], {} and <> brackets of MLIR text `text` nest at
/// most `maxDepth` deep, skipping string literals, comments and the `->`
/// arrow. The error names the line where the limit is passed.
Status checkNestingDepth(std::string_view text, int maxDepth);

} // namespace openks

#endif // OPENKS_SUPPORT_INPUTGUARD_H
