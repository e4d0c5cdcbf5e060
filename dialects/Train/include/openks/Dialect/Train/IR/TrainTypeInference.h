//===- TrainTypeInference.h - Shape rules of train ops ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The result type of each shape-changing `train` op as a function of its
// operand types. Forward ops infer their results with these rules, grad ops
// check their incoming gradient against them, and the `ps` dialect reuses the
// concatenation rule. Errors go to `loc` when it is set.
//
// Two dimensions are compatible when they are equal or either is dynamic.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_DIALECT_TRAIN_IR_TRAINTYPEINFERENCE_H
#define OPENKS_DIALECT_TRAIN_IR_TRAINTYPEINFERENCE_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/TypeRange.h"
#include <optional>

namespace openks::train {

using OptionalLoc = std::optional<mlir::Location>;

/// `[M, K] x [K, N] -> [M, N]`.
mlir::FailureOr<mlir::RankedTensorType>
inferMatmulType(OptionalLoc loc, mlir::RankedTensorType a,
                mlir::RankedTensorType b);

/// `x` op `y` where `y` has the shape of `x` or is a rank-1 bias matching the
/// last dimension of `x`; the result has the type of `x`.
mlir::FailureOr<mlir::RankedTensorType>
inferBroadcastBiasType(OptionalLoc loc, mlir::RankedTensorType x,
                       mlir::RankedTensorType y);

/// `[N, C]` logits and `[N]` labels give `[N]` losses.
mlir::FailureOr<mlir::RankedTensorType>
inferSoftmaxCrossEntropyType(OptionalLoc loc, mlir::RankedTensorType logits,
                             mlir::RankedTensorType labels);

/// Logits and binary labels of one shape give losses of that shape.
mlir::FailureOr<mlir::RankedTensorType>
inferSigmoidCrossEntropyType(OptionalLoc loc, mlir::RankedTensorType logits,
                             mlir::RankedTensorType labels);

/// Sum over `dims` (every dimension when empty), dropping them unless
/// `keepDims`.
mlir::FailureOr<mlir::RankedTensorType>
inferReduceSumType(OptionalLoc loc, mlir::RankedTensorType x,
                   llvm::ArrayRef<int64_t> dims, bool keepDims);

/// Concatenation of `inputs` (ranked tensors) along `axis`.
mlir::FailureOr<mlir::RankedTensorType>
inferConcatType(OptionalLoc loc, mlir::TypeRange inputs, int64_t axis);

/// Rows of a `[V, D]` table looked up by `ids`: `ids.shape + [D]`. Checks
/// that `paddingIdx`, when set, is a row of the table.
mlir::FailureOr<mlir::RankedTensorType>
inferEmbeddingType(OptionalLoc loc, mlir::RankedTensorType table,
                   mlir::RankedTensorType ids,
                   std::optional<int64_t> paddingIdx);

/// `[N, D]` rows and `[N, D]` or `[1, D]` rows give their `[N, 1]` cosines.
mlir::FailureOr<mlir::RankedTensorType>
inferCosSimType(OptionalLoc loc, mlir::RankedTensorType x,
                mlir::RankedTensorType y);

/// The rows `[N, ...]` of sequences with `[B]` lengths pool to `[B, ...]`.
mlir::FailureOr<mlir::RankedTensorType>
inferSequencePoolType(OptionalLoc loc, mlir::RankedTensorType x,
                      mlir::RankedTensorType lengths);

/// The rows of a `[V, D]` table at `[N]` ids, pooled over lists of `[B]`
/// lengths: `[B, D]`. Checks `paddingIdx` as inferEmbeddingType does.
mlir::FailureOr<mlir::RankedTensorType> inferEmbeddingPoolType(
    OptionalLoc loc, mlir::RankedTensorType table, mlir::RankedTensorType ids,
    mlir::RankedTensorType lengths, std::optional<int64_t> paddingIdx);

/// An `[B, D]` input with `[B]` or `[B, T]` true classes, `[V, D]` class
/// weights and `[V]` biases gives `[B]` costs (nce).
mlir::FailureOr<mlir::RankedTensorType>
inferNceType(OptionalLoc loc, mlir::RankedTensorType input,
             mlir::RankedTensorType labels, mlir::RankedTensorType weight,
             mlir::RankedTensorType bias);

/// Checks that `from` can be reshaped to `to`: same element count; with
/// dynamic dimensions, exactly one on each side and equal static products.
llvm::LogicalResult verifyReshape(OptionalLoc loc, mlir::RankedTensorType from,
                                  mlir::RankedTensorType to);

/// Checks that a tensor of rank >= 1 was given to an op working on the last
/// dimension.
llvm::LogicalResult verifyHasLastDim(OptionalLoc loc,
                                     mlir::RankedTensorType type);

/// Checks that the gradient `grad` flowing into a grad op is compatible with
/// the forward result type `forward` (same element type and rank, compatible
/// dimensions).
llvm::LogicalResult verifyGradientType(OptionalLoc loc, mlir::Type grad,
                                       mlir::RankedTensorType forward);

} // namespace openks::train

#endif // OPENKS_DIALECT_TRAIN_IR_TRAINTYPEINFERENCE_H
