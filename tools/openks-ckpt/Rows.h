//===- Rows.h - Rows of a checkpoint variable as text -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `show` and text export print a variable by rows: its slices along the
// first dim (a scalar is one row of one value), each row's values
// row-major, separated by tabs, with the digits that read back the same
// value (%.9g for f32, %.17g for f64).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_CKPT_ROWS_H
#define OPENKS_TOOLS_OPENKS_CKPT_ROWS_H

#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace openks::ckpt {

/// The rows [begin, end) of a variable.
struct RowRange {
  int64_t begin = 0;
  int64_t end = 0;
};

/// Returns the number of rows of a variable of `shape`: its first dim, or 1
/// for a scalar.
int64_t countRows(const runtime::Shape &shape);

/// Parses `text`, "A:B", "A:" (to the last row) or ":B" (from row 0), as
/// rows of a variable of `rows` rows; fails unless 0 <= A <= B <= rows.
StatusOr<RowRange> parseRowRange(std::string_view text, int64_t rows);

/// Appends the values of row `row` of `value` to `line`, separated by tabs.
void appendRow(const runtime::Tensor &value, int64_t row, std::string &line);

} // namespace openks::ckpt

#endif // OPENKS_TOOLS_OPENKS_CKPT_ROWS_H
