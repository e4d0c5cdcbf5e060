//===- PrintTo.h - Printing that a full disk cannot abort -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// fmt::print throws when a write fails, and in openks-run, built without
// exceptions, that is an abort: `openks-run > /dev/full` would crash once
// the stream's buffer overflows. printTo formats the same way but leaves a
// failed write in the stream's error flag, which main checks for standard
// output when the run ends.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_RUN_PRINTTO_H
#define OPENKS_TOOLS_OPENKS_RUN_PRINTTO_H

#include <cstdio>
#include <fmt/format.h>
#include <string>
#include <utility>

namespace openks::run {

/// Prints `format` with `args` to `stream`, as fmt::print does, except that
/// a failed write only sets the stream's error flag.
template <typename... Args>
void printTo(std::FILE *stream, fmt::format_string<Args...> format,
             Args &&...args) {
  std::string text = fmt::format(format, std::forward<Args>(args)...);
  std::fwrite(text.data(), 1, text.size(), stream);
}

} // namespace openks::run

#endif // OPENKS_TOOLS_OPENKS_RUN_PRINTTO_H
