# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks openks-eval's classification metrics against a naive reference.

Usage: classify-reference.py classes|binary W.txt B.txt DATA.csv
           METRICS.csv PREDICTIONS

W.txt and B.txt are a linear model's weights ([4, C]) and bias as
`openks-ckpt export --format text` writes them. The reference computes each
row's probabilities in double precision (softmax, or the sigmoid of one
logit) and from them the accuracy, the log loss and, for two classes, the
AUC by counting every positive-negative pair; it compares them with
METRICS.csv and each row's prediction (a class and its probability, or a
probability) with PREDICTIONS."""

import math
import sys

kind = sys.argv[1]
with open(sys.argv[2]) as f:
    w = [[float(v) for v in line.split("\t")] for line in f]
with open(sys.argv[3]) as f:
    b = [float(v) for v in f.read().split()]
with open(sys.argv[4]) as f:
    rows = [[float(v) for v in line.split(",")] for line in f]
with open(sys.argv[5]) as f:
    reported = {k: float(v) for k, v in
                (line.strip().split(",") for line in f.readlines()[1:])}
with open(sys.argv[6]) as f:
    predicted = [line.split() for line in f]

correct = 0
log_loss = 0.0
scored = []
for i, row in enumerate(rows):
    x, label = row[:4], int(row[4])
    logits = [sum(x[k] * w[k][c] for k in range(4)) + b[c]
              for c in range(len(b))]
    if kind == "classes":
        top = max(logits)
        exps = [math.exp(z - top) for z in logits]
        p = [e / sum(exps) for e in exps]
        best = max(range(len(p)), key=lambda c: p[c])
        correct += best == label
        log_loss -= math.log(max(p[label], 1e-15))
        if int(predicted[i][0]) != best or \
                abs(float(predicted[i][1]) - p[best]) > 1e-5:
            sys.exit(f"row {i + 1}: predicted {predicted[i]}, expected "
                     f"{best} {p[best]}")
    else:
        p = 1 / (1 + math.exp(-logits[0]))
        correct += (p >= 0.5) == (label == 1)
        log_loss -= math.log(max(p if label else 1 - p, 1e-15))
        scored.append((p, label))
        if abs(float(predicted[i][0]) - p) > 1e-5:
            sys.exit(f"row {i + 1}: predicted {predicted[i]}, expected {p}")

expected = {"accuracy": correct / len(rows), "log_loss": log_loss / len(rows)}
if scored:
    wins = pairs = 0
    for p, label in scored:
        for q, other in scored:
            if label == 1 and other == 0:
                pairs += 1
                wins += 1 if p > q else 0.5 if p == q else 0
    expected["auc"] = wins / pairs
for name, value in expected.items():
    if abs(reported[name] - value) > 1e-5:
        sys.exit(f"{name}: openks-eval says {reported[name]}, the reference "
                 f"{value}")
    print(f"{name} matches")
# The mean cross-entropy the model minimizes is its log loss.
if abs(reported["loss"] - reported["log_loss"]) > 1e-5:
    sys.exit(f"loss {reported['loss']} is not log_loss {reported['log_loss']}")
print("loss matches log_loss")
if kind == "classes" and "auc" in reported:
    sys.exit("an AUC of three classes")
