# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks fleet-train.test's figures: the trainers' losses fell, and their
last losses average to the final loss of single-process training."""
import re
import sys

fleet = open(sys.argv[1]).read()
local = open(sys.argv[2]).read()
losses = [(float(a), float(b))
          for a, b in re.findall(r"loss ([0-9.]+) -> ([0-9.]+)", fleet)]
assert len(losses) == 2, fleet
for first, last in losses:
    assert last < 0.95 * first, f"the loss did not fall: {first} -> {last}"
mean = sum(last for _, last in losses) / len(losses)
reference = float(re.search(r"final loss ([0-9.]+)", local).group(1))
assert abs(mean - reference) <= 1e-4 * reference, (
    f"trainers' mean final loss {mean} differs from local {reference}")
print(f"fleet {mean:.6f} local {reference:.6f}")
