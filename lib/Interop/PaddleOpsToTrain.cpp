//===- PaddleOpsToTrain.cpp - One Paddle op onto train ops ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The handlers that map each Paddle op with a `train` counterpart. A
// handler reads the op's inputs and attributes through the StepBuilder,
// refuses what the counterpart cannot express (transposes, soft labels,
// broadcasts other than a trailing bias, ...), creates train ops and binds
// the op's outputs. The train verifiers check the types afterwards. The
// element-wise and math ops are in PaddleMathOpsToTrain.cpp.
//
//===----------------------------------------------------------------------===//

#include "PaddleToTrain.h"
#include "openks/Support/Limits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::interop;
using namespace openks::train;

//===----------------------------------------------------------------------===//
// Matrix products
//===----------------------------------------------------------------------===//

/// Checks the attributes of mul, matmul and matmul_v2 (and of their grads)
/// and returns the x_num_col_dims of a mul (1 otherwise).
static FailureOr<int64_t> checkMatmulAttrs(StepBuilder &b, StringRef type) {
  if (type.starts_with("mul")) {
    if (failed(b.checkInt("y_num_col_dims", 1)))
      return failure();
    return b.getInt("x_num_col_dims", 1);
  }
  if (type.starts_with("matmul_v2")) {
    if (failed(b.checkBool("trans_x", false)) ||
        failed(b.checkBool("trans_y", false)))
      return failure();
    return 1;
  }
  if (failed(b.checkBool("transpose_X", false)) ||
      failed(b.checkBool("transpose_Y", false)) ||
      failed(b.checkFloat("alpha", 1.0)))
    return failure();
  return 1;
}

/// Flattens `x` into a matrix as Paddle's mul does: the first `numColDims`
/// dimensions become the rows, the others the columns.
static FailureOr<Value> flattenForMul(StepBuilder &b, Value x,
                                      int64_t numColDims) {
  auto type = cast<RankedTensorType>(x.getType());
  if (type.getRank() == 2 && numColDims == 1)
    return x;
  if (numColDims < 1 || numColDims >= type.getRank())
    return b.fail() << "x_num_col_dims " << numColDims << " does not split a "
                    << type.getRank() << "-dimensional X";
  auto product = [&](ArrayRef<int64_t> dims) {
    int64_t size = 1;
    for (int64_t dim : dims) {
      if (ShapedType::isDynamic(dim))
        return ShapedType::kDynamic;
      size *= dim;
    }
    return size;
  };
  ArrayRef<int64_t> shape = type.getShape();
  auto matrix = RankedTensorType::get({product(shape.take_front(numColDims)),
                                       product(shape.drop_front(numColDims))},
                                      type.getElementType());
  FailureOr<ReshapeOp> reshaped = b.create<ReshapeOp>(matrix, x);
  if (failed(reshaped))
    return failure();
  return reshaped->getOut();
}

static LogicalResult mapMatmul(StepBuilder &b) {
  FailureOr<int64_t> numColDims = checkMatmulAttrs(b, b.getOp().getOpType());
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> y = b.getInput("Y");
  if (failed(numColDims) || failed(x) || failed(y))
    return failure();
  FailureOr<Value> matrix = flattenForMul(b, *x, *numColDims);
  if (failed(matrix))
    return failure();
  return b.setOutput("Out", b.create<MatmulOp>(*matrix, *y));
}

static LogicalResult mapMatmulGrad(StepBuilder &b) {
  FailureOr<int64_t> numColDims = checkMatmulAttrs(b, b.getOp().getOpType());
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> y = b.getInput("Y");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(numColDims) || failed(x) || failed(y) || failed(dout))
    return failure();
  FailureOr<Value> matrix = flattenForMul(b, *x, *numColDims);
  if (failed(matrix))
    return failure();
  FailureOr<MatmulGradOp> grads = b.create<MatmulGradOp>(*matrix, *y, *dout);
  if (failed(grads))
    return failure();
  Value dx = grads->getDa();
  if (*matrix != *x) {
    FailureOr<ReshapeGradOp> reshaped = b.create<ReshapeGradOp>(*x, dx);
    if (failed(reshaped))
      return failure();
    dx = reshaped->getDx();
  }
  if (failed(b.setOutput(grad("X"), dx)))
    return failure();
  return b.setOutput(grad("Y"), grads->getDb());
}

