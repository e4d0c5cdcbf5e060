# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Writes a small knowledge graph of named entities that TransE can learn:
cities on a line, road k leading from each city to the one k + 1 further
on, and "near" from each to both of the next two, so that some queries have
several true answers and filtered ranks differ from raw ones. Usage:
make-triples.py DIR; writes DIR/train.txt, DIR/valid.txt and DIR/test.txt
(head<TAB>relation<TAB>tail), shuffled, so that numbering names by first
appearance in each file would give each file other ids."""

import random
import sys

ENTITIES, RELATIONS = 30, 3

triples = [(f"city_{h:02d}", f"road_{k}", f"city_{h + k + 1:02d}")
           for h in range(ENTITIES) for k in range(RELATIONS)
           if h + k + 1 < ENTITIES]
triples += [(f"city_{h:02d}", "near", f"city_{t:02d}")
            for h in range(ENTITIES) for t in (h + 1, h + 2) if t < ENTITIES]
random.Random(4).shuffle(triples)
parts = {"test": triples[:16], "valid": triples[16:24], "train": triples[24:]}
for name, rows in parts.items():
    with open(f"{sys.argv[1]}/{name}.txt", "w") as out:
        out.writelines(f"{h}\t{r}\t{t}\n" for h, r, t in rows)
