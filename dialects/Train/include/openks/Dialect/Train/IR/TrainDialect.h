//===- TrainDialect.h - Train dialect ---------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINDIALECT_H
#define OPENKS_DIALECT_TRAIN_IR_TRAINDIALECT_H

#include "mlir/IR/Dialect.h"

#include "openks/Dialect/Train/IR/TrainDialect.h.inc"

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINDIALECT_H
