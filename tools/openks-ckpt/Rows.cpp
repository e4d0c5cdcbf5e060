//===- Rows.cpp - Rows of a checkpoint variable as text -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Rows.h"

#include <charconv>
#include <cinttypes>
#include <cstdio>
#include <optional>

using namespace openks;
using namespace openks::ckpt;
using namespace openks::runtime;

int64_t openks::ckpt::countRows(const Shape &shape) {
  return shape.rank() ? shape[0] : 1;
}

/// Parses all of `text` as a row number; empty text is `fallback`.
static std::optional<int64_t> parseRow(std::string_view text,
                                       int64_t fallback) {
  if (text.empty())
    return fallback;
  int64_t value = 0;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value < 0)
    return std::nullopt;
  return value;
}

StatusOr<RowRange> openks::ckpt::parseRowRange(std::string_view text,
                                               int64_t rows) {
  size_t colon = text.find(':');
  std::optional<int64_t> begin, end;
  if (colon != std::string_view::npos) {
    begin = parseRow(text.substr(0, colon), 0);
    end = parseRow(text.substr(colon + 1), rows);
  }
  if (!begin || !end)
    return Status::invalidArgument(
        "--rows '{}': expected A:B, A: or :B, with A and B row numbers "
        "(decimal, from 0)",
        text);
  if (*begin > *end || *end > rows)
    return Status::outOfRange(
        "--rows '{}': expected 0 <= A <= B <= {}, the variable's rows", text,
        rows);
  return RowRange{*begin, *end};
}

/// Appends `format`ted `value` to `line`.
template <typename T>
static void appendValue(const char *format, T value, std::string &line) {
  char buffer[32];
  int size = std::snprintf(buffer, sizeof(buffer), format, value);
  line.append(buffer, static_cast<size_t>(size));
}

void openks::ckpt::appendRow(const Tensor &value, int64_t row,
                             std::string &line) {
  int64_t width = value.shape().rowWidth();
  for (int64_t i = row * width, end = i + width; i < end; ++i) {
    if (i != row * width)
      line += '\t';
    switch (value.dtype()) {
    case DType::F32:
      appendValue("%.9g", static_cast<double>(value.data<float>()[i]), line);
      break;
    case DType::F64:
      appendValue("%.17g", value.data<double>()[i], line);
      break;
    case DType::I64:
      appendValue("%" PRId64, value.data<int64_t>()[i], line);
      break;
    }
  }
}
