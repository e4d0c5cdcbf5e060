#!/usr/bin/env bash
#===- bench-runtime.sh - PS runtime speed as ratios to direct baselines ---===#
#
# Builds and runs utils/bench/RuntimeBench.cpp once, repetitions randomly
# interleaved, and prints the medians of 5 repetitions (15 for training):
#   transport: pushes of one block through the in-process transport to an
#              async server whose update only takes the buffer, or runs
#              SGD, and pulls of it, as GB/s and as ratios to memcpy of the
#              same bytes (goal: >= 0.5) and, for the SGD push, to the SGD
#              kernel run directly;
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
        # "BM_Push/4096", "BM_Barrier/2/manual_time", "BM_MlpLocal/...".
        name, *parts = run["run_name"].split("/")
        numbers = [part for part in parts if part.isdigit()]
        median[(name, numbers[0] if numbers else "")] = run

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
