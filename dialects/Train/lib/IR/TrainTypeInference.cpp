//===- TrainTypeInference.cpp - Shape rules of train ops ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Train/IR/TrainTypeInference.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/TypeUtilities.h"
#include "llvm/ADT/SmallSet.h"

using namespace mlir;
using namespace openks::train;

static bool areCompatibleDims(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// Picks the static one of two compatible dimensions, if any.
static int64_t refineDim(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? b : a;
}

static LogicalResult checkSameElementType(OptionalLoc loc, RankedTensorType a,
                                          RankedTensorType b) {
  if (a.getElementType() == b.getElementType())
    return success();
  return emitOptionalError(loc,
                           "operand element types differ: ", a.getElementType(),
                           " vs ", b.getElementType());
}

FailureOr<RankedTensorType> openks::train::inferMatmulType(OptionalLoc loc,
                                                           RankedTensorType a,
                                                           RankedTensorType b) {
  if (a.getRank() != 2 || b.getRank() != 2)
    return emitOptionalError(loc, "matmul operands must be rank 2, got ranks ",
                             a.getRank(), " and ", b.getRank());
  if (failed(checkSameElementType(loc, a, b)))
    return failure();
  if (!areCompatibleDims(a.getDimSize(1), b.getDimSize(0)))
    return emitOptionalError(loc,
                             "contraction dimensions differ: ", a.getDimSize(1),
                             " vs ", b.getDimSize(0));
  return RankedTensorType::get({a.getDimSize(0), b.getDimSize(1)},
                               a.getElementType());
}

FailureOr<RankedTensorType>
openks::train::inferBroadcastBiasType(OptionalLoc loc, RankedTensorType x,
                                      RankedTensorType y) {
  if (failed(checkSameElementType(loc, x, y)))
    return failure();
  if (succeeded(verifyCompatibleShape(x, y)))
    return x;
  if (y.getRank() == 1 && x.getRank() >= 1 &&
      areCompatibleDims(y.getDimSize(0), x.getShape().back()))
    return x;
  return emitOptionalError(
      loc, "right operand ", y,
      " must have the shape of the left operand or be a rank-1 bias "
      "matching its last dimension; left operand is ",
      x);
}

FailureOr<RankedTensorType> openks::train::inferSoftmaxCrossEntropyType(
    OptionalLoc loc, RankedTensorType logits, RankedTensorType labels) {
  if (logits.getRank() != 2)
    return emitOptionalError(loc,
                             "logits must be rank 2 ([batch, classes]), "
                             "got rank ",
                             logits.getRank());
  if (labels.getRank() != 1)
    return emitOptionalError(loc, "labels must be rank 1 ([batch]), got rank ",
                             labels.getRank());
  if (!areCompatibleDims(logits.getDimSize(0), labels.getDimSize(0)))
    return emitOptionalError(loc, "batch sizes differ: logits have ",
                             logits.getDimSize(0), " rows, labels ",
                             labels.getDimSize(0));
  return RankedTensorType::get(
      {refineDim(logits.getDimSize(0), labels.getDimSize(0))},
      logits.getElementType());
}

FailureOr<RankedTensorType> openks::train::inferSigmoidCrossEntropyType(
    OptionalLoc loc, RankedTensorType logits, RankedTensorType labels) {
  if (failed(checkSameElementType(loc, logits, labels)))
    return failure();
  if (failed(verifyCompatibleShape(logits, labels)))
    return emitOptionalError(loc, "labels ", labels,
                             " must have the shape of the logits ", logits);
  return logits;
}

FailureOr<RankedTensorType>
openks::train::inferReduceSumType(OptionalLoc loc, RankedTensorType x,
                                  ArrayRef<int64_t> dims, bool keepDims) {
  llvm::SmallVector<bool> reduced(x.getRank(), dims.empty());
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= x.getRank())
      return emitOptionalError(loc, "dimension ", dim,
                               " is out of range for rank ", x.getRank());
    if (reduced[dim])
      return emitOptionalError(loc, "dimension ", dim, " is listed twice");
    reduced[dim] = true;
  }
  llvm::SmallVector<int64_t> shape;
  for (auto [dim, size] : llvm::enumerate(x.getShape())) {
    if (!reduced[dim])
      shape.push_back(size);
    else if (keepDims)
      shape.push_back(1);
  }
  return RankedTensorType::get(shape, x.getElementType());
}

