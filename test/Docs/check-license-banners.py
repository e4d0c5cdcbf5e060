#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that every source file of the tree names its licence.

A source file is C++, TableGen, protobuf, CMake, Python, shell or awk under
the folders the project's code lives in (test inputs such as .mlir and .test
files are not sources). Each must carry the line
"SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception" in its first 12
lines. Prints the files that do not and fails if there is any.

Usage: check-license-banners.py SOURCE_ROOT
"""

import os
import sys

SPDX = "SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception"
FOLDERS = ["dialects", "include", "lib", "tools", "utils", "test", "docs", ".ci"]
SUFFIXES = (".cpp", ".h", ".td", ".proto", ".cmake", ".py", ".sh", ".awk",
            ".in", ".cfg")
NAMES = ("CMakeLists.txt", "run")


def is_source(name):
    return name.endswith(SUFFIXES) or name in NAMES


def sources(root):
    yield os.path.join(root, "CMakeLists.txt")
    for folder in FOLDERS:
        for directory, subdirectories, files in os.walk(os.path.join(root, folder)):
            subdirectories[:] = sorted(d for d in subdirectories if d != "Output")
            for name in sorted(files):
                if is_source(name):
                    yield os.path.join(directory, name)


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    missing, count = [], 0
    for path in sources(root):
        count += 1
        with open(path, encoding="utf-8", errors="replace") as f:
            head = [next(f, "") for _ in range(12)]
        if not any(SPDX in line for line in head):
            missing.append(os.path.relpath(path, root))
    for path in missing:
        print(f"{path}: no '{SPDX}' line in its banner")
    if missing:
        sys.exit(1)
    print(f"{count} source files name their licence")


if __name__ == "__main__":
    main()
