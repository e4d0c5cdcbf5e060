#!/usr/bin/env bash
#===- bench-kernels.sh - Kernel speed as ratios to direct baselines ------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Builds and runs utils/bench/KernelsBench.cpp, then prints, per shape, the
# median speed of our kernel divided by the median speed of its baseline
# measured in the same run: matmul vs oneDNN's sgemm called directly, SGD
# vs a plain loop, and per distribution of a batch's ids (uniform, Zipf)
# the kernels that deduplicate ids vs std::sort of the same ids: routeIds
# of 65536 ids of a table of 10,000,000 rows in two sections (goal: >= 50 M
# ids/s), embeddingGradRows of their lookups' gradient, and mergeRows of two
# such gradients (vs sorting their row ids). A ratio of 1.0 means no overhead.
# Extra arguments go to the benchmark binary (e.g.
# --benchmark_filter=Matmul).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-bench-kernels >/dev/null

json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$build_dir/utils/bench/openks-bench-kernels" \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_format=json --benchmark_out="$json" --benchmark_out_format=json \
  "$@" >/dev/null

python3 - "$json" <<'PY'
import json, sys

runs = json.load(open(sys.argv[1]))["benchmarks"]
median = {}
for run in runs:
    if run.get("aggregate_name") == "median":
        name, _, args = run["run_name"].partition("/")
        median[(name, args)] = run

def ratio_table(title, ours, baseline, counter, unit, key="shape"):
    print(f"{title}")
    print(f"| {key} | ours ({unit}) | baseline ({unit}) | ratio |")
    print("|---|---|---|---|")
    for (name, args), run in sorted(median.items()):
        if name != ours or (baseline, args) not in median:
            continue
        mine = run[counter]
        base = median[(baseline, args)][counter]
        label = args.replace('/', ' x ')
        if "distinct" in run:
            label += f" ({run['distinct']:,.0f} distinct)"
        print(f"| {label} | {mine:.3g} | {base:.3g} | {mine / base:.2f} |")
    print()

ratio_table("matmul: kernels::matmul vs oneDNN's sgemm called directly "
            "(GFLOP/s)",
            "BM_Matmul", "BM_DnnlSgemm", "GFLOPS", "GFLOP/s")
ratio_table("sgd: kernels::sgd vs plain loop (updates/s)",
            "BM_Sgd", "BM_SgdLoop", "updates/s", "updates/s")
ratio_table("route ids: kernels::routeIds of 65536 ids to 2 sections of "
            "10,000,000 rows vs std::sort of the same ids (ids/s, goal "
            ">= 5e+07)",
            "BM_RouteIds", "BM_SortIds", "ids/s", "ids/s", key="ids")
ratio_table("embedding gradient rows: kernels::embeddingGradRows of the same "
            "ids, dim 16, vs std::sort of them (ids/s)",
            "BM_EmbeddingGradRows", "BM_SortIds", "ids/s", "ids/s", key="ids")
ratio_table("merge rows: kernels::mergeRows of two such gradients vs "
            "std::sort of their row ids (input rows/s)",
            "BM_MergeRows", "BM_SortRowIds", "ids/s", "rows/s", key="ids")
PY
