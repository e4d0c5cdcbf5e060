#!/usr/bin/env bash
#===- quickstart.sh - Build OpenKS and run the main job ------------------===#
#
# Installs what is missing, builds into build/, then runs the main job on the
# bundled example: minimize the forward-only MLP of docs/examples/mlp.mlir
# (backward pass and SGD), print the result, and train it for a few hundred
# steps in one process on synthetic data.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-opt openks-run

example="$root/docs/examples/mlp.mlir"
minimized="$build_dir/examples/mlp-minimized.mlir"
mkdir -p "$(dirname "$minimized")"

pipeline='builtin.module(openks-minimize{optimizer=sgd lr=0.1})'
echo "== openks-opt $example --pass-pipeline='$pipeline'"
"$build_dir/bin/openks-opt" "$example" --pass-pipeline="$pipeline" \
  -o "$minimized"
cat "$minimized"

echo
echo "== openks-run $minimized --steps 300 --batch-size 64 --data synthetic:classes=10,seed=7"
"$build_dir/bin/openks-run" "$minimized" --steps 300 --batch-size 64 \
  --data synthetic:classes=10,seed=7
