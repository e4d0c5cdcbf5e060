# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes noisy linearly separable csv data of 4 features. Usage:
make-csv.py classes|binary ROWS SEED FILE: a class id in [0, 3) by the
largest of three teacher scores, or a 0/1 label by the sign of one, each
with some rows' labels flipped so that no model is always right."""

import random
import sys

kind, rows, seed, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), \
    sys.argv[4]
rng = random.Random(seed)
teacher = [[1.0, -2.0, 0.5, 0.0], [-1.0, 0.5, 1.5, 1.0], [0.5, 1.0, -1.0, -1.5]]
with open(path, "w") as out:
    for _ in range(rows):
        x = [rng.uniform(-1, 1) for _ in range(4)]
        scores = [sum(a * b for a, b in zip(row, x)) for row in teacher]
        if kind == "classes":
            label = max(range(3), key=lambda c: scores[c])
            if rng.random() < 0.1:
                label = rng.randrange(3)
        else:
            label = int(scores[0] > 0) ^ (rng.random() < 0.1)
        out.write(",".join(f"{v:.6f}" for v in x) + f",{label}\n")