FailureOr<RankedTensorType> openks::train::inferConcatType(OptionalLoc loc,
                                                           TypeRange inputs,
                                                           int64_t axis) {
  if (inputs.empty())
    return emitOptionalError(loc, "concatenation needs at least one input");
  auto first = cast<RankedTensorType>(inputs.front());
  if (axis < 0 || axis >= first.getRank())
    return emitOptionalError(loc, "axis ", axis, " is out of range for rank ",
                             first.getRank());
  llvm::SmallVector<int64_t> shape(first.getShape());
  for (auto [index, type] : llvm::enumerate(inputs.drop_front())) {
    auto input = cast<RankedTensorType>(type);
    if (input.getRank() != first.getRank())
      return emitOptionalError(loc, "input #", index + 1, " has rank ",
                               input.getRank(), ", expected ", first.getRank());
    if (failed(checkSameElementType(loc, first, input)))
      return failure();
    for (int64_t dim = 0; dim < first.getRank(); ++dim) {
      int64_t size = input.getDimSize(dim);
      if (dim == axis) {
        shape[dim] =
            ShapedType::isDynamic(shape[dim]) || ShapedType::isDynamic(size)
                ? ShapedType::kDynamic
                : shape[dim] + size;
        continue;
      }
      if (!areCompatibleDims(shape[dim], size))
        return emitOptionalError(loc, "input #", index + 1, " has size ", size,
                                 " in dimension ", dim, ", expected ",
                                 shape[dim]);
      shape[dim] = refineDim(shape[dim], size);
    }
  }
  return RankedTensorType::get(shape, first.getElementType());
}

FailureOr<RankedTensorType>
openks::train::inferEmbeddingType(OptionalLoc loc, RankedTensorType table,
                                  RankedTensorType ids,
                                  std::optional<int64_t> paddingIdx) {
  if (table.getRank() != 2)
    return emitOptionalError(loc,
                             "table must be rank 2 ([rows, width]), got "
                             "rank ",
                             table.getRank());
  int64_t rows = table.getDimSize(0);
  if (paddingIdx && (*paddingIdx < 0 ||
                     (!ShapedType::isDynamic(rows) && *paddingIdx >= rows)))
    return emitOptionalError(loc, "padding_idx ", *paddingIdx,
                             " is not a row of a table with ", rows, " rows");
  llvm::SmallVector<int64_t> shape(ids.getShape());
  shape.push_back(table.getDimSize(1));
  return RankedTensorType::get(shape, table.getElementType());
}

FailureOr<RankedTensorType> openks::train::inferCosSimType(OptionalLoc loc,
                                                           RankedTensorType x,
                                                           RankedTensorType y) {
  if (x.getRank() != 2 || y.getRank() != 2)
    return emitOptionalError(loc,
                             "cos_sim operands must be rank 2 ([rows, "
                             "width]), got ranks ",
                             x.getRank(), " and ", y.getRank());
  if (failed(checkSameElementType(loc, x, y)))
    return failure();
  if (!areCompatibleDims(x.getDimSize(1), y.getDimSize(1)))
    return emitOptionalError(loc, "widths differ: ", x.getDimSize(1), " vs ",
                             y.getDimSize(1));
  int64_t rows = x.getDimSize(0), yRows = y.getDimSize(0);
  if (yRows == 1)
    return RankedTensorType::get({rows, 1}, x.getElementType());
  if (!areCompatibleDims(rows, yRows))
    return emitOptionalError(loc, "y has ", yRows,
                             " rows; expected 1 or the rows of x, ", rows);
  return RankedTensorType::get({refineDim(rows, yRows), 1}, x.getElementType());
}

FailureOr<RankedTensorType>
openks::train::inferSequencePoolType(OptionalLoc loc, RankedTensorType x,
                                     RankedTensorType lengths) {
  if (x.getRank() < 1)
    return emitOptionalError(
        loc, "pooled operand must have rank >= 1 (its rows are the "
             "sequences' rows)");
  if (lengths.getRank() != 1)
    return emitOptionalError(loc,
                             "lengths must be rank 1 ([sequences]), got rank ",
                             lengths.getRank());
  llvm::SmallVector<int64_t> shape(x.getShape());
  shape.front() = lengths.getDimSize(0);
  return RankedTensorType::get(shape, x.getElementType());
}

