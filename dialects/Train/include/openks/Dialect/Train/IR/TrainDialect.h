//===- TrainDialect.h - Train dialect ---------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINDIALECT_H
#define OPENKS_DIALECT_TRAIN_IR_TRAINDIALECT_H

#include "mlir/IR/Dialect.h"

#include "openks/Dialect/Train/IR/TrainDialect.h.inc"

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINDIALECT_H
