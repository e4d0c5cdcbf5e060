//===- TrainTypeInference.cpp - Shape rules of train ops ------------------===//
//
// Part of the OpenKS Fleet compiler.
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
