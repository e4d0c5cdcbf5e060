#!/usr/bin/env bash
#===- quickstart.sh - Build OpenKS and run the main job ------------------===#
#
# Installs what is missing, builds into build/, then runs the main job on the
# bundled example: parse, verify and pretty-print docs/examples/mlp.mlir.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-opt

example="$root/docs/examples/mlp.mlir"
echo "== openks-opt $example"
"$build_dir/bin/openks-opt" "$example"