//===----------------------------------------------------------------------===//
// Losses and reductions
//===----------------------------------------------------------------------===//

/// Checks the hard-label options of softmax_with_cross_entropy and
/// cross_entropy.
static LogicalResult checkHardLabels(StepBuilder &b) {
  if (failed(b.checkBool("soft_label", false)))
    return failure();
  FailureOr<int64_t> ignoreIndex = b.getInt("ignore_index", -100);
  if (failed(ignoreIndex))
    return failure();
  if (*ignoreIndex >= 0)
    return b.fail() << "ignores label " << *ignoreIndex
                    << "; train's cross entropy ignores no label";
  return success();
}

static LogicalResult mapSoftmaxWithCrossEntropy(StepBuilder &b) {
  FailureOr<Value> logits = b.getInput("Logits");
  FailureOr<Value> labels = b.getInput("Label");
  if (failed(logits) || failed(labels) || failed(checkHardLabels(b)) ||
      failed(checkLastAxis(b, *logits)))
    return failure();
  for (StringRef name : b.getOutputNames("Softmax"))
    b.setSoftmaxOf(name, *logits);
  return b.setOutput("Loss", b.create<SoftmaxCrossEntropyOp>(*logits, *labels));
}

/// cross_entropy and cross_entropy2 of a softmax: the softmax cross
/// entropy of the softmax's logits.
static LogicalResult mapCrossEntropy(StepBuilder &b) {
  SmallVector<StringRef> names = b.getInputNames("X");
  Value logits = names.size() == 1 ? b.getSoftmaxOf(names.front()) : Value();
  if (!logits)
    return b.fail() << "takes probabilities that no softmax computes; train "
                       "has a cross entropy of logits only";
  FailureOr<Value> labels = b.getInput("Label");
  if (failed(labels) || failed(checkHardLabels(b)))
    return failure();
  return b.setOutput("Y", b.create<SoftmaxCrossEntropyOp>(logits, *labels));
}

static LogicalResult mapSoftmaxWithCrossEntropyGrad(StepBuilder &b) {
  SmallVector<StringRef> names = b.getInputNames("Softmax");
  Value logits = names.size() == 1 ? b.getSoftmaxOf(names.front()) : Value();
  if (!logits)
    return b.fail() << "takes a Softmax that no softmax_with_cross_entropy "
                       "before it computes";
  FailureOr<Value> labels = b.getInput("Label");
  FailureOr<Value> dloss = b.getInput(grad("Loss"));
  if (failed(labels) || failed(dloss) || failed(checkHardLabels(b)))
    return failure();
  return b.setOutput(grad("Logits"), b.create<SoftmaxCrossEntropyGradOp>(
                                         logits, *labels, *dloss));
}

static LogicalResult checkSigmoidCrossEntropyAttrs(StepBuilder &b) {
  if (failed(b.checkBool("normalize", false)) ||
      failed(b.checkInt("ignore_index", -100)))
    return failure();
  return success();
}

static LogicalResult mapSigmoidCrossEntropy(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> labels = b.getInput("Label");
  if (failed(x) || failed(labels) || failed(checkSigmoidCrossEntropyAttrs(b)))
    return failure();
  return b.setOutput("Out", b.create<SigmoidCrossEntropyOp>(*x, *labels));
}

static LogicalResult mapSigmoidCrossEntropyGrad(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> labels = b.getInput("Label");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(x) || failed(labels) || failed(dout) ||
      failed(checkSigmoidCrossEntropyAttrs(b)))
    return failure();
  return b.setOutput(grad("X"),
                     b.create<SigmoidCrossEntropyGradOp>(*x, *labels, *dout));
}

