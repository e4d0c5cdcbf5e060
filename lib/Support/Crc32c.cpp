//===- Crc32c.cpp - CRC-32C (Castagnoli) checksums ------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Crc32c.h"

#include <array>

using namespace openks;

/// The reflected Castagnoli polynomial.
static constexpr uint32_t kPolynomial = 0x82F63B78u;

/// Returns the CRC of every byte value, shifted through the polynomial.
static constexpr std::array<uint32_t, 256> makeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc >> 1) ^ ((crc & 1) ? kPolynomial : 0);
    table[byte] = crc;
  }
  return table;
}

static constexpr std::array<uint32_t, 256> kTable = makeTable();

uint32_t openks::crc32c(const void *data, size_t size, uint32_t crc) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  crc = ~crc;
  for (size_t i = 0; i < size; ++i)
    crc = (crc >> 8) ^ kTable[(crc ^ bytes[i]) & 0xFF];
  return ~crc;
}
