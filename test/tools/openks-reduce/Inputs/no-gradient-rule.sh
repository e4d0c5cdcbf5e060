#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Interestingness test for no-gradient-rule.mlir: a variant is interesting
# when openks-append-backward still fails on it because an op on the loss
# path has no gradient rule. openks-reduce runs it as
#
#   no-gradient-rule.sh <openks-opt> <variant.mlir>
#
# (the `test-arg` option, then the variant) and, as mlir-reduce does, takes
# exit status 1 for "interesting" and 0 for "not interesting".

openks_opt=$1
variant=$2

if output=$("$openks_opt" "$variant" --openks-append-backward 2>&1); then
  exit 0
fi
if printf '%s\n' "$output" | grep -q "has no gradient rule"; then
  exit 1
fi
exit 0