/// A margin_rank_loss whose Label is ones (a fill_constant_batch_size_like
/// of 1 like X1 or X2) is train's margin loss of X2 against X1.
static LogicalResult mapMarginRankLoss(StepBuilder &b) {
  FailureOr<Value> x1 = b.getInput("X1");
  FailureOr<Value> x2 = b.getInput("X2");
  FailureOr<double> margin = b.getFloat("margin", 0.0);
  if (failed(x1) || failed(x2) || failed(margin))
    return failure();
  SmallVector<StringRef> labels = b.getInputNames("Label");
  const auto *ones =
      labels.size() == 1 ? b.getOnesLike(labels.front()) : nullptr;
  auto type = cast<RankedTensorType>(x1->getType());
  auto isLikeScores = [&](StringRef like) {
    return llvm::is_contained(b.getInputNames("X1"), like) ||
           llvm::is_contained(b.getInputNames("X2"), like);
  };
  if (!ones || !isLikeScores(ones->first) ||
      ones->second.size() != static_cast<size_t>(type.getRank()) ||
      !llvm::equal(ArrayRef(ones->second).drop_front(),
                   type.getShape().drop_front()))
    return b.fail() << "has a Label other than ones like X1, which "
                       "train.margin_loss takes";
  return b.setOutput("Out", b.create<MarginLossOp>(*x2, *x1, APFloat(*margin)));
}

static LogicalResult mapMean(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  if (failed(x))
    return failure();
  return b.setOutput("Out", b.create<MeanOp>(*x));
}

static LogicalResult mapMeanGrad(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(x) || failed(dout))
    return failure();
  FailureOr<Value> scalar = b.toScalar(*dout);
  if (failed(scalar))
    return failure();
  return b.setOutput(grad("X"), b.create<MeanGradOp>(*x, *scalar));
}

/// Reads reduce_sum's dims (`dim`, `reduce_all`) for `x`, each in [0, rank).
static FailureOr<SmallVector<int64_t>> getReduceDims(StepBuilder &b, Value x) {
  FailureOr<bool> reduceAll = b.getBool("reduce_all", false);
  FailureOr<SmallVector<int64_t>> dims = b.getInts("dim");
  if (failed(reduceAll) || failed(dims))
    return failure();
  if (*reduceAll)
    return SmallVector<int64_t>();
  int64_t rank = cast<RankedTensorType>(x.getType()).getRank();
  for (int64_t &dim : *dims)
    if (dim < 0)
      dim += rank;
  return dims;
}

static LogicalResult mapReduceSum(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  if (failed(x))
    return failure();
  FailureOr<SmallVector<int64_t>> dims = getReduceDims(b, *x);
  FailureOr<bool> keepDims = b.getBool("keep_dim", false);
  if (failed(dims) || failed(keepDims))
    return failure();
  return b.setOutput("Out", b.create<ReduceSumOp>(*x, *dims, *keepDims));
}

static LogicalResult mapReduceSumGrad(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(x) || failed(dout))
    return failure();
  FailureOr<SmallVector<int64_t>> dims = getReduceDims(b, *x);
  FailureOr<bool> keepDims = b.getBool("keep_dim", false);
  if (failed(dims) || failed(keepDims))
    return failure();
  return b.setOutput(grad("X"),
                     b.create<ReduceSumGradOp>(*x, *dout, *dims, *keepDims));
}

//===----------------------------------------------------------------------===//
// Shapes
//===----------------------------------------------------------------------===//

/// Returns the type reshape2 gives `x` for the `shape` attribute: 0 copies
/// X's dimension, -1 is what remains (dynamic if X has a dynamic one).
static FailureOr<RankedTensorType> getReshapeType(StepBuilder &b, Value x,
                                                  ArrayRef<int64_t> shape) {
  auto type = cast<RankedTensorType>(x.getType());
  SmallVector<int64_t> dims;
  int64_t known = 1;
  std::optional<size_t> inferred;
  for (auto [index, entry] : llvm::enumerate(shape)) {
    int64_t dim = entry;
    if (dim == 0 && index < static_cast<size_t>(type.getRank()))
      dim = type.getDimSize(index);
    if (dim == -1 && !inferred) {
      inferred = index;
      dims.push_back(ShapedType::kDynamic);
      continue;
    }
    if (ShapedType::isDynamic(dim)) {
      dims.push_back(dim);
      continue;
    }
    std::optional<int64_t> product = checkedMul(known, dim);
    if (dim < 1 || !product || *product > kMaxTensorElements)
      return b.fail() << "has shape entry " << entry
                      << ", which no train tensor has";
    known = *product;
    dims.push_back(dim);
  }
  if (inferred && type.hasStaticShape() && type.getNumElements() % known == 0)
    dims[*inferred] = type.getNumElements() / known;
  return RankedTensorType::get(dims, type.getElementType());
}

