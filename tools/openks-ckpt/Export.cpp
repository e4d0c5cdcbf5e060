//===- Export.cpp - A checkpoint variable as .npy or text -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Export.h"

#include "Rows.h"

#include "llvm/Support/Endian.h"

#include <fmt/format.h>
#include <string>

using namespace openks;
using namespace openks::ckpt;
using namespace openks::runtime;

// The elements are written as the runtime holds them.
static_assert(llvm::endianness::native == llvm::endianness::little,
              ".npy files are written little-endian");

/// The .npy magic string and format version 1.0.
static constexpr char kNpyMagic[] = "\x93NUMPY\x01\x00";
static constexpr size_t kNpyMagicSize = sizeof(kNpyMagic) - 1;
/// numpy aligns the data to this many bytes (numpy.lib.format.ARRAY_ALIGN).
static constexpr size_t kNpyAlign = 64;
/// numpy (since 1.23) leaves room in the header for the first dim to grow
/// to this many digits (numpy.lib.format.GROWTH_AXIS_MAX_DIGITS).
static constexpr size_t kNpyGrowthDigits = 21;

/// Returns numpy's type string of `dtype`.
static const char *getNpyDescr(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return "<f4";
  case DType::F64:
    return "<f8";
  case DType::I64:
    return "<i8";
  }
  return "?";
}

std::string openks::ckpt::makeNpyHeader(DType dtype, const Shape &shape) {
  // As Python writes the tuple: "()", "(3,)", "(3, 4)".
  std::string dims =
      fmt::format("{}", fmt::join(shape.begin(), shape.end(), ", "));
  if (shape.rank() == 1)
    dims += ',';
  std::string dict =
      fmt::format("{{'descr': '{}', 'fortran_order': False, 'shape': ({}), }}",
                  getNpyDescr(dtype), dims);
  // The room numpy.save leaves, so that the bytes are numpy's.
  if (shape.rank() > 0)
    dict.append(kNpyGrowthDigits - std::to_string(shape[0]).size(), ' ');
  // numpy pads with at least one space, then ends the header with '\n'.
  size_t unpadded = kNpyMagicSize + 2 + dict.size() + 1;
  dict.append(kNpyAlign - unpadded % kNpyAlign, ' ');
  dict += '\n';
  uint16_t size = static_cast<uint16_t>(dict.size());
  std::string header(kNpyMagic, kNpyMagicSize);
  header += static_cast<char>(size & 0xff);
  header += static_cast<char>(size >> 8);
  return header + dict;
}

void openks::ckpt::writeNpy(const Tensor &value, llvm::raw_ostream &os) {
  os << makeNpyHeader(value.dtype(), value.shape());
  os.write(static_cast<const char *>(value.rawData()),
           static_cast<size_t>(value.numel()) * dtypeSize(value.dtype()));
}

void openks::ckpt::writeText(const Tensor &value,
                             const std::vector<std::string> &names,
                             llvm::raw_ostream &os) {
  std::string line;
  for (int64_t row = 0, rows = countRows(value.shape()); row < rows; ++row) {
    line.clear();
    if (!names.empty())
      line.append(names[static_cast<size_t>(row)]).append("\t");
    appendRow(value, row, line);
    line += '\n';
    os << line;
  }
}
