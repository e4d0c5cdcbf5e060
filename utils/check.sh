#!/usr/bin/env bash
#===- check.sh - Build OpenKS and run every test -------------------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Installs what is missing, builds everything, runs the lit regression tests
# and the GoogleTest unit tests through lit, prints lit's summary and, as the
# last line, "N passed, N failed". Exits non-zero if any test failed.
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/build.sh"

log=$(mktemp)
trap 'rm -f "$log"' EXIT
status=0
/usr/lib/llvm-22/bin/lit -sv --timeout=600 \
  "$build_dir/test" "$build_dir/test/Unit" 2>&1 | tee "$log" || status=$?

# Fold lit's summary ("  Passed: 12 (100.00%)") into one line.
awk -v status="$status" '
  /^ *(Passed|Expectedly Failed) *: *[0-9]+/ { split($0, f, ":"); passed += f[2] + 0 }
  /^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *: *[0-9]+/ {
    split($0, f, ":"); failed += f[2] + 0 }
  END {
    if (status != 0 && failed == 0) failed = 1
    printf "%d passed, %d failed\n", passed, failed
  }' "$log"
exit "$status"
