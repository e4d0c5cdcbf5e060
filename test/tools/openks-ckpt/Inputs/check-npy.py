#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks a .npy file openks-ckpt wrote: the version 1.0 header (magic,
length, a dict padded with spaces to end, with '\\n', at a multiple of 64
bytes), the data size its shape implies, and, given the text export of
the same variable, that every value equals the text's. With numpy, also
that numpy.load reads it and numpy.save writes the same bytes.

Usage: check-npy.py FILE.npy [TEXT]
Prints "descr DESCR shape SHAPE values N data-offset OFFSET".
"""

import ast
import io
import struct
import sys

SIZES = {"<f4": ("<f", 4), "<f8": ("<d", 8), "<i8": ("<q", 8)}


def fail(message):
    sys.exit("check-npy.py: " + message)


def main():
    data = open(sys.argv[1], "rb").read()
    if data[:8] != b"\x93NUMPY\x01\x00":
        fail("not a version 1.0 .npy file: %r" % data[:8])
    (length,) = struct.unpack("<H", data[8:10])
    offset = 10 + length
    header = data[10:offset].decode("latin1")
    if offset % 64 or not header.endswith("\n"):
        fail("the header ends at byte %d, not at a multiple of 64 with a "
             "line break" % offset)
    fields = ast.literal_eval(header)
    descr, shape = fields["descr"], fields["shape"]
    if fields["fortran_order"] is not False or descr not in SIZES:
        fail("unexpected header %r" % header)
    count = 1
    for dim in shape:
        count *= dim
    form, size = SIZES[descr]
    if len(data) != offset + count * size:
        fail("%d bytes of data, the shape needs %d" %
             (len(data) - offset, count * size))
    values = [v for (v,) in struct.iter_unpack(form, data[offset:])]
    if len(sys.argv) > 2:
        text = open(sys.argv[2]).read().split()
        parse = int if descr == "<i8" else float
        read = [parse(word) for word in text]
        if form == "<f":
            read = [struct.unpack("<f", struct.pack("<f", v))[0] for v in read]
        if read != values:
            fail("the values differ from the text's")
    try:
        import numpy
    except ImportError:
        numpy = None
    if numpy is not None:
        array = numpy.load(sys.argv[1])
        if array.dtype.str != descr or array.shape != tuple(shape):
            fail("numpy reads %s %s" % (array.dtype.str, array.shape))
        saved = io.BytesIO()
        numpy.save(saved, array)
        if saved.getvalue() != data:
            fail("numpy.save writes other bytes")
    print("descr %s shape %s values %d data-offset %d" %
          (descr, tuple(shape), count, offset))


if __name__ == "__main__":
    main()
