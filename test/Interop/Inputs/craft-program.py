#!/usr/bin/env python3
# ===- craft-program.py - ProgramDesc bytes protoc cannot write ----------=== #
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# ===---------------------------------------------------------------------=== #
#
# Usage: craft-program.py MODE [COUNT] > program.pb
#
# Writes one serialized ProgramDesc to standard output, with a protobuf
# encoder of its own (standard library only):
#
#   unpacked       a small program whose repeated scalars (dims, INTS,
#                  LONGS, FLOATS, BOOLEANS, FLOAT64S, BLOCKS, tuple element
#                  types) are written one field each, as Paddle writes them
#   packed         the same program with every repeated scalar packed
#   unknown        `unpacked` with fields the schema does not declare at
#                  every level: varint, fixed32, fixed64, length-delimited
#                  and group fields
#   type-first     `unpacked` with each op's type before its slots
#
# and damaged programs, each wrong in one way that names the place:
#
#   overlong-varint, invalid-wire-type, wrong-wire-type, unknown-enum,
#   field-zero, unmatched-end-group, deep-groups, bad-packed-floats,
#   missing-parent-idx, missing-op-type
#
# and programs as large as COUNT says, for the import limits, written in
# pieces (a program of 300 MB takes no more memory than its largest piece):
#
#   many-ops       COUNT ops (5 bytes each) in block 0
#   long-list      one op with an INTS attribute of COUNT values (1 byte
#                  each, packed)
#   long-string    one op with a STRING attribute of COUNT bytes
#   many-attrs     one op of a type 10 MB long with COUNT INT attributes
#
# ===---------------------------------------------------------------------=== #

import struct
import sys

VARINT, FIXED64, DELIMITED, START_GROUP, END_GROUP, FIXED32 = range(6)


def varint(value):
    value &= (1 << 64) - 1
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def tag(field, wire_type):
    return varint(field << 3 | wire_type)


def vint(field, value):
    return tag(field, VARINT) + varint(value)


def delimited(field, payload):
    return tag(field, DELIMITED) + varint(len(payload)) + payload


def text(field, value):
    return delimited(field, value.encode())


def repeated(field, values, encode, packed):
    """Repeated scalars, packed or one field each."""
    if packed:
        return delimited(field, b"".join(encode(v) for v in values))
    wire_type = {varint: VARINT, f32: FIXED32, f64: FIXED64}[encode]
    return b"".join(tag(field, wire_type) + encode(v) for v in values)


def f32(value):
    return struct.pack("<f", value)


def f64(value):
    return struct.pack("<d", value)


# VarType.Type and AttrType values.
FP32, INT64, LOD_TENSOR, TUPLE = 5, 3, 7, 18
INTS, FLOATS, STRING, BOOLEANS, BLOCKS, LONGS, FLOAT64S, INT = 3, 4, 2, 7, 10, 11, 12, 0


def tensor_var(name, dims, packed, persistable=None, extra=b""):
    tensor = vint(1, FP32) + repeated(2, dims, varint, packed)
    lod = delimited(1, tensor) + vint(2, 0)
    var_type = vint(1, LOD_TENSOR) + delimited(3, lod) + extra
    var = text(1, name) + delimited(2, var_type)
    if persistable is not None:
        var += vint(3, persistable)
    return var


def attr(name, attr_type, value):
    return text(1, name) + vint(2, attr_type) + value


