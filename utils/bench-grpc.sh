#!/usr/bin/env bash
#===- bench-grpc.sh - Jobs across processes as ratios to direct baselines -===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Builds utils/bench/GrpcBench.cpp, openks-run and openks-launch, and prints
# figures of one run of this script, each as a ratio of two measurements
# taken in it:
#   blocks:       a push (and its flush) and a pull of a 1 to 64 MiB block
#                 through the gRPC transport between two processes, against
#                 the same bytes over a loopback TCP socket between two
#                 processes, as GB/s (goal: >= 0.6);
#   small blocks: pushes of 64 B to 4 KiB blocks through the gRPC transport,
#                 one round trip each or in batches of 64 with one flush,
#                 against the same writes over TCP and (batches) pushes
#                 through the in-process transport, as blocks/s;
#   tables:       prefetches (pullRows) of batches of 4096 or 16384
#                 distinct rows of a table block of 1,000,000 rows of 16 or
#                 64 f32 elements, and pushes (pushRows, and a flush) of
#                 their row-sparse gradients, which the server minimizes
#                 with Adagrad, through the gRPC transport between two
#                 processes against the same through the in-process
#                 transport to a server in the benchmark's process, as
#                 rows/s;
#   training:     samples/s of the MLP example, 2 servers and 2 trainers in
#                 sync, as processes (openks-launch) against the same job in
#                 one process (goal: >= 0.8), by the wall clock and per
#                 second of CPU time of all the job's processes.
# The benchmarks' figures are medians of 5 repetitions, randomly
# interleaved; the jobs run 5 times each, alternately, and their medians are
# compared. Everything runs on 127.0.0.1 under a timeout. Extra arguments go
# to the benchmark binary (e.g. --benchmark_filter=Pull).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-bench-grpc openks-run openks-launch >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The benchmark forks its server and TCP peer, which die with it.
timeout -k 10 900 "$build_dir/utils/bench/openks-bench-grpc" \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_format=json --benchmark_out="$work/bench.json" \
  --benchmark_out_format=json "$@" >/dev/null

# The job of docs/performance.md, long enough that start-up is a small part.
steps=500
batch=64
job=("$root/docs/examples/mlp.mlir" --optimizer momentum --lr 0.1
     --steps "$steps" --batch-size "$batch"
     --data synthetic:classes=10,seed=7)
runs=5

# Prints a port P of 127.0.0.1 such that P to P+3 (two servers, two
# trainers) are free.
free_ports() {
  python3 - <<'PY'
import socket

def free(port):
    with socket.socket() as probe:
        try:
            probe.bind(("127.0.0.1", port))
            return True
        except OSError:
            return False

for _ in range(100):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    if port + 3 < 65536 and all(free(port + i) for i in range(4)):
        print(port)
        break
else:
    raise SystemExit("bench-grpc: no 4 consecutive free ports")
PY
}

# Runs the command $2... with its output in $1.out and $1.err, and the CPU
# seconds (user, system) of it and every process it waited for in $1.cpu;
# prints its errors and fails when it fails.
run_timed() {
  local out=$1 TIMEFORMAT='%U %S'
  shift
  if ! { time "$@" >"$out.out" 2>"$out.err"; } 2>"$out.cpu"; then
    cat "$out.out" "$out.err" >&2
    return 1
  fi
}

OPENKS_JOB_TOKEN=$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export OPENKS_JOB_TOKEN
for run in $(seq "$runs"); do
  run_timed "$work/local.$run" timeout -k 10 300 "$build_dir/bin/openks-run" \
    "${job[@]}" --pservers 2 --trainers 2
  # openks-launch stops its roles when it is stopped, and they stop when it
  # dies.
  run_timed "$work/launch.$run" timeout -k 10 600 \
    "$build_dir/bin/openks-launch" --servers 2 --trainers 2 \
    --start-port "$(free_ports)" --log-dir "$work/logs.$run" \
    -- "$build_dir/bin/openks-run" "${job[@]}"
done

python3 - "$work" "$runs" "$steps" "$batch" <<'PY'
import json, re, statistics, sys

work = sys.argv[1]
runs, steps, batch = map(int, sys.argv[2:5])
median = {}
for run in json.load(open(f"{work}/bench.json"))["benchmarks"]:
    if run.get("aggregate_name") == "median":
        # Keyed by the argument, or the arguments when there are several:
        # "BM_GrpcPush/1048576/real_time", "BM_GrpcPullRows/16/4096/...".
        name, *parts = run["run_name"].split("/")
        numbers = tuple(int(part) for part in parts if part.isdigit())
        median[(name, numbers if len(numbers) > 1 else numbers[0])] = run

def value(name, args, counter):
    run = median.get((name, args))
    return run[counter] if run else None

def size(args):
    if args >= 1 << 20:
        return f"{args >> 20} MiB"
    return f"{args >> 10} KiB" if args >= 1 << 10 else f"{args} B"

def ratio(a, b):
    if not a or not b:
        return "-"
    return f"{a / b:.2f}" if a / b >= 0.1 else f"{a / b:.2g}"

def figure(x, digits=3):
    return f"{x:.{digits}g}" if x else "-"

def rate(x):
    return f"{x:,.0f}" if x else "-"

