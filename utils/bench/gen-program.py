#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes a forward-only train program of about OPS ops and PARAMS parameters.

The program is a chain of PARAMS layers: each reads its own 8x8 parameter,
multiplies the running activation by it and applies activations until the
op budget is spent; the loss is the mean of the last activation. It is the
input of utils/bench-transpile.sh.

Usage: gen-program.py OPS PARAMS OUTPUT
"""

import sys


def main():
    ops, params, output = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    per_layer = max(ops // params, 3)
    activations = ["relu", "tanh", "sigmoid"]
    t = "tensor<?x8xf32>"
    with open(output, "w") as f:
        f.write("train.program @bench {\n")
        for i in range(params):
            f.write(f"  train.param @p{i} : tensor<8x8xf32> "
                    f"init #train.xavier<seed = {i}>\n")
        f.write(f"  train.step @step(%x: {t}) -> tensor<f32> {{\n")
        value = "%x"
        n = 0
        for i in range(params):
            f.write(f"    %w{i} = train.read @p{i} : tensor<8x8xf32>\n")
            f.write(f"    %m{i} = train.matmul {value}, %w{i} : "
                    f"({t}, tensor<8x8xf32>) -> {t}\n")
            value = f"%m{i}"
            for k in range(per_layer - 2):
                name = f"%a{i}_{k}"
                op = activations[(i + k) % len(activations)]
                f.write(f"    {name} = train.{op} {value} : {t}\n")
                value = name
            n += per_layer
        f.write(f"    %loss = train.mean {value} : ({t}) -> tensor<f32>\n")
        f.write("    train.yield %loss : tensor<f32>\n  }\n}\n")


if __name__ == "__main__":
    main()
