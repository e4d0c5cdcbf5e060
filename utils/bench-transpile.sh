#!/usr/bin/env bash
#===- bench-transpile.sh - Pipeline time against parse + print -----------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Generates forward-only programs from 1k to 1M ops (100 to 100k
# parameters) with utils/bench/gen-program.py and, for each, takes from
# openks-opt's --mlir-timing report in the same run:
#   parse + print:  the Parser and Output times of `openks-opt IN`;
#   pipeline:       the time of every pass of openks-minimize followed by
#                   openks-transpile (verification between passes off).
# It prints the pipeline time as a ratio to parse + print (goal: <= 0.7),
# each figure the median of OPENKS_BENCH_RUNS runs (default 3). Pass
# "OPS:PARAMS" arguments to choose other sizes, e.g. 10000000:1000000 for
# 10M ops: about 10 GB of memory and 7 minutes a run on 2 cores, too long
# for the default list (OPENKS_BENCH_RUNS=1 keeps it to one run).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}
"$root/utils/build.sh" openks-opt >/dev/null

sizes=("$@")
[[ ${#sizes[@]} -gt 0 ]] || sizes=(1000:100 10000:1000 100000:10000 1000000:100000)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "| ops | params | parse+print (s) | pipeline (s) | pipeline / parse+print |"
echo "|---|---|---|---|---|"
for size in "${sizes[@]}"; do
  ops=${size%%:*}
  params=${size##*:}
  input="$work/program-$ops.mlir"
  python3 "$root/utils/bench/gen-program.py" "$ops" "$params" "$input"
  python3 - "$build_dir/bin/openks-opt" "$input" "$ops" "$params" \
    "${OPENKS_BENCH_RUNS:-3}" <<'PY'
import re, statistics, subprocess, sys

opt, program, ops, params, runs = sys.argv[1:]
pipeline = ("builtin.module(openks-minimize{optimizer=sgd lr=0.1},"
            "openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 "
            "trainers=2})")

def timings(*extra):
    """Returns {name: seconds} from one run's --mlir-timing list."""
    out = subprocess.run([opt, program, "-o", "/dev/null", "--mlir-timing",
                          "--mlir-timing-display=list", *extra],
                         check=True, capture_output=True, text=True).stderr
    rows = re.findall(r"^\s*([0-9.]+) \(\s*[0-9.]+%\)\s+(\S+)\s*$", out, re.M)
    return {name: float(seconds) for seconds, name in rows}

base, passes = [], []
for _ in range(int(runs)):
    t = timings()
    base.append(t["Parser"] + t["Output"])
    t = timings("--verify-each=0", f"--pass-pipeline={pipeline}")
    passes.append(sum(s for name, s in t.items() if name.endswith("Pass")))
b, p = statistics.median(base), statistics.median(passes)
print(f"| {ops} | {params} | {b:.3f} | {p:.3f} | {p / b:.2f} |")
PY
done