static LogicalResult mapReshape(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<SmallVector<int64_t>> shape = b.getInts("shape");
  if (failed(x) || failed(shape) || failed(b.checkNoInput("Shape")) ||
      failed(b.checkNoInput("ShapeTensor")))
    return failure();
  FailureOr<RankedTensorType> type = getReshapeType(b, *x, *shape);
  if (failed(type))
    return failure();
  for (StringRef name : b.getOutputNames("XShape"))
    b.setReshapeInput(name, *x);
  return b.setOutput("Out", b.create<ReshapeOp>(*type, *x));
}

static LogicalResult mapReshapeGrad(StepBuilder &b) {
  SmallVector<StringRef> names = b.getInputNames("XShape");
  Value x = names.size() == 1 ? b.getReshapeInput(names.front()) : Value();
  if (!x)
    return b.fail() << "takes an XShape that no reshape2 before it computes";
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(dout))
    return failure();
  return b.setOutput(grad("X"), b.create<ReshapeGradOp>(x, *dout));
}

/// Reads concat's axis for inputs of `rank`.
static FailureOr<int64_t> getConcatAxis(StepBuilder &b, int64_t rank) {
  FailureOr<int64_t> axis = b.getInt("axis", 0);
  if (failed(axis) || failed(b.checkNoInput("AxisTensor")))
    return failure();
  return *axis < 0 ? *axis + rank : *axis;
}

static LogicalResult mapConcat(StepBuilder &b) {
  FailureOr<SmallVector<Value>> inputs = b.getInputs("X");
  if (failed(inputs))
    return failure();
  FailureOr<int64_t> axis = getConcatAxis(
      b, cast<RankedTensorType>(inputs->front().getType()).getRank());
  if (failed(axis))
    return failure();
  return b.setOutput("Out", b.create<ConcatOp>(*inputs, *axis));
}

static LogicalResult mapConcatGrad(StepBuilder &b) {
  FailureOr<SmallVector<Value>> inputs = b.getInputs("X");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(inputs) || failed(dout))
    return failure();
  FailureOr<int64_t> axis = getConcatAxis(
      b, cast<RankedTensorType>(inputs->front().getType()).getRank());
  if (failed(axis))
    return failure();
  FailureOr<ConcatGradOp> grads = b.create<ConcatGradOp>(*inputs, *dout, *axis);
  if (failed(grads))
    return failure();
  return b.setOutputs(grad("X"), grads->getDinputs());
}

/// Reads padding_idx for a table with `rows` rows: -1 (none) or a row,
/// counted from the end when negative, as Paddle does. (is_sparse and
/// is_distributed mark the table's train.param sparse.)
static FailureOr<IntegerAttr> getPaddingIdx(StepBuilder &b, Value table) {
  FailureOr<int64_t> paddingIdx = b.getInt("padding_idx", -1);
  if (failed(paddingIdx))
    return failure();
  if (*paddingIdx == -1)
    return IntegerAttr();
  int64_t index = *paddingIdx;
  int64_t rows = cast<RankedTensorType>(table.getType()).getDimSize(0);
  if (index < 0 && !ShapedType::isDynamic(rows))
    index += rows;
  return b.getBuilder().getI64IntegerAttr(index);
}

