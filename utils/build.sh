#!/usr/bin/env bash
#===- build.sh - Configure and build OpenKS ------------------------------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Usage: utils/build.sh [ninja targets...]
#
# Installs missing packages, configures the build directory (OPENKS_BUILD_DIR,
# default build/) once, and builds the given targets (everything by default).
# OPENKS_SANITIZE="address;undefined" or "thread" selects a sanitizer build;
# CMAKE_BUILD_TYPE defaults to Release. CC and CXX, when set, choose the
# compilers, e.g. CC=clang-22 CXX=clang++-22 with a build directory of their
# own (CMake starts a directory afresh when its compiler changes).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=${OPENKS_BUILD_DIR:-$root/build}

"$root/utils/install-deps.sh"

compilers=()
[[ -z "${CC:-}" ]] || compilers+=("-DCMAKE_C_COMPILER=$CC")
[[ -z "${CXX:-}" ]] || compilers+=("-DCMAKE_CXX_COMPILER=$CXX")

llvm_prefix=/usr/lib/llvm-22
cmake -G Ninja -S "$root" -B "$build_dir" "${compilers[@]}" \
  -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" \
  -DMLIR_DIR="$llvm_prefix/lib/cmake/mlir" \
  -DLLVM_EXTERNAL_LIT="$llvm_prefix/bin/lit" \
  -DOPENKS_SANITIZE="${OPENKS_SANITIZE:-}" >/dev/null

ninja -C "$build_dir" "$@"