FailureOr<RankedTensorType> openks::train::inferEmbeddingPoolType(
    OptionalLoc loc, RankedTensorType table, RankedTensorType ids,
    RankedTensorType lengths, std::optional<int64_t> paddingIdx) {
  if (ids.getRank() != 1)
    return emitOptionalError(
        loc, "ids must be rank 1 (the ids of all lists), got rank ",
        ids.getRank());
  FailureOr<RankedTensorType> rows =
      inferEmbeddingType(loc, table, ids, paddingIdx);
  if (failed(rows))
    return failure();
  return inferSequencePoolType(loc, *rows, lengths);
}

FailureOr<RankedTensorType> openks::train::inferNceType(OptionalLoc loc,
                                                        RankedTensorType input,
                                                        RankedTensorType labels,
                                                        RankedTensorType weight,
                                                        RankedTensorType bias) {
  if (input.getRank() != 2)
    return emitOptionalError(loc,
                             "input must be rank 2 ([batch, width]), got rank ",
                             input.getRank());
  if (weight.getRank() != 2)
    return emitOptionalError(
        loc, "weight must be rank 2 ([classes, width]), got rank ",
        weight.getRank());
  if (bias.getRank() != 1)
    return emitOptionalError(loc, "bias must be rank 1 ([classes]), got rank ",
                             bias.getRank());
  if (labels.getRank() != 1 && labels.getRank() != 2)
    return emitOptionalError(loc,
                             "labels must be rank 1 ([batch]) or 2 ([batch, "
                             "true classes]), got rank ",
                             labels.getRank());
  if (failed(checkSameElementType(loc, input, weight)) ||
      failed(checkSameElementType(loc, input, bias)))
    return failure();
  if (!areCompatibleDims(input.getDimSize(1), weight.getDimSize(1)))
    return emitOptionalError(loc, "widths differ: input has ",
                             input.getDimSize(1), " columns, weight ",
                             weight.getDimSize(1));
  if (!areCompatibleDims(weight.getDimSize(0), bias.getDimSize(0)))
    return emitOptionalError(loc, "class counts differ: weight has ",
                             weight.getDimSize(0), " rows, bias ",
                             bias.getDimSize(0));
  if (!areCompatibleDims(input.getDimSize(0), labels.getDimSize(0)))
    return emitOptionalError(loc, "batch sizes differ: input has ",
                             input.getDimSize(0), " rows, labels ",
                             labels.getDimSize(0));
  return RankedTensorType::get(
      {refineDim(input.getDimSize(0), labels.getDimSize(0))},
      input.getElementType());
}

/// Returns the product of the static dimensions and the number of dynamic
/// ones.
static std::pair<int64_t, int64_t> staticProduct(RankedTensorType type) {
  int64_t product = 1, dynamic = 0;
  for (int64_t size : type.getShape()) {
    if (ShapedType::isDynamic(size))
      ++dynamic;
    else
      product *= size;
  }
  return {product, dynamic};
}

LogicalResult openks::train::verifyReshape(OptionalLoc loc,
                                           RankedTensorType from,
                                           RankedTensorType to) {
  auto [fromProduct, fromDynamic] = staticProduct(from);
  auto [toProduct, toDynamic] = staticProduct(to);
  if ((fromDynamic || toDynamic) && (fromDynamic != 1 || toDynamic != 1))
    return emitOptionalError(loc,
                             "a reshape with dynamic dimensions needs "
                             "exactly one on each side, got ",
                             from, " to ", to);
  if (fromProduct != toProduct)
    return emitOptionalError(
        loc, "reshape must keep the number of elements: ", from, " has ",
        fromProduct, fromDynamic ? " per batch row" : "", ", ", to, " has ",
        toProduct);
  return success();
}

LogicalResult openks::train::verifyHasLastDim(OptionalLoc loc,
                                              RankedTensorType type) {
  if (type.getRank() >= 1)
    return success();
  return emitOptionalError(loc, "operand must have rank >= 1 (the op works on "
                                "its last dimension)");
}

LogicalResult openks::train::verifyGradientType(OptionalLoc loc, Type grad,
                                                RankedTensorType forward) {
  if (getElementTypeOrSelf(grad) == forward.getElementType() &&
      succeeded(verifyCompatibleShape(grad, forward)))
    return success();
  return emitOptionalError(loc, "incoming gradient type ", grad,
                           " does not match the forward result type ", forward);
}