static LogicalResult mapLookupTable(StepBuilder &b) {
  FailureOr<Value> table = b.getInput("W");
  FailureOr<Value> ids = b.getInput("Ids");
  if (failed(table) || failed(ids))
    return failure();
  FailureOr<IntegerAttr> paddingIdx = getPaddingIdx(b, *table);
  if (failed(paddingIdx))
    return failure();
  if (failed(
          b.setOutput("Out", b.create<EmbeddingOp>(*table, *ids, *paddingIdx))))
    return failure();
  // The rows keep the LoD of the ids.
  if (Value lengths = b.getLengthsOf(b.getInputNames("Ids").front()))
    for (StringRef name : b.getOutputNames("Out"))
      b.setLengthsOf(name, lengths);
  return success();
}

/// A sequence_pool of a fed input's LoD (or a lookup's of its ids), whose
/// lengths are a step input of their own.
static LogicalResult mapSequencePool(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<std::string> pooltype = b.getString("pooltype", "AVERAGE");
  if (failed(x) || failed(pooltype) || failed(b.checkFloat("pad_value", 0.0)))
    return failure();
  Value lengths = b.getLengthsOf(b.getInputNames("X").front());
  if (!lengths)
    return b.fail() << "pools the LoD of a variable that is neither a fed "
                       "input nor a lookup of one's ids";
  std::optional<PoolType> type =
      llvm::StringSwitch<std::optional<PoolType>>(*pooltype)
          .Case("SUM", PoolType::Sum)
          .Case("AVERAGE", PoolType::Mean)
          .Case("SQRT", PoolType::Sqrt)
          .Default(std::nullopt);
  if (!type)
    return b.fail() << "has pooltype '" << *pooltype
                    << "'; train pools by SUM, AVERAGE and SQRT";
  return b.setOutput("Out", b.create<SequencePoolOp>(*x, lengths, *type));
}

static LogicalResult mapLookupTableGrad(StepBuilder &b) {
  FailureOr<Value> table = b.getInput("W");
  FailureOr<Value> ids = b.getInput("Ids");
  FailureOr<Value> dout = b.getInput(grad("Out"));
  if (failed(table) || failed(ids) || failed(dout))
    return failure();
  FailureOr<IntegerAttr> paddingIdx = getPaddingIdx(b, *table);
  if (failed(paddingIdx))
    return failure();
  auto tableType = cast<RankedTensorType>(table->getType());
  Type gradType = tableType;
  if (b.isSparseTable(*table))
    gradType = RowsType::get(tableType);
  return b.setOutput(
      grad("W"), b.create<EmbeddingGradOp>(gradType, *ids, *dout, *paddingIdx));
}

//===----------------------------------------------------------------------===//
// Constants, copies and sums
//===----------------------------------------------------------------------===//

/// Records a fill_constant_batch_size_like of ones (the Label of a
/// margin_rank_loss), which has no value of its own in train.
static LogicalResult mapFillConstantBatchSizeLike(StepBuilder &b) {
  FailureOr<double> value = b.getFloat("value", 0.0);
  FailureOr<SmallVector<int64_t>> shape = b.getInts("shape");
  SmallVector<StringRef> inputs = b.getInputNames("Input");
  SmallVector<StringRef> outputs = b.getOutputNames("Out");
  if (failed(value) || failed(shape) ||
      failed(b.checkInt("input_dim_idx", 0)) ||
      failed(b.checkInt("output_dim_idx", 0)))
    return failure();
  if (*value != 1.0 || inputs.size() != 1 || outputs.size() != 1)
    return b.fail() << "fills with " << *value
                    << "; train has ones like a batch only as the Label of "
                       "margin_rank_loss";
  b.setOnesLike(outputs.front(), inputs.front(), *shape);
  return success();
}

static LogicalResult mapScale(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  FailureOr<double> factor = b.getFloat("scale", 1.0);
  if (failed(x) || failed(factor) || failed(b.checkNoInput("ScaleTensor")) ||
      failed(b.checkFloat("bias", 0.0)))
    return failure();
  return b.setOutput("Out", b.create<ScaleOp>(*x, APFloat(*factor)));
}

