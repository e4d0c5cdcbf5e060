# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Writes small inputs for the examples into the directory argv[1]: a
# knowledge graph for TransE (triples.txt), skip-gram pairs for word2vec
# (pairs.txt) and click rows with id lists for Wide & Deep (clicks.csv).
import random, sys
rng = random.Random(3)
with open(sys.argv[1] + "/triples.txt", "w") as f:
    for _ in range(200):
        f.write("/e/%d\t/r/%d\t/e/%d\n" % (rng.randrange(50), rng.randrange(4),
                                           rng.randrange(50)))
with open(sys.argv[1] + "/pairs.txt", "w") as f:
    for _ in range(200):
        f.write("w%d\t%+d\tw%d\n" % (rng.randrange(60), rng.choice([-2, -1, 1, 2]),
                                     rng.randrange(60)))
with open(sys.argv[1] + "/clicks.csv", "w") as f:
    for _ in range(200):
        dense = ["%.3f" % rng.uniform(-1, 1) for _ in range(4)]
        lists = ["|".join(str(100 * k + rng.randrange(100))
                          for _ in range(rng.randrange(4))) for k in range(3)]
        f.write(",".join(dense + lists + [str(rng.randrange(2))]) + "\n")
