#!/usr/bin/env bash
#===- quickstart.sh - Build OpenKS and run the main job ------------------===#
#
# Installs what is missing, builds into build/, then runs the main job on the
# bundled example: minimize the forward-only MLP of docs/examples/mlp.mlir
# (backward pass and SGD), transpile it for 2 parameter servers and 2
# trainers, print the placement report, and train the job in sync mode with
# every role a thread, checking each step against single-process training
# (--verify).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-opt openks-run

example="$root/docs/examples/mlp.mlir"
job="$build_dir/examples/mlp-job.mlir"
mkdir -p "$(dirname "$job")"

pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1}, openks-transpile{pservers=127.0.0.1:6170,127.0.0.1:6171 trainers=2 mode=sync}, openks-ps-report{list-blocks})'
echo "== openks-opt $example --pass-pipeline='$pipeline'"
"$build_dir/bin/openks-opt" "$example" --pass-pipeline="$pipeline" -o "$job"
echo "(the job, one worker and two servers: $job)"

echo
echo "== openks-run $example --optimizer sgd --lr 0.1 --pservers 2 --trainers 2 --mode sync --verify --steps 300 --batch-size 64 --data synthetic:classes=10,seed=7"
"$build_dir/bin/openks-run" "$example" --optimizer sgd --lr 0.1 \
  --pservers 2 --trainers 2 --mode sync --verify \
  --steps 300 --batch-size 64 --data synthetic:classes=10,seed=7
