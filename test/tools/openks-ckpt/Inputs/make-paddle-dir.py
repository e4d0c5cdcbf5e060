#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes a directory as Paddle's save_persistables does: one tensor file per
variable (a LoDTensor: uint32 version 0, uint64 LoD level count and levels,
uint32 tensor version 0, int32 desc size, a VarType.TensorDesc protobuf,
the raw elements) and a __model__ file that is not a tensor.

Usage: make-paddle-dir.py DIR
"""

import os
import struct
import sys

# VarType.Type codes of the element types.
FP32, FP64, INT64 = 5, 6, 3
FORMATS = {FP32: "<f", FP64: "<d", INT64: "<q"}


def varint(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def tensor_desc(data_type, dims):
    # Field 1 data_type (varint), field 2 dims (one varint field per dim).
    desc = b"\x08" + varint(data_type)
    for dim in dims:
        desc += b"\x10" + varint(dim)
    return desc


def tensor_file(data_type, dims, values, lod=()):
    out = struct.pack("<I", 0) + struct.pack("<Q", len(lod))
    for level in lod:
        out += struct.pack("<Q", 8 * len(level))
        out += b"".join(struct.pack("<Q", offset) for offset in level)
    desc = tensor_desc(data_type, dims)
    out += struct.pack("<I", 0) + struct.pack("<i", len(desc)) + desc
    return out + b"".join(struct.pack(FORMATS[data_type], v) for v in values)


def main():
    root = sys.argv[1]
    os.makedirs(root, exist_ok=True)
    files = {
        # An embedding of 4 entities, 3 wide, with a LoD level.
        "emb": tensor_file(FP32, [4, 3], [0.5 * i - 1 for i in range(12)],
                           lod=[[0, 1, 4]]),
        "bias": tensor_file(FP64, [3], [0.1, -2.5, 1e-300]),
        "step": tensor_file(INT64, [1], [42]),
    }
    for name, data in files.items():
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with open(os.path.join(root, "__model__"), "wb") as f:
        f.write(b"a ProgramDesc, not a tensor")


if __name__ == "__main__":
    main()