/// Returns the element type of Paddle dtype `dtype` (FP32, FP64, INT64).
static Type getElementType(Builder &builder, int64_t dtype) {
  switch (static_cast<paddle::VarTypeKind>(dtype)) {
  case paddle::VarTypeKind::FP32:
    return builder.getF32Type();
  case paddle::VarTypeKind::FP64:
    return builder.getF64Type();
  case paddle::VarTypeKind::Int64:
    return builder.getI64Type();
  default:
    return {};
  }
}

static LogicalResult mapFillConstant(StepBuilder &b) {
  FailureOr<SmallVector<int64_t>> shape = b.getInts("shape");
  FailureOr<int64_t> dtype = b.getInt("dtype", 5);
  FailureOr<double> value = b.getFloat("value", 0.0);
  FailureOr<std::string> text = b.getString("str_value", "");
  if (failed(shape) || failed(dtype) || failed(value) || failed(text) ||
      failed(b.checkNoInput("ValueTensor")) ||
      failed(b.checkNoInput("ShapeTensor")) ||
      failed(b.checkNoInput("ShapeTensorList")))
    return failure();
  Type elementType = getElementType(b.getBuilder(), *dtype);
  if (!elementType)
    return b.fail() << "fills dtype " << *dtype
                    << "; train fills f32, f64 and i64 tensors";
  if (shape->size() > static_cast<size_t>(kMaxTensorRank) ||
      !boundedProduct(*shape) || llvm::is_contained(*shape, 0))
    return b.fail() << "fills a shape no train tensor has";
  double fill = *value;
  if (!text->empty() && !llvm::to_float(*text, fill))
    return b.fail() << "has str_value '" << *text << "', not a number";
  auto type = RankedTensorType::get(*shape, elementType);
  return b.setOutput("Out", b.create<FillOp>(type, APFloat(fill)));
}

/// assign: the value under another name (a write, for a parameter), or a
/// train.stop_gradient if the variable assigned to stops gradients (as the
/// exporter writes train.stop_gradient).
static LogicalResult mapAssign(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  if (failed(x))
    return failure();
  SmallVector<StringRef> outs = b.getOutputNames("Out");
  if (outs.size() != 1)
    return b.fail() << "assigns to " << outs.size() << " variables";
  if (b.stopsGradient(outs.front()))
    return b.setOutput("Out", b.create<StopGradientOp>(*x));
  return b.setOutput("Out", *x);
}

static LogicalResult mapIncrement(StepBuilder &b) {
  FailureOr<Value> x = b.getInput("X");
  if (failed(x) || failed(b.checkFloat("step", 1.0)))
    return failure();
  FailureOr<Value> scalar = b.toScalar(*x);
  if (failed(scalar))
    return failure();
  return b.setOutput("Out", b.create<IncrementOp>(*scalar));
}

/// Paddle's sum: of SELECTED_ROWS (row-sparse values) a merge, else the
/// dense sum, row-sparse inputs scattered first.
static LogicalResult mapSum(StepBuilder &b) {
  FailureOr<SmallVector<Value>> inputs = b.getInputs("X");
  if (failed(inputs))
    return failure();
  auto isRows = [](Value value) { return isa<RowsType>(value.getType()); };
  if (llvm::all_of(*inputs, isRows))
    return b.setOutput("Out", b.create<MergeRowsOp>(*inputs));
  for (Value &input : *inputs) {
    if (!isRows(input))
      continue;
    FailureOr<RowsToDenseOp> dense = b.create<RowsToDenseOp>(
        cast<RowsType>(input.getType()).getTableType(), input);
    if (failed(dense))
      return failure();
    input = dense->getOut();
  }
  Value sum = inputs->front();
  for (Value input : ArrayRef(*inputs).drop_front()) {
    FailureOr<AddOp> add = b.create<AddOp>(sum, input);
    if (failed(add))
      return failure();
    sum = add->getOut();
  }
  return b.setOutput("Out", sum);
}

//===----------------------------------------------------------------------===//
// Optimizers
//===----------------------------------------------------------------------===//

