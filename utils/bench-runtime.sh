#!/usr/bin/env bash
#===- bench-runtime.sh - PS runtime speed as ratios to direct baselines ---===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Builds and runs utils/bench/RuntimeBench.cpp once, repetitions randomly
# interleaved, and prints the medians of 5 repetitions (15 for training):
#   transport: pushes of one block through the in-process transport to an
#              async server whose update only takes the buffer, or runs
#              SGD, and pulls of it, as GB/s and as ratios to memcpy of the
#              same bytes (goal: >= 0.5) and, for the SGD push, to the SGD
#              kernel run directly;
#   prefetch:  pullRows of batches of 4096 or 16384 distinct rows of a table
#              block of 1,000,000 rows of 16 or 64 f32 elements, through the
#              in-process transport from an async server, as rows/s per
#              server thread and GB/s, and as a ratio to a plain loop that
#              gathers the same rows (goal: >= 10 M rows/s at dim 16);
#   push rows: pushRows of the batches' row-sparse gradients to the same
#              table, which the server minimizes with Adagrad, as rows/s per
#              server thread and as a ratio to the Adagrad kernel run
#              directly on the same gradients (goal: >= 5 M rows/s at dim
#              16);
#   traffic:   the bytes a step moves each way, as the server counts them,
#              for a table of 1,000,000 x 16 and a batch touching 4096 rows:
#              the rows' gradient and the rows (K * (D * 4 + 8), ids
#              included) against the whole gradient and table (V * D * 4),
#              and the time of both steps;
#   training:  samples/s of the MLP example with one trainer and one sync
#              server against single-process training (goal: >= 0.9), by
#              the wall clock and per second of the process's CPU time;
#   barriers:  microseconds per sync step that only passes the send and
#              fetch barriers of one server, for 1 to 8 trainers.
# Extra arguments go to the benchmark binary (e.g. --benchmark_filter=Push).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-bench-runtime >/dev/null

json=$(mktemp)
trap 'rm -f "$json"' EXIT
"$build_dir/utils/bench/openks-bench-runtime" \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_format=json --benchmark_out="$json" --benchmark_out_format=json \
  "$@" >/dev/null

python3 - "$json" <<'PY'
import json, sys

runs = json.load(open(sys.argv[1]))["benchmarks"]
median = {}
for run in runs:
    if run.get("aggregate_name") == "median":
        # "BM_Push/4096", "BM_PullRows/16/4096", "BM_Barrier/2/manual_time",
        # "BM_MlpLocal/...".
        name, *parts = run["run_name"].split("/")
        median[(name, "/".join(part for part in parts if part.isdigit()))] = run

def value(name, args, counter):
    run = median.get((name, args))
    return run[counter] if run else None

def size(args):
    kib = int(args) // 1024
    return f"{kib // 1024} MiB" if kib >= 1024 else f"{kib} KiB"

def ratio(a, b):
    if not a or not b:
        return "-"
    return f"{a / b:,.0f}" if a / b >= 100 else f"{a / b:.2f}"

def figure(x, digits=3):
    return f"{x:.{digits}g}" if x else "-"

sizes = sorted({args for name, args in median if name == "BM_Memcpy"}, key=int)
if sizes:
    print("push: in-process, async server (GB/s); the update only takes the "
          "buffer, or runs SGD")
    print("| block | memcpy | push, take only | / memcpy | SGD kernel alone "
          "| push, SGD update | / memcpy | / SGD alone |")
    print("|---|---|---|---|---|---|---|---|")
    for args in sizes:
        copy = value("BM_Memcpy", args, "GB/s")
        take = value("BM_PushTakeOnly", args, "GB/s")
        sgd = value("BM_SgdUpdate", args, "GB/s")
        push = value("BM_PushSgd", args, "GB/s")
        print(f"| {size(args)} | {figure(copy)} | {figure(take)} | "
              f"{ratio(take, copy)} | {figure(sgd)} | {figure(push)} | "
              f"{ratio(push, copy)} | {ratio(push, sgd)} |")
    print()
    print("pull: in-process, async server (GB/s)")
    print("| block | memcpy | pull | / memcpy |")
    print("|---|---|---|---|")
    for args in sizes:
        copy = value("BM_Memcpy", args, "GB/s")
        pull = value("BM_Pull", args, "GB/s")
        print(f"| {size(args)} | {figure(copy)} | {figure(pull)} | "
              f"{ratio(pull, copy)} |")
    print()

def rows_per_second(x):
    return f"{x / 1e6:.3g} M" if x else "-"

