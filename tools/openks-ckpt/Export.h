//===- Export.h - A checkpoint variable as .npy or text ---------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `export` writes a variable as NumPy's .npy (format version 1.0, the bytes
// numpy.save writes: the header dict with 'descr' '<f4', '<f8' or '<i8',
// 'fortran_order' False and the shape, padded with spaces and a line break
// so that the data starts at a multiple of 64 bytes; then the elements,
// little-endian, in C order) or as text, a line per row (Rows.h), each
// prefixed with its name and a tab when names are given.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_CKPT_EXPORT_H
#define OPENKS_TOOLS_OPENKS_CKPT_EXPORT_H

#include "openks/Runtime/Tensor.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace openks::ckpt {

/// Returns the .npy magic, version and header of a `dtype` array of
/// `shape`: everything before the elements.
std::string makeNpyHeader(runtime::DType dtype, const runtime::Shape &shape);

/// Writes `value` to `os` as a .npy file.
void writeNpy(const runtime::Tensor &value, llvm::raw_ostream &os);

/// Writes `value` to `os` as text, a line per row; when `names` is not
/// empty, it holds one name per row, which starts its line.
void writeText(const runtime::Tensor &value,
               const std::vector<std::string> &names, llvm::raw_ostream &os);

} // namespace openks::ckpt

#endif // OPENKS_TOOLS_OPENKS_CKPT_EXPORT_H
