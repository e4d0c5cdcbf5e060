# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Checks the per-step bytes of a trainer of the 2 x 2 ctr_large job (the
# mean over the two trainers): the 128 x 1 weight and the bias (516 bytes)
# each way, and rows of 8 id bytes and 16 f32 values of the table, at most
# the 256 x 8 ids a trainer's half of the batch looks up.
import csv, sys

dense_bytes, row_bytes, trainers = 129 * 4, 8 + 16 * 4, 2
steps = list(csv.DictReader(open(sys.argv[1])))
assert len(steps) == 6, len(steps)
for step in steps:
    pushed, pulled = float(step["bytes_pushed"]), float(step["bytes_pulled"])
    rows, rest = divmod(int(pushed * trainers) - trainers * dense_bytes,
                        row_bytes)
    assert pushed == pulled and rest == 0, (step, rows, rest)
    # Uniform ids over 10^7 rows: nearly every one of the 2048 is distinct.
    assert 2000 * trainers <= rows <= 2048 * trainers, (step, rows)