blocks = ("BM_TcpPush", "BM_GrpcPush", "BM_TcpPull", "BM_GrpcPull")
sizes = sorted({args for name, args in median
                if name in blocks and args >= 1 << 20})
if sizes:
    print("blocks: between two processes over loopback (GB/s)")
    print("| block | TCP push | gRPC push | ratio | TCP pull | gRPC pull "
          "| ratio |")
    print("|---|---|---|---|---|---|---|")
    for args in sizes:
        tcp_push = value("BM_TcpPush", args, "GB/s")
        grpc_push = value("BM_GrpcPush", args, "GB/s")
        tcp_pull = value("BM_TcpPull", args, "GB/s")
        grpc_pull = value("BM_GrpcPull", args, "GB/s")
        print(f"| {size(args)} | {figure(tcp_push)} | {figure(grpc_push)} | "
              f"{ratio(grpc_push, tcp_push)} | {figure(tcp_pull)} | "
              f"{figure(grpc_pull)} | {ratio(grpc_pull, tcp_pull)} |")
    print()

small = ("BM_TcpPush", "BM_GrpcPush", "BM_TcpPushBatch", "BM_GrpcPushBatch",
         "BM_InProcessPushBatch")
sizes = sorted({args for name, args in median
                if name in small and args < 1 << 20})
if sizes:
    print("small blocks: pushes between two processes (blocks/s)")
    print("| block | TCP, one each | gRPC, one each | ratio "
          "| TCP, batches | gRPC, batches | ratio "
          "| in-process, batches | gRPC / in-process |")
    print("|---|---|---|---|---|---|---|---|---|")
    for args in sizes:
        tcp_one = value("BM_TcpPush", args, "blocks/s")
        grpc_one = value("BM_GrpcPush", args, "blocks/s")
        tcp = value("BM_TcpPushBatch", args, "blocks/s")
        grpc = value("BM_GrpcPushBatch", args, "blocks/s")
        local = value("BM_InProcessPushBatch", args, "blocks/s")
        print(f"| {size(args)} | {rate(tcp_one)} | {rate(grpc_one)} | "
              f"{ratio(grpc_one, tcp_one)} | {rate(tcp)} | {rate(grpc)} | "
              f"{ratio(grpc, tcp)} | {rate(local)} | {ratio(grpc, local)} |")
    print()

def rows_per_second(x):
    return f"{x / 1e6:.3g} M" if x else "-"

shapes = sorted({args for name, args in median
                 if name in ("BM_InProcessPullRows", "BM_GrpcPullRows",
                             "BM_InProcessPushRows", "BM_GrpcPushRows")})
if shapes:
    print("tables: prefetches and row-sparse pushes (Adagrad update) of a "
          "table block of 1,000,000 rows, between two processes against in "
          "one (rows/s)")
    print("| dim | rows | in-process pull | gRPC pull | ratio "
          "| in-process push | gRPC push | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for dim, count in shapes:
        pull = value("BM_InProcessPullRows", (dim, count), "rows/s")
        grpc_pull = value("BM_GrpcPullRows", (dim, count), "rows/s")
        push = value("BM_InProcessPushRows", (dim, count), "rows/s")
        grpc_push = value("BM_GrpcPushRows", (dim, count), "rows/s")
        print(f"| {dim} | {count} | {rows_per_second(pull)} | "
              f"{rows_per_second(grpc_pull)} | {ratio(grpc_pull, pull)} | "
              f"{rows_per_second(push)} | {rows_per_second(grpc_push)} | "
              f"{ratio(grpc_push, push)} |")
    print()

def samples(path, pattern):
    """The samples/s of each line of the file `path` that matches
    `pattern`."""
    with open(path) as lines:
        return [float(match.group(1)) for line in lines
                if (match := re.search(pattern + r".*, ([0-9.]+) samples/s",
                                       line))]

def cpu_seconds(path):
    """The user and system seconds in the file `path`, added."""
    return sum(float(seconds) for seconds in open(path).read().split())

# Both jobs train the same samples: `steps` global batches.
trained = steps * batch
local, launched, local_cpu, launched_cpu = [], [], [], []
for run in range(1, runs + 1):
    local += samples(f"{work}/local.{run}.out", r"^trained ")
    # The job's rate: the sum of its trainers' rates on their shards.
    launched.append(sum(samples(f"{work}/logs.{run}/workerlog.{trainer}",
                                r"^trainer ")[0] for trainer in range(2)))
    local_cpu.append(trained / cpu_seconds(f"{work}/local.{run}.cpu"))
    launched_cpu.append(trained / cpu_seconds(f"{work}/launch.{run}.cpu"))
print("training: the MLP example, 2 servers x 2 trainers, sync (samples/s, "
      "and samples per CPU second of the whole run)")
print("| run | one process | as processes | ratio "
      "| one process, CPU | as processes, CPU | ratio |")
print("|---|---|---|---|---|---|---|")
rows = list(zip(local, launched, local_cpu, launched_cpu))
rows.append(tuple(map(statistics.median, (local, launched, local_cpu,
                                          launched_cpu))))
for run, (one, many, one_cpu, many_cpu) in enumerate(rows, 1):
    print(f"| {run if run <= runs else 'median'} | {rate(one)} | "
          f"{rate(many)} | {ratio(many, one)} | {rate(one_cpu)} | "
          f"{rate(many_cpu)} | {ratio(many_cpu, one_cpu)} |")
PY
