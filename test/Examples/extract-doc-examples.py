#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Collects the complete IR examples of the Markdown docs into one file.

A fenced ```mlir block counts as complete when its first line that is not a
comment opens a program (`train.program`, `ps.worker`, `ps.server` or
`module`); fragments are skipped. The examples are written separated by
`// -----` so that `openks-opt -split-input-file` checks each on its own.

Usage: extract-doc-examples.py OUTPUT DOC...
"""

import re
import sys

PROGRAM_START = re.compile(r"^\s*(train\.program|ps\.worker|ps\.server|module)\b")
FENCE = re.compile(r"^```mlir\s*\n(.*?)^```", re.S | re.M)


def complete_examples(text):
    for block in FENCE.findall(text):
        lines = [l for l in block.splitlines() if l.strip() and not l.strip().startswith("//")]
        if lines and PROGRAM_START.match(lines[0]):
            yield block


def main():
    output, docs = sys.argv[1], sys.argv[2:]
    examples = []
    for doc in docs:
        with open(doc) as f:
            for example in complete_examples(f.read()):
                examples.append(f"// From {doc}\n{example}")
    if not examples:
        sys.exit("no complete examples found in " + " ".join(docs))
    with open(output, "w") as f:
        f.write("\n// -----\n".join(examples))
    print(f"{len(examples)} examples")


if __name__ == "__main__":
    main()
