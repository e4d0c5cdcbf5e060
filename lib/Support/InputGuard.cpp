//===- InputGuard.cpp - Bounded reading of the tools' inputs --------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/InputGuard.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

using namespace openks;

StatusOr<std::string> openks::readBoundedInput(const std::string &path,
                                               uint64_t maxBytes) {
  bool standardInput = path == "-";
  // Standard input stays open; a file is closed on every return.
  auto close = [standardInput](std::FILE *file) {
    if (!standardInput)
      std::fclose(file);
  };
  std::unique_ptr<std::FILE, decltype(close)> file(
      standardInput ? stdin : std::fopen(path.c_str(), "rb"), close);
  if (!file)
    return Status::notFound("cannot open {}: {}", path, std::strerror(errno));
  std::string text;
  char chunk[1 << 16];
  while (size_t read = std::fread(chunk, 1, sizeof(chunk), file.get())) {
    if (text.size() + read > maxBytes)
      return Status::error(StatusCode::ResourceExhausted,
                           "{} is larger than {} bytes; raise the limit with "
                           "--max-input-bytes if it is really an input",
                           standardInput ? "standard input" : path, maxBytes);
    text.append(chunk, read);
  }
  if (std::ferror(file.get()))
    return Status::dataLoss("cannot read {}: {}", path, std::strerror(errno));
  return text;
}

Status openks::checkNestingDepth(std::string_view text, int maxDepth) {
  int depth = 0;
  int64_t line = 1;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    switch (c) {
    case '\n':
      ++line;
      break;
    case '"':
      // A string literal, with backslash escapes, ends at the next quote.
      for (++i; i < text.size() && text[i] != '"'; ++i) {
        if (text[i] == '\\')
          ++i;
        else if (text[i] == '\n')
          ++line;
      }
      break;
    case '/':
      if (i + 1 < text.size() && text[i + 1] == '/')
        while (i + 1 < text.size() && text[i + 1] != '\n')
          ++i;
      break;
    case '(':
    case '[':
    case '{':
    case '<':
      if (++depth > maxDepth)
        return Status::error(StatusCode::ResourceExhausted,
                             "line {}: brackets nest deeper than {} levels, "
                             "more than the parser can take",
                             line, maxDepth);
      break;
    case '>':
      if (i > 0 && text[i - 1] == '-')
        break;
      [[fallthrough]];
    case ')':
    case ']':
    case '}':
      depth = depth > 0 ? depth - 1 : 0;
      break;
    default:
      break;
    }
  }
  return Status::ok();
}
