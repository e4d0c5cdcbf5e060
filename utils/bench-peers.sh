#!/usr/bin/env bash
#===- bench-peers.sh - GEMM and MLP training next to PyTorch --------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Measures in one run, and prints as ratios:
#   GEMM, 1 thread: kernels::matmul, oneDNN's sgemm called directly (the
#     library it runs on) and PyTorch's torch.mm on the MLP's shapes and
#     512^3 (goal: ours >= 0.9 of torch.mm);
#   MLP training, 1 and 2 threads: samples/s of docs/examples/mlp.mlir
#     (784 -> 256 -> 10, batch 64, SGD 0.1, data in memory) against the same
#     model in PyTorch (goal: >= 1.0);
#   1 trainer + 1 sync server against single-process training on the same
#     data (goal: >= 0.95).
# PyTorch is an optional peer: Debian's python3-torch, run by
# /usr/bin/python3 (PEER_PYTHON overrides) with OPENBLAS_CORETYPE and
# OPENBLAS_L2_SIZE unset for its commands only and OMP_NUM_THREADS and
# OPENBLAS_NUM_THREADS set to the thread count; without it the peer columns
# show "-". Every figure is a median (ours, of 5 or 15 repetitions) or a
# best of 5 (the peer's).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}
peer_python=${PEER_PYTHON:-/usr/bin/python3}

"$root/utils/build.sh" openks-bench-kernels openks-bench-runtime >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

OMP_NUM_THREADS=1 "$build_dir/utils/bench/openks-bench-kernels" \
  --benchmark_filter='BM_(Matmul|DnnlSgemm)/' \
  --benchmark_repetitions=5 --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$work/kernels.json" --benchmark_out_format=json >/dev/null
"$build_dir/utils/bench/openks-bench-runtime" \
  --benchmark_filter='BM_Mlp' \
  --benchmark_repetitions=15 --benchmark_report_aggregates_only=true \
  --benchmark_enable_random_interleaving=true \
  --benchmark_out="$work/runtime.json" --benchmark_out_format=json >/dev/null

# The peer, if it is installed.
peer() {
  local threads=$1
  shift
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OMP_NUM_THREADS="$threads" \
    OPENBLAS_NUM_THREADS="$threads" "$peer_python" \
    "$root/utils/bench/peer-torch.py" "$@"
}
: >"$work/peer.txt"
if "$peer_python" -c 'import torch' 2>/dev/null; then
  peer 1 gemm 64,784,256 64,256,10 784,64,256 512,512,512 \
    | sed 's/^/gemm /' >>"$work/peer.txt"
  for threads in 1 2; do
    echo "mlp $threads $(peer "$threads" mlp "$threads" 300)" >>"$work/peer.txt"
  done
else
  echo "bench-peers: no PyTorch for $peer_python; peer columns are empty" >&2
fi

python3 - "$work" <<'PY'
import json, sys

work = sys.argv[1]
median = {}
for name in ("kernels", "runtime"):
    for run in json.load(open(f"{work}/{name}.json"))["benchmarks"]:
        if run.get("aggregate_name") == "median":
            name, *parts = run["run_name"].split("/")
            median[(name, ",".join(p for p in parts if p.isdigit()))] = run

peer_gemm, peer_mlp = {}, {}
for line in open(f"{work}/peer.txt"):
    kind, key, value = line.split()
    (peer_gemm if kind == "gemm" else peer_mlp)[key] = float(value)

def figure(x):
    return f"{x:,.1f}" if x is not None else "-"

def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"

print("GEMM, 1 thread (GFLOP/s)")
print("| m x k x n | kernels::matmul | oneDNN sgemm | torch.mm "
      "| ours / sgemm | ours / torch.mm |")
print("|---|---|---|---|---|---|")
for (name, shape), run in median.items():
    if name != "BM_Matmul":
        continue
    ours = run["GFLOPS"]
    direct = median[("BM_DnnlSgemm", shape)]["GFLOPS"]
    torch = peer_gemm.get(shape)
    print(f"| {shape.replace(',', ' x ')} | {ours:.1f} | {direct:.1f} "
          f"| {figure(torch)} | {ratio(ours, direct)} | {ratio(ours, torch)} |")

print("\nMLP training, data in memory (samples/s)")
print("| threads | openks | PyTorch | openks / PyTorch |")
print("|---|---|---|---|")
for threads in ("1", "2"):
    ours = median[("BM_MlpLocalInMemory", threads)]["samples/s"]
    torch = peer_mlp.get(threads)
    print(f"| {threads} | {ours:,.0f} | "
          f"{f'{torch:,.0f}' if torch else '-'} | {ratio(ours, torch)} |")

local = median[("BM_MlpLocal", "")]["samples/s"]
sync = median[("BM_MlpSync", "")]["samples/s"]
print("\n1 trainer + 1 sync server vs single-process (samples/s)")
print("| single-process | 1 + 1 sync | ratio |")
print("|---|---|---|")
print(f"| {local:,.0f} | {sync:,.0f} | {ratio(sync, local)} |")
PY
