#!/usr/bin/env bash
#===- install-deps.sh - Install the Debian 12 packages OpenKS needs -------===#
#
# Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
# Exceptions. See the LICENSE file for license information.
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
#
# Installs, with apt-get, whatever of the packages below is missing. Prints
# nothing and touches nothing when all are present. Run as root (or with
# sudo available).
#
#===----------------------------------------------------------------------===#
set -euo pipefail

packages=(
  cmake ninja-build g++ python3
  # lit's per-test --timeout needs psutil.
  python3-psutil
  # LLVM/MLIR 22: libraries, mlir-tblgen, lit, FileCheck, not, split-file.
  llvm-22-dev libmlir-22-dev mlir-22-tools llvm-22-tools
  libfmt-dev
  # TF_CONFIG's JSON, read by the Fleet role makers (header-only).
  nlohmann-json3-dev
  libeigen3-dev
  # The kernels' GEMM (oneDNN, dispatched at run time to the CPU's ISA).
  libdnnl-dev
  # Paddle ProgramDesc interop: the protobuf library and protoc.
  libprotobuf-dev protobuf-compiler
  # The gRPC transport of jobs whose roles are processes (the CMake config of
  # gRPC needs the plugin package too).
  libgrpc++-dev protobuf-compiler-grpc
  libbenchmark-dev
  libgtest-dev
  # A headless browser for the tests that render openks-run --report pages
  # (without it they are UNSUPPORTED).
  chromium
)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

sudo=""
if [[ $(id -u) -ne 0 ]]; then
  command -v sudo >/dev/null || {
    echo "install-deps: missing packages (${missing[*]}) and not root" >&2
    exit 1
  }
  sudo="sudo"
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
