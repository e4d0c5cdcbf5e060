#!/usr/bin/env bash
#===- fuzz.sh - Build and run the libFuzzer targets -----------------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Usage: utils/fuzz.sh [SECONDS] [TARGET...]
#
# Builds the libFuzzer targets of utils/fuzz with clang-22 under AddressSanitizer
# and UndefinedBehaviorSanitizer into build-fuzz/ (OPENKS_FUZZ_BUILD_DIR), seeds
# each target's corpus from the project's own test inputs, and runs each target
# for SECONDS (default 60) on one core. Targets: mlir (the .mlir front of
# openks-opt: parse, verify, minimize, transpile), data (openks-run's data
# sources) and paddle (openks-translate's ProgramDesc import and export);
# all by default. Findings land in build-fuzz/fuzz/<target>/findings/;
# the corpus grows in build-fuzz/fuzz/<target>/corpus/ across runs. Prints one
# line per target: runs, coverage, corpus size and findings.
#
# Installs clang-22 and libclang-rt-22-dev with apt-get when they are missing.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_FUZZ_BUILD_DIR:-$root/build-fuzz}
seconds=${1:-60}
shift || true
targets=("$@")
[[ ${#targets[@]} -gt 0 ]] || targets=(mlir data paddle)

"$root/utils/install-deps.sh"
for package in clang-22 libclang-rt-22-dev; do
  if [[ $(dpkg-query -W -f='${Status}' "$package" 2>/dev/null) != "install ok installed" ]]; then
    sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends "$package" >/dev/null
  fi
done

llvm_prefix=/usr/lib/llvm-22
cmake -G Ninja -S "$root" -B "$build_dir" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" \
  -DOPENKS_SANITIZE="address;undefined" -DOPENKS_FUZZ=ON >/dev/null
ninja -C "$build_dir" $(printf 'openks-fuzz-%s ' "${targets[@]}") >/dev/null

# Seeds: every .mlir case of the tests and examples (split at "// -----"),
# small data files of each kind, and the ProgramDescs of the interop tests
# (their text-format programs encoded with protoc, and the crafted ones).
seed() {
  local target=$1 corpus=$2
  mkdir -p "$corpus"
  [[ -z $(ls -A "$corpus") ]] || return 0
  case $target in
    mlir)
      find "$root/test" "$root/docs/examples" -name '*.mlir' -print0 |
        xargs -0 awk -v dir="$corpus" '
          FNR == 1 { n++; part = 0 }
          /^\/\/ -----/ { part++; next }
          { print > (dir "/seed-" n "-" part ".mlir") }' ;;
    data)
      printf '\0001.0,2.0,0.5,1\n0.5,-1,2,0\n# comment\n\n3,3,3,2\n' > "$corpus/csv"
      printf '\0111 3:0.5 7:1.0\n0 1:2 2:3 4:1\n1\n' > "$corpus/libsvm"
      printf '\003seed=3,rows=50,classes=3' > "$corpus/synthetic"
      printf '\017vocab=20,rows=9' > "$corpus/synthetic-ids"
      printf '\0240.5,1,1|2|3,0\n2,-1,,1\n0,0,7,0\n' > "$corpus/csv-id-lists"
      printf '\032a\tr\tb\nb\ts\tc\nc\tr\ta\n' > "$corpus/triples"
      printf '\036negatives=2,seed=4,corrupt=tail\0000\t0\t1\n1\t1\t2\n' \
        > "$corpus/triples-negatives" ;;
    paddle)
      local inputs="$root/test/Interop/Inputs"
      for program in "$inputs"/*.txtpb; do
        protoc -I "$root/lib/Interop" --encode=paddle.framework.proto.ProgramDesc \
          framework.proto < "$program" > "$corpus/$(basename "$program" .txtpb).pb"
      done
      for mode in unpacked packed unknown type-first deep-groups \
          bad-packed-floats missing-op-type; do
        python3 "$inputs/craft-program.py" "$mode" > "$corpus/crafted-$mode.pb"
      done ;;
  esac
}

for target in "${targets[@]}"; do
  work="$build_dir/fuzz/$target"
  mkdir -p "$work/findings"
  seed "$target" "$work/corpus"
  log="$work/last-run.log"
  before=$(ls "$work/findings" | wc -l)
  status=0
  ASAN_OPTIONS=allow_user_poisoning=0:detect_leaks=0 \
    "$build_dir/bin/openks-fuzz-$target" "$work/corpus" \
      -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 -max_len=65536 \
      -artifact_prefix="$work/findings/" -print_final_stats=1 \
      >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$( (grep -o 'cov: [0-9]*' "$log" || true) | tail -1 | cut -d' ' -f2)
  after=$(ls "$work/findings" | wc -l)
  echo "$target: ${runs:-0} runs in ${seconds} s, coverage ${cov:-0} edges," \
       "corpus $(ls "$work/corpus" | wc -l) inputs, $((after - before)) new findings" \
       "(exit $status; log $log)"
done
