#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""The independent reference of upstream-ops.test, in plain Python.

`upstream-linreg.py data FILE` writes 64 rows "x1,x2,x3,y,0" (a noisy
linear target and an unused class column).

`upstream-linreg.py check DATA STEPS BATCH LR PARAMS` trains the model of
upstream-ops.test on DATA in double precision: features
x' = max(m, l) / s - min(m, l) with m = tanh(x) exp(-|x|), s = sqrt(|x| + 1)
and l = log(s), loss mean((x' w - y)^2), SGD from w = 0 with the given
learning rate, batches of BATCH consecutive rows. It compares the result
with the line "w<TAB>3x1<TAB>..." of PARAMS (openks-run --params-out),
prints the largest difference and fails past 1e-4 relative.
"""

import math
import random
import sys


def features(x):
    result = []
    for v in x:
        m = math.tanh(v) * math.exp(-abs(v))
        s = math.sqrt(abs(v) + 1)
        l = math.log(s)
        result.append(max(m, l) / s - min(m, l))
    return result


def write_data(path):
    rng = random.Random(7)
    with open(path, "w") as f:
        for _ in range(64):
            x = [rng.uniform(-2, 2) for _ in range(3)]
            y = 0.5 * x[0] - x[1] + 0.25 * x[2] + rng.uniform(-0.1, 0.1)
            f.write(",".join(f"{v:.6f}" for v in x + [y]) + ",0\n")


def check(data, steps, batch, lr, params):
    rows = [list(map(float, line.split(",")[:4])) for line in open(data)]
    w = [0.0, 0.0, 0.0]
    for step in range(steps):
        grad = [0.0, 0.0, 0.0]
        for row in rows[step * batch:(step + 1) * batch]:
            f = features(row[:3])
            d = sum(fi * wi for fi, wi in zip(f, w)) - row[3]
            for i in range(3):
                grad[i] += 2 * d * f[i] / batch
        w = [wi - lr * gi for wi, gi in zip(w, grad)]
    line = next(l for l in open(params) if l.startswith("w\t"))
    name, shape, values = line.rstrip("\n").split("\t")
    got = list(map(float, values.split()))
    if shape != "3x1" or len(got) != 3:
        sys.exit(f"unexpected parameter line: {line!r}")
    worst = max(abs(g - e) / max(1.0, abs(e)) for g, e in zip(got, w))
    print(f"max relative difference {worst:.2e}")
    if worst > 1e-4:
        sys.exit(f"trained {got}, the reference {w}")


def main():
    if sys.argv[1:2] == ["data"] and len(sys.argv) == 3:
        write_data(sys.argv[2])
    elif sys.argv[1:2] == ["check"] and len(sys.argv) == 7:
        check(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]),
              float(sys.argv[5]), sys.argv[6])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
