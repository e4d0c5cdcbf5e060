//===- Crc32c.h - CRC-32C (Castagnoli) checksums ----------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The CRC-32C of iSCSI (RFC 3720), ext4 and gRPC: polynomial 0x1EDC6F41,
// reflected, initial value and final xor 0xFFFFFFFF. Checkpoints record it
// per file. Computed in software, a table per byte.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_CRC32C_H
#define OPENKS_SUPPORT_CRC32C_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace openks {

/// Returns the CRC-32C of `size` bytes at `data` appended to data whose
/// CRC-32C is `crc` (0 for none): crc32c(b, n, crc32c(a, m)) is the
/// checksum of a followed by b.
uint32_t crc32c(const void *data, size_t size, uint32_t crc = 0);

/// Returns the CRC-32C of `bytes`.
inline uint32_t crc32c(std::string_view bytes) {
  return crc32c(bytes.data(), bytes.size());
}

} // namespace openks

#endif // OPENKS_SUPPORT_CRC32C_H