shapes = sorted({tuple(map(int, args.split("/"))) for name, args in median
                 if name == "BM_GatherRows"})
if shapes:
    print("prefetch: in-process pullRows of distinct rows of a table block of "
          "1,000,000 rows, async server (rows/s per server thread, goal "
          ">= 10 M at dim 16; GB/s)")
    print("| dim | rows | gather loop | GB/s | pullRows | GB/s | / gather |")
    print("|---|---|---|---|---|---|---|")
    for dim, count in shapes:
        args = f"{dim}/{count}"
        gather = value("BM_GatherRows", args, "rows/s")
        pull = value("BM_PullRows", args, "rows/s")
        print(f"| {dim} | {count} | {rows_per_second(gather)} | "
              f"{figure(value('BM_GatherRows', args, 'GB/s'))} | "
              f"{rows_per_second(pull)} | "
              f"{figure(value('BM_PullRows', args, 'GB/s'))} | "
              f"{ratio(pull, gather)} |")
    print()

shapes = sorted({tuple(map(int, args.split("/"))) for name, args in median
                 if name == "BM_AdagradRows"})
if shapes:
    print("push rows: in-process pushRows of a row-sparse gradient, async "
          "server, Adagrad update (rows/s per server thread, goal >= 5 M at "
          "dim 16)")
    print("| dim | rows | Adagrad alone | pushRows, Adagrad update "
          "| / Adagrad alone |")
    print("|---|---|---|---|---|")
    for dim, count in shapes:
        args = f"{dim}/{count}"
        alone = value("BM_AdagradRows", args, "rows/s")
        push = value("BM_PushRows", args, "rows/s")
        print(f"| {dim} | {count} | {rows_per_second(alone)} | "
              f"{rows_per_second(push)} | {ratio(push, alone)} |")
    print()

sparse = next(((args, run) for (name, args), run in median.items()
               if name == "BM_TableStepRows"), None)
if sparse:
    dim, count = map(int, sparse[0].split("/"))
    dense = median.get(("BM_TableStepWhole", str(dim)))
    rows = 1000000  # kTableRows of RuntimeBench.cpp
    print(f"traffic: a step of a table of {rows:,} x {dim} whose batch "
          f"touches {count} rows, Adagrad, as the server counts it "
          "(bytes per step)")
    print("| step | pushed | pulled | expected each way | ms per step |")
    print("|---|---|---|---|---|")
    def step_row(label, run, expected):
        if not run:
            print(f"| {label} | - | - | {expected:,} | - |")
            return None
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[run["time_unit"]]
        ms = run["real_time"] * scale
        print(f"| {label} | {run['pushed B/step']:,.0f} | "
              f"{run['pulled B/step']:,.0f} | {expected:,} | {figure(ms)} |")
        return run["pushed B/step"], run["pulled B/step"], ms
    ours = step_row("rows: pushRows + pullRows", sparse[1],
                    count * (dim * 4 + 8))
    whole = step_row("whole: push + pull", dense, rows * dim * 4)
    if ours and whole:
        print(f"| whole / rows | {ratio(whole[0], ours[0])} | "
              f"{ratio(whole[1], ours[1])} | "
              f"{ratio(rows * dim * 4, count * (dim * 4 + 8))} | "
              f"{ratio(whole[2], ours[2])} |")
    print()

def per_second(name, clock):
    """Samples per second of BM_<name>'s median step, by `clock`."""
    run = median.get((name, ""))
    if not run:
        return None
    scale = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1.0}[run["time_unit"]]
    return 64 / (run[clock] * scale)

if ("BM_MlpLocal", "") in median or ("BM_MlpSync", "") in median:
    print("training: the MLP example, batch 64, SGD (samples/s)")
    print("| clock | single process | 1 trainer + 1 sync server | ratio |")
    print("|---|---|---|---|")
    for clock, label in (("real_time", "wall"),
                         ("cpu_time", "CPU, all threads")):
        local = per_second("BM_MlpLocal", clock)
        sync = per_second("BM_MlpSync", clock)
        print(f"| {label} | {local or 0:,.0f} | {sync or 0:,.0f} | "
              f"{ratio(sync, local)} |")
    print()

trainers = sorted({args for name, args in median if name == "BM_Barrier"},
                  key=int)
if trainers:
    print("barriers: sync steps of send + fetch barrier only, one server")
    print("| trainers | us per step |")
    print("|---|---|")
    for args in trainers:
        print(f"| {args} | {figure(value('BM_Barrier', args, 'us/step'))} |")
PY
