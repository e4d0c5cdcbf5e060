#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks that a guide's table of CMake targets names the installed ones.

The table is every Markdown table row whose first cell is a target in
backticks (| `OpenKS::Name` | ...). The installed targets are those
OpenKSTargets.cmake creates (add_library(OpenKS::Name ...)). Prints each
target the guide misses or names without it being installed, and fails if
there is any.

Usage: check-target-table.py GUIDE OpenKSTargets.cmake
"""

import re
import sys

TABLE_ROW = re.compile(r"^\|\s*`(OpenKS::\w+)`\s*\|", re.M)
IMPORTED = re.compile(r"^add_library\((OpenKS::\w+) ", re.M)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    with open(sys.argv[1], encoding="utf-8") as f:
        documented = set(TABLE_ROW.findall(f.read()))
    with open(sys.argv[2], encoding="utf-8") as f:
        installed = set(IMPORTED.findall(f.read()))
    if not installed:
        sys.exit(f"{sys.argv[2]}: no OpenKS:: targets found")
    for target in sorted(installed - documented):
        print(f"{target}: installed, missing from {sys.argv[1]}'s table")
    for target in sorted(documented - installed):
        print(f"{target}: in {sys.argv[1]}'s table, not installed")
    if installed != documented:
        sys.exit(1)
    print(f"{len(installed)} targets")


if __name__ == "__main__":
    main()
