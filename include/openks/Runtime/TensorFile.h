//===- TensorFile.h - Paddle's tensor file format ---------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One tensor per file, as Paddle's `save` and `load` ops (and so
// save_persistables and load_persistables) write and read it; all integers
// little-endian:
//
//   uint32 version (0)
//   uint64 lod_levels, then per level: uint64 byte size, that many bytes of
//          uint64 offsets
//   uint32 tensor version (0)
//   int32  desc size, then that many bytes of a VarType.TensorDesc protobuf:
//          field 1 data_type (varint), field 2 dims (repeated int64 varints)
//   the elements, row-major, numel x element size bytes
//
// The TensorDesc goes through protoc's class for it (lib/Runtime/
// TensorDesc.proto); the framing around it is read and written by hand, as
// it is not protobuf (TensorFile.cpp says what a desc may hold). Written
// descs put each dim in its own field as proto2 C++ does; read descs may
// also pack them, and unknown fields are skipped as protobuf parsers do.
// Element types: FP32 (5), FP64 (6) and INT64 (3).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_TENSORFILE_H
#define OPENKS_RUNTIME_TENSORFILE_H

#include "openks/Runtime/Tensor.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace openks::runtime {

/// A tensor's level-of-detail offsets: one vector of offsets per level.
using LoD = std::vector<std::vector<uint64_t>>;

/// What a tensor file holds.
struct TensorFileContents {
  Tensor tensor;
  LoD lod;
};

/// Returns Paddle's VarType.Type code of `dtype`.
int paddleTypeCode(DType dtype);

/// Returns the bytes of a tensor file holding `tensor` with `lod`.
std::string encodeTensorFile(const Tensor &tensor, const LoD &lod = {});

/// Parses the bytes of a tensor file; `file` names it in errors. Fails with
/// DataLoss on a wrong version, a truncated or overlong file, a malformed
/// desc, an element type other than FP32, FP64 and INT64, or a shape the
/// runtime cannot hold.
StatusOr<TensorFileContents> decodeTensorFile(std::string_view bytes,
                                              const std::string &file);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_TENSORFILE_H
