#!/usr/bin/env bash
#===- quickstart.sh - Build OpenKS and run the main job ------------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Installs what is missing, builds into build/, then runs the main job on the
# bundled example: minimize the forward-only MLP of docs/examples/mlp.mlir
# (backward pass and SGD), transpile it for 2 parameter servers and 2
# trainers, print the placement report, and train the job in sync mode with
# every role a thread, checking each step against single-process training
# (--verify); then train the same job as 4 processes on loopback, started by
# openks-launch and meeting over gRPC, with the same check.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh" openks-opt openks-run openks-launch

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

# Four free loopback ports in a row, for the processes of the launched job.
port=$(python3 -c '
import socket
for _ in range(100):
    sockets = [socket.socket()]
    sockets[0].bind(("127.0.0.1", 0))
    first = sockets[0].getsockname()[1]
    try:
        for port in range(first + 1, first + 4):
            sockets.append(socket.socket())
            sockets[-1].bind(("127.0.0.1", port))
        print(first)
        break
    except OSError:
        pass
    finally:
        for s in sockets:
            s.close()
')

echo
echo "== openks-launch --servers 2 --trainers 2 --start-port $port --log-dir $build_dir/examples/logs -- openks-run $example --optimizer sgd --lr 0.1 --verify --steps 300 --batch-size 64 --data synthetic:classes=10,seed=7"
"$build_dir/bin/openks-launch" --servers 2 --trainers 2 --start-port "$port" \
  --log-dir "$build_dir/examples/logs" -- \
  "$build_dir/bin/openks-run" "$example" --optimizer sgd --lr 0.1 --verify \
  --steps 300 --batch-size 64 --data synthetic:classes=10,seed=7
