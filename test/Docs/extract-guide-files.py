#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes the files a Markdown guide shows into a folder.

A file is a fenced block whose preceding paragraph is just its relative path
in backticks and a colon:

    `my-compiler/CMakeLists.txt`:

    ```cmake
    ...
    ```

Prints the paths written, one a line, and fails when the guide shows none or
names a path outside the folder.

Usage: extract-guide-files.py GUIDE FOLDER
"""

import os
import re
import sys

FILE_BLOCK = re.compile(r"^`([^`\n]+)`:\n\n```[\w+-]*\n(.*?)^```", re.S | re.M)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    guide, folder = sys.argv[1], sys.argv[2]
    with open(guide, encoding="utf-8") as f:
        files = FILE_BLOCK.findall(f.read())
    if not files:
        sys.exit(f"{guide}: shows no files")
    for path, text in files:
        if os.path.isabs(path) or ".." in path.split("/"):
            sys.exit(f"{guide}: file path '{path}' leaves the folder")
        target = os.path.join(folder, path)
        os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            f.write(text)
        print(path)


if __name__ == "__main__":
    main()