/// Reads the gradient and the rank-0 learning rate of an optimizer op. A
/// row-sparse gradient (SELECTED_ROWS) is made dense for an optimizer whose
/// Paddle kernel updates every row (`updatesEveryRow`), as momentum and
/// adam without lazy_mode do.
static LogicalResult getGradAndRate(StepBuilder &b, Value &gradient,
                                    Value &rate, bool updatesEveryRow = false) {
  FailureOr<Value> g = b.getInput("Grad");
  FailureOr<Value> lr = b.getInput("LearningRate");
  if (failed(g) || failed(lr))
    return failure();
  FailureOr<Value> scalar = b.toScalar(*lr);
  if (failed(scalar))
    return failure();
  gradient = *g;
  rate = *scalar;
  auto rows = dyn_cast<RowsType>(gradient.getType());
  if (!rows || !updatesEveryRow)
    return success();
  FailureOr<RowsToDenseOp> dense =
      b.create<RowsToDenseOp>(rows.getTableType(), gradient);
  if (failed(dense))
    return failure();
  gradient = dense->getOut();
  return success();
}

static LogicalResult mapSgd(StepBuilder &b) {
  Value g, lr;
  FailureOr<FlatSymbolRefAttr> param = b.getUpdatedParam("Param", "ParamOut");
  if (failed(param) || failed(getGradAndRate(b, g, lr)))
    return failure();
  return b.create<SgdOp>(*param, g, lr);
}

static LogicalResult mapMomentum(StepBuilder &b) {
  Value g, lr;
  FailureOr<FlatSymbolRefAttr> param = b.getUpdatedParam("Param", "ParamOut");
  FailureOr<FlatSymbolRefAttr> velocity =
      b.getUpdatedParam("Velocity", "VelocityOut");
  FailureOr<double> mu = b.getFloat("mu", 0.9);
  FailureOr<bool> nesterov = b.getBool("use_nesterov", false);
  FailureOr<std::string> regularization =
      b.getString("regularization_method", "");
  if (failed(param) || failed(velocity) || failed(mu) || failed(nesterov) ||
      failed(regularization) || failed(b.checkFloat("rescale_grad", 1.0)) ||
      failed(getGradAndRate(b, g, lr, /*updatesEveryRow=*/true)))
    return failure();
  if (!regularization->empty())
    return b.fail() << "regularizes with '" << *regularization
                    << "'; openks-append-optimizer adds regularization as "
                       "ops of its own";
  return b.create<MomentumOp>(
      *param, g, lr, *velocity, b.getBuilder().getF64FloatAttr(*mu),
      *nesterov ? b.getBuilder().getUnitAttr() : UnitAttr());
}

static LogicalResult mapAdam(StepBuilder &b) {
  Value g, lr;
  FailureOr<FlatSymbolRefAttr> param = b.getUpdatedParam("Param", "ParamOut");
  FailureOr<FlatSymbolRefAttr> moment1 =
      b.getUpdatedParam("Moment1", "Moment1Out");
  FailureOr<FlatSymbolRefAttr> moment2 =
      b.getUpdatedParam("Moment2", "Moment2Out");
  FailureOr<FlatSymbolRefAttr> beta1Pow =
      b.getUpdatedParam("Beta1Pow", "Beta1PowOut");
  FailureOr<FlatSymbolRefAttr> beta2Pow =
      b.getUpdatedParam("Beta2Pow", "Beta2PowOut");
  FailureOr<double> beta1 = b.getFloat("beta1", 0.9);
  FailureOr<double> beta2 = b.getFloat("beta2", 0.999);
  FailureOr<double> epsilon = b.getFloat("epsilon", 1.0e-8);
  FailureOr<bool> lazy = b.getBool("lazy_mode", false);
  if (failed(param) || failed(moment1) || failed(moment2) || failed(beta1Pow) ||
      failed(beta2Pow) || failed(beta1) || failed(beta2) || failed(epsilon) ||
      failed(lazy) || failed(b.checkNoInput("Beta1Tensor")) ||
      failed(b.checkNoInput("Beta2Tensor")) ||
      failed(getGradAndRate(b, g, lr, /*updatesEveryRow=*/!*lazy)))
    return failure();
  Builder &builder = b.getBuilder();
  return b.create<AdamOp>(*param, g, lr, *moment1, *moment2, *beta1Pow,
                          *beta2Pow, builder.getF64FloatAttr(*beta1),
                          builder.getF64FloatAttr(*beta2),
                          builder.getF64FloatAttr(*epsilon));
}

