# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Checks openks-eval's link prediction against a naive reference.

Usage: rank-reference.py ENTITY.txt RELATION.txt MAPS_DIR METRICS.csv
           PREDICTIONS TOP_K TEST [KNOWN...]

ENTITY.txt and RELATION.txt are the embeddings as `openks-ckpt export
--format text` writes them; MAPS_DIR holds the checkpoint's entities.tsv and
relations.tsv. For every test triple it scores every entity as the tail and
as the head by the L1 distance |e_h + w_r - e_t|, in double precision, ranks
the true one (1 + the better, + half the ties), raw and filtered against the
test and KNOWN triples, and compares the mean rank, MRR and Hits@1/3/10 with
METRICS.csv, and the K nearest tails with PREDICTIONS. A query whose
distances come within 1e-4 of the true one's may rank differently in single
precision: each such query widens the tolerance by its share."""

import sys


def read_rows(path):
    with open(path) as f:
        return [[float(v) for v in line.split("\t")] for line in f]


def read_map(path):
    with open(path) as f:
        return {name: int(i) for i, name in
                (line.rstrip("\n").split("\t") for line in f)}


entity = read_rows(sys.argv[1])
relation = read_rows(sys.argv[2])
entities = read_map(sys.argv[3] + "/entities.tsv")
relations = read_map(sys.argv[3] + "/relations.tsv")
with open(sys.argv[4]) as f:
    reported = {k: float(v) for k, v in
                (line.strip().split(",") for line in f.readlines()[1:])}
with open(sys.argv[5]) as f:
    predicted = [line.rstrip("\n").split("\t") for line in f]
top_k = int(sys.argv[6])


def read_triples(path):
    with open(path) as f:
        return [(entities[h], relations[r], entities[t]) for h, r, t in
                (line.rstrip("\n").split("\t") for line in f)]


test = read_triples(sys.argv[7])
known = set(test)
for path in sys.argv[8:]:
    known.update(read_triples(path))
names = {i: name for name, i in entities.items()}
n = len(entities)


def distance(h, r, t):
    return sum(abs(a + b - c) for a, b, c in
               zip(entity[h], relation[r], entity[t]))


ranks = {"raw_": [], "filtered_": []}
ambiguous = 0
for row, (h, r, t) in enumerate(test):
    for tails in (True, False):
        scores = [distance(h, r, e) if tails else distance(e, r, t)
                  for e in range(n)]
        target = t if tails else h
        if any(e != target and abs(scores[e] - scores[target]) < 1e-4
               for e in range(n)):
            ambiguous += 1
        for prefix in ranks:
            better = ties = 0
            for e in range(n):
                if e == target:
                    continue
                triple = (h, r, e) if tails else (e, r, t)
                if prefix == "filtered_" and triple in known:
                    continue
                better += scores[e] < scores[target]
                ties += scores[e] == scores[target]
            ranks[prefix].append(1 + better + ties / 2)
        if tails:
            nearest = sorted(range(n), key=lambda e: (scores[e], e))[:top_k]
            if predicted[row] != [names[e] for e in nearest]:
                near_tie = any(abs(scores[a] - scores[b]) < 1e-4
                               for a in nearest for b in range(n) if a != b)
                if not near_tie:
                    sys.exit(f"row {row + 1}: predicted {predicted[row]}, "
                             f"expected {[names[e] for e in nearest]}")

queries = 2 * len(test)
tolerance = 1e-5 + ambiguous / queries
for prefix, values in ranks.items():
    expected = {"mr": sum(values) / queries,
                "mrr": sum(1 / v for v in values) / queries}
    for k in (1, 3, 10):
        expected[f"hits@{k}"] = sum(v <= k for v in values) / queries
    for name, value in expected.items():
        got = reported[prefix + name]
        scale = n if name == "mr" else 1
        if abs(got - value) > tolerance * scale:
            sys.exit(f"{prefix}{name}: openks-eval says {got}, the reference "
                     f"{value}")
        print(f"{prefix}{name} matches")
print(f"{len(test)} triples, {n} entities, {ambiguous} near ties")