def program(packed=False, unknown=False, type_first=False):
    u = unknown
    tuple_type = vint(1, TUPLE) + delimited(
        7, repeated(1, [FP32, INT64], varint, packed))
    variables = [
        tensor_var("x", [-1, 4], packed,
                   extra=tag(13, FIXED32) + f32(1.0) if u else b""),
        tensor_var("w", [4, 2], packed, persistable=1),
        text(1, "pair") + delimited(2, tuple_type)
        + (tag(8, START_GROUP) + vint(1, 7) + tag(8, END_GROUP) if u else b""),
    ]
    attrs = [
        attr("ints", INTS, repeated(6, [1, -2, 3], varint, packed)),
        attr("longs", LONGS, repeated(15, [784, -1], varint, packed)),
        attr("floats", FLOATS, repeated(7, [1.5, 0.25], f32, packed)),
        attr("bools", BOOLEANS, repeated(11, [1, 0], varint, packed)),
        attr("float64s", FLOAT64S, repeated(16, [0.1, -2.0], f64, packed)),
        attr("blocks", BLOCKS, repeated(14, [1, 1], varint, packed)),
        attr("name", STRING, text(5, "fc") + (vint(30, 1) if u else b"")),
        attr("op_role", INT, vint(3, 0)),
    ]
    slots = (delimited(1, text(1, "X") + text(2, "x"))
             + delimited(1, text(1, "Y") + text(2, "w"))
             + delimited(2, text(1, "Out") + text(2, "y")))
    body = b"".join(delimited(4, a) for a in attrs)
    op = (text(3, "mul") + slots if type_first else slots + text(3, "mul")) + body
    if u:
        op += delimited(6, b"\x08\x01\x12\x00")
    block = (vint(1, 0) + vint(2, -1)
             + b"".join(delimited(3, v) for v in variables)
             + delimited(4, op))
    if u:
        block += delimited(6, b"skipped")
    sub_block = vint(1, 1) + vint(2, 0)
    result = (delimited(1, block) + delimited(1, sub_block)
              + delimited(4, vint(1, 2003002)))
    if u:
        result += vint(9, 12345) + tag(10, FIXED64) + f64(3.0)
    return result


def damaged(mode):
    block = vint(1, 0) + vint(2, -1)
    if mode == "overlong-varint":
        return delimited(1, block) + tag(9, VARINT) + b"\xff" * 10 + b"\x01"
    if mode == "invalid-wire-type":
        return delimited(1, block) + tag(3, 7)
    if mode == "wrong-wire-type":
        # VarDesc.name as a varint.
        return delimited(1, block + delimited(3, vint(1, 5)))
    if mode == "unknown-enum":
        var = text(1, "x") + delimited(2, vint(1, 99))
        return delimited(1, block + delimited(3, var))
    if mode == "field-zero":
        return delimited(1, block) + tag(0, VARINT) + varint(1)
    if mode == "unmatched-end-group":
        return delimited(1, block) + tag(7, END_GROUP)
    if mode == "deep-groups":
        return (delimited(1, block) + tag(7, START_GROUP) * 40
                + tag(7, END_GROUP) * 40)
    if mode == "bad-packed-floats":
        floats = attr("floats", FLOATS, delimited(7, b"\x00" * 6))
        op = text(3, "scale") + delimited(4, floats)
        return delimited(1, block + delimited(4, op))
    if mode == "missing-parent-idx":
        return delimited(1, vint(1, 0))
    if mode == "missing-op-type":
        return delimited(1, block + delimited(4, delimited(1, text(1, "X"))))
    raise SystemExit("craft-program.py: unknown mode " + mode)


def large(mode, count):
    """The pieces of a program of `count` ops, values or string bytes."""
    if mode == "many-ops":
        pieces = [delimited(4, text(3, "a")) * count]
    elif mode == "many-attrs":
        attrs = b"".join(delimited(4, attr("a%x" % i, INT, b""))
                         for i in range(count))
        pieces = [delimited(4, text(3, "t" * 10**7) + attrs)]
    elif mode in ("long-list", "long-string"):
        # One op whose attribute ends in `count` copies of one byte.
        attr_type, field, byte = {"long-list": (INTS, 6, b"\x01"),
                                  "long-string": (STRING, 5, b"s")}[mode]
        head = attr("a", attr_type, tag(field, DELIMITED) + varint(count))
        op = text(3, "a") + tag(4, DELIMITED) + varint(len(head) + count) + head
        chunk = byte * (1 << 24)
        pieces = [tag(4, DELIMITED) + varint(len(op) + count) + op]
        pieces += [chunk] * (count // len(chunk))
        pieces.append(byte * (count % len(chunk)))
    else:
        raise SystemExit("craft-program.py: unknown mode " + mode)
    block = vint(1, 0) + vint(2, -1)
    size = len(block) + sum(len(piece) for piece in pieces)
    return [tag(1, DELIMITED) + varint(size) + block] + pieces


def main():
    if len(sys.argv) == 3:
        for piece in large(sys.argv[1], int(sys.argv[2])):
            sys.stdout.buffer.write(piece)
        return
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    mode = sys.argv[1]
    modes = {
        "unpacked": lambda: program(),
        "packed": lambda: program(packed=True),
        "unknown": lambda: program(unknown=True),
        "type-first": lambda: program(type_first=True),
    }
    data = modes[mode]() if mode in modes else damaged(mode)
    sys.stdout.buffer.write(data)


if __name__ == "__main__":
    main()