static LogicalResult mapAdagrad(StepBuilder &b) {
  Value g, lr;
  FailureOr<FlatSymbolRefAttr> param = b.getUpdatedParam("Param", "ParamOut");
  FailureOr<FlatSymbolRefAttr> moment =
      b.getUpdatedParam("Moment", "MomentOut");
  FailureOr<double> epsilon = b.getFloat("epsilon", 1.0e-6);
  if (failed(param) || failed(moment) || failed(epsilon) ||
      failed(getGradAndRate(b, g, lr)))
    return failure();
  return b.create<AdagradOp>(*param, g, lr, *moment,
                             b.getBuilder().getF64FloatAttr(*epsilon));
}

//===----------------------------------------------------------------------===//
// The table
//===----------------------------------------------------------------------===//

OpHandler openks::interop::lookupOpHandler(StringRef type) {
  return llvm::StringSwitch<OpHandler>(type)
      .Cases({"mul", "matmul", "matmul_v2"}, mapMatmul)
      .Cases({"mul_grad", "matmul_grad", "matmul_v2_grad"}, mapMatmulGrad)
      .Case("softmax_with_cross_entropy", mapSoftmaxWithCrossEntropy)
      .Case("softmax_with_cross_entropy_grad", mapSoftmaxWithCrossEntropyGrad)
      .Cases({"cross_entropy", "cross_entropy2"}, mapCrossEntropy)
      .Case("sigmoid_cross_entropy_with_logits", mapSigmoidCrossEntropy)
      .Case("sigmoid_cross_entropy_with_logits_grad",
            mapSigmoidCrossEntropyGrad)
      .Case("margin_rank_loss", mapMarginRankLoss)
      .Case("mean", mapMean)
      .Case("mean_grad", mapMeanGrad)
      .Case("reduce_sum", mapReduceSum)
      .Case("reduce_sum_grad", mapReduceSumGrad)
      .Cases({"reshape", "reshape2"}, mapReshape)
      .Case("reshape2_grad", mapReshapeGrad)
      .Case("concat", mapConcat)
      .Case("concat_grad", mapConcatGrad)
      .Cases({"lookup_table", "lookup_table_v2"}, mapLookupTable)
      .Cases({"lookup_table_grad", "lookup_table_v2_grad"}, mapLookupTableGrad)
      .Case("sequence_pool", mapSequencePool)
      .Case("fill_constant_batch_size_like", mapFillConstantBatchSizeLike)
      .Case("scale", mapScale)
      .Case("fill_constant", mapFillConstant)
      .Case("assign", mapAssign)
      .Case("increment", mapIncrement)
      .Case("sum", mapSum)
      .Case("sgd", mapSgd)
      .Case("momentum", mapMomentum)
      .Case("adam", mapAdam)
      .Case("adagrad", mapAdagrad)
      .Default(lookupMathOpHandler(type));
}

Role openks::interop::getDefaultRole(StringRef type) {
  if (type.ends_with("_grad"))
    return Role::Backward;
  if (llvm::is_contained({"sgd", "momentum", "adam", "adagrad"}, type))
    return Role::Optimize;
  return Role::Forward;
}

bool openks::interop::isStateSlot(StringRef opType, StringRef slot,
                                  bool &isScalar) {
  isScalar = opType == "increment" && slot == "X";
  if (opType == "increment")
    return isScalar;
  if (getDefaultRole(opType) != Role::Optimize)
    return false;
  isScalar = llvm::is_contained({"LearningRate", "Beta1Pow", "Beta2Pow"}, slot);
  return isScalar ||
         llvm::is_contained({"Velocity", "Moment", "Moment1", "Moment2"}, slot);
}
