#!/usr/bin/env python3
# ===- peer-torch.py - PyTorch's speed on the benchmarks' shapes ----------=== #
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# The peer of utils/bench-peers.sh, run with Debian's python3-torch:
#   peer-torch.py gemm M,K,N ...     torch.mm GFLOP/s per shape (1 thread)
#   peer-torch.py mlp THREADS STEPS  samples/s of the MLP example
#                                    (784 -> 256 -> 10, batch 64, SGD 0.1)
# Each figure is the best of 5 repetitions. The MLP's data is generated
# before timing and stays in memory.
#
# ===----------------------------------------------------------------------=== #
import sys
import time

import torch


def best_seconds(fn, repetitions=5, min_seconds=0.2):
    """Returns the best time of one call of fn over `repetitions` runs."""
    fn()
    best = float("inf")
    for _ in range(repetitions):
        calls, start = 0, time.perf_counter()
        while True:
            fn()
            calls += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_seconds:
                break
        best = min(best, elapsed / calls)
    return best


def gemm(shapes):
    torch.set_num_threads(1)
    for shape in shapes:
        m, k, n = (int(x) for x in shape.split(","))
        a, b = torch.rand(m, k), torch.rand(k, n)
        out = torch.empty(m, n)
        seconds = best_seconds(lambda: torch.mm(a, b, out=out))
        print(f"{m},{k},{n} {2.0 * m * k * n / seconds / 1e9:.2f}")


def mlp(threads, steps):
    torch.set_num_threads(threads)
    torch.manual_seed(7)
    batch = 64
    model = torch.nn.Sequential(torch.nn.Linear(784, 256), torch.nn.ReLU(),
                                torch.nn.Linear(256, 10))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = torch.nn.CrossEntropyLoss()
    images = torch.rand(steps, batch, 784)
    labels = torch.randint(0, 10, (steps, batch))

    def train():
        for step in range(steps):
            optimizer.zero_grad(set_to_none=True)
            loss = loss_fn(model(images[step]), labels[step])
            loss.backward()
            optimizer.step()

    seconds = best_seconds(train, min_seconds=0)
    print(f"{steps * batch / seconds:.0f}")


if __name__ == "__main__":
    if sys.argv[1] == "gemm":
        gemm(sys.argv[2:])
    else:
        mlp(int(sys.argv[2]), int(sys.argv[3]))
