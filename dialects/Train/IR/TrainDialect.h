//===- TrainDialect.h - Train dialect ---------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECTS_TRAIN_IR_TRAINDIALECT_H
#define OPENKS_DIALECTS_TRAIN_IR_TRAINDIALECT_H

#include "mlir/IR/Dialect.h"

#include "dialects/Train/IR/TrainDialect.h.inc"

#endif // OPENKS_DIALECTS_TRAIN_IR_TRAINDIALECT_H
