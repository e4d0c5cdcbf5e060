//===- TrainToPaddle.cpp - A train.program as Paddle programs -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writes the step of a `train.program` as the block of a Paddle main
// program, and its parameters' initializers as a startup program, the way
// Paddle 1.8 would: persistable parameters, feed ops for the inputs and
// fetch ops for the results (in `col` order), one Paddle op per train op
// with Paddle's slot names and attribute types, `op_role` on every op and
// `op_role_var` on optimizers. Values are named after their locations when
// those are names (as an import leaves them), else `<op>_<n>.tmp_<i>`.
//
// The mapping is the inverse of PaddleToTrain's, so a program imported
// from Paddle, exported and imported again is the same module. Rank-0
// tensors have Paddle dims []; float attributes are Paddle FLOATs (f32).
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/Paddle/IR/PaddleOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Interop/Paddle.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <functional>

#include <charconv>
#include <cmath>
#include <limits>

using namespace mlir;
using namespace openks;
using namespace openks::train;
using paddle::VarTypeKind;

namespace {

/// A Paddle op being assembled: its slots and attributes in order.
struct OpSpec {
  std::string type;
  SmallVector<std::pair<std::string, SmallVector<std::string>>> inputs;
  SmallVector<std::pair<std::string, SmallVector<std::string>>> outputs;
  SmallVector<std::pair<std::string, Attribute>> attrs;
};

/// Emits the block of one Paddle program.
class TrainExporter {
public:
  explicit TrainExporter(train::ProgramOp program)
      : program(program), builder(program.getContext()) {}

  OwningOpRef<ModuleOp> run(TrainProgramPart part);

private:
  LogicalResult exportStep(StepOp step);
  LogicalResult exportStartup();
  LogicalResult exportOp(Operation *op);
  LogicalResult exportGradOp(Operation *op);
  LogicalResult exportOptimizer(OptimizerOpInterface op);
  /// Writes a margin loss as Paddle's margin_rank_loss, whose scores are
  /// [N, 1] and whose Label is a tensor of ones.
  LogicalResult exportMarginLoss(MarginLossOp op);
  /// Writes an embedding_pool as a v1 lookup_table and a sequence_pool, and
  /// a sequence_pool of a lookup as a sequence_pool; the sequences are the
  /// LoD of the fed ids.
  LogicalResult exportPool(Operation *op);

  /// Declares a variable, before the ops; `dims` -1 is a dynamic
  /// dimension.
  paddle::VarOp declareVar(StringRef name, VarTypeKind dataType,
                           ArrayRef<int64_t> dims, bool persistable);
  /// Declares the parameters.
  LogicalResult declareParams();
  /// Finds the fed ids whose lists pools take, and their lengths, which
  /// Paddle has as the ids' LoD; fails on pools of other ids or lengths.
  LogicalResult planLodInputs(StepOp step);
  /// Returns the reshape2 of variable `input`, of type `inputType`, into
  /// the variable `out` of dims `dims`, and declares its XShape variable.
  OpSpec getReshapeSpec(StringRef input, RankedTensorType inputType,
                        StringRef out, ArrayRef<int64_t> dims);
  /// Declares a variable like `value`'s, with dims `dims`, named after
  /// `base`.
  std::string declareLike(Value value, const Twine &base,
                          ArrayRef<int64_t> dims);
  /// Finds the sparse tables of `step` that Paddle can look up with
  /// is_sparse: those whose gradients only optimizers (and sums of them)
  /// take.
  void planSparseTables(StepOp step);
  /// Returns the lookup attributes of a table named `table`.
  SmallVector<std::pair<std::string, Attribute>>
  getLookupAttrs(StringRef table, std::optional<int64_t> paddingIdx);
  /// Names the result `value` and declares its variable.
  std::string define(Value value);
  /// Returns the name of an operand, failing on the value of a parameter
  /// read before the parameter was updated.
  FailureOr<std::string> use(Operation *user, Value value);
  /// Creates the paddle.op of `spec` with the op_role of `op`.
  void emit(OpSpec spec, Operation *op);

  /// Returns a name no variable has, `base` if possible.
  std::string getUniqueName(StringRef base);
  Attribute i32(int64_t value) { return builder.getI32IntegerAttr(value); }
  Attribute f32(double value) {
    return builder.getF32FloatAttr(static_cast<float>(value));
  }

  train::ProgramOp program;
  OpBuilder builder;
  /// The first op of the block: variables are declared before it.
  Operation *firstOp = nullptr;
  llvm::StringMap<paddle::VarOp> varOps;
  llvm::StringMap<ParamOp> params;
  llvm::StringSet<> usedNames;
  /// How many ops of each kind got generated names, and each one's number.
  llvm::StringMap<unsigned> opCounts;
  DenseMap<Operation *, unsigned> opNumbers;
  DenseMap<Value, std::string> names;
  /// The updates of each parameter so far, and those a read saw.
  llvm::StringMap<unsigned> updates;
  DenseMap<Value, std::pair<std::string, unsigned>> reads;
  /// The fed inputs whose trailing 1 Paddle's labels have.
  DenseSet<Value> unsqueezed;
  /// The Softmax variable of a softmax_with_cross_entropy, by logits, and
  /// the XShape variable of a reshape2, by input.
  DenseMap<Value, std::string> softmaxes, xshapes;
  /// The table of each embedding, by ids.
  DenseMap<Value, std::string> tables;
  /// The fed ids whose lists are pooled, fed as level-1 LoD tensors, and
  /// their lengths, which are not fed: Paddle has them as the LoD.
  DenseMap<Value, Value> lodLengths;
  DenseSet<Value> lengthInputs;
  /// The sparse tables exported as such (is_sparse lookups, SELECTED_ROWS
  /// gradients).
  llvm::StringSet<> sparseTables;
  /// The row-sparse values exported as SELECTED_ROWS variables: the
  /// gradients of sparseTables. Other row-sparse values are dense there.
  DenseSet<Value> selectedRows;
  /// The op whose first result is the loss.
  Operation *lossOp = nullptr;
};

} // namespace

/// Returns Paddle's data type for `elementType`, if train has one.
static std::optional<VarTypeKind> getDataType(Type elementType) {
  if (elementType.isF32())
    return VarTypeKind::FP32;
  if (elementType.isF64())
    return VarTypeKind::FP64;
  if (elementType.isInteger(64))
    return VarTypeKind::Int64;
  return std::nullopt;
}

/// Returns the Paddle dims of `type`: -1 for dynamic dimensions.
static SmallVector<int64_t> getDims(ShapedType type) {
  SmallVector<int64_t> dims;
  for (int64_t dim : type.getShape())
    dims.push_back(ShapedType::isDynamic(dim) ? -1 : dim);
  return dims;
}

/// Returns `value` as the shortest decimal that reads back as it.
static std::string formatDouble(double value) {
  char buffer[32];
  std::to_chars_result end =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, end.ptr);
}

std::string TrainExporter::getUniqueName(StringRef base) {
  std::string name = base.str();
  for (unsigned suffix = 1; !usedNames.insert(name).second; ++suffix)
    name = (base + "_" + Twine(suffix)).str();
  return name;
}

paddle::VarOp TrainExporter::declareVar(StringRef name, VarTypeKind dataType,
                                        ArrayRef<int64_t> dims,
                                        bool persistable) {
  OpBuilder::InsertionGuard guard(builder);
  if (firstOp)
    builder.setInsertionPoint(firstOp);
  auto var = paddle::VarOp::create(builder, program.getLoc(), name,
                                   VarTypeKind::LoDTensor);
  std::optional<int32_t> lodLevel;
  if (!persistable)
    lodLevel = 0;
  var.setLodTensorAttr(paddle::TensorDescAttr::get(builder.getContext(),
                                                   dataType, dims, lodLevel));
  var.setPersistableAttr(builder.getBoolAttr(persistable));
  varOps[name] = var;
  return var;
}

LogicalResult TrainExporter::declareParams() {
  for (ParamOp param : program.getBody().front().getOps<ParamOp>()) {
    RankedTensorType type = param.getParameterType();
    std::optional<VarTypeKind> dataType = getDataType(type.getElementType());
    if (!dataType)
      return param.emitOpError("has element type ")
             << type.getElementType() << ", which Paddle has no tensor of";
    std::string name = getUniqueName(param.getSymName());
    if (name != param.getSymName())
      return param.emitOpError("is named like another variable");
    params[name] = param;
    declareVar(name, *dataType, getDims(type), /*persistable=*/true)
        .setIsParameterAttr(builder.getBoolAttr(param.isTrainable()));
  }
  return success();
}

void TrainExporter::planSparseTables(StepOp step) {
  // Each sparse table, with whether its gradients only go to optimizers.
  llvm::MapVector<ParamOp, bool> candidates;
  DenseMap<Value, ParamOp> tableOfIds;
  step.walk([&](Operation *op) {
    Value table, ids;
    if (auto embedding = dyn_cast<EmbeddingOp>(op)) {
      table = embedding.getTable();
      ids = embedding.getIds();
    } else if (auto pool = dyn_cast<EmbeddingPoolOp>(op)) {
      table = pool.getTable();
      ids = pool.getIds();
    }
    auto read = table ? table.getDefiningOp<ReadOp>() : ReadOp();
    ParamOp param = read ? params.lookup(read.getParam()) : ParamOp();
    if (!param || !param.getSparse())
      return;
    tableOfIds[ids] = param;
    candidates.insert({param, true});
  });
  // A gradient that reaches anything but optimizers and sums (Paddle's sum
  // adds SELECTED_ROWS) must be dense there.
  DenseMap<ParamOp, SmallVector<Value>> gradients;
  std::function<bool(Value, SmallVectorImpl<Value> &)> onlyOptimized =
      [&](Value grad, SmallVectorImpl<Value> &chain) {
        chain.push_back(grad);
        return llvm::all_of(grad.getUsers(), [&](Operation *user) {
          if (auto merge = dyn_cast<MergeRowsOp>(user))
            return onlyOptimized(merge.getOut(), chain);
          return isa<OptimizerOpInterface>(user);
        });
      };
  step.walk([&](EmbeddingGradOp grad) {
    ParamOp param = tableOfIds.lookup(grad.getIds());
    if (param && !onlyOptimized(grad.getDtable(), gradients[param]))
      candidates[param] = false;
  });
  for (auto [param, optimizedOnly] : candidates) {
    if (optimizedOnly) {
      sparseTables.insert(param.getSymName());
      selectedRows.insert(gradients[param].begin(), gradients[param].end());
      continue;
    }
    // Paddle's ops other than its optimizers and sum take dense tensors.
    emitWarning(param.getLoc())
        << "sparse table @" << param.getSymName()
        << " is exported with dense lookups: its gradient goes to ops other "
           "than its optimizer, which Paddle runs on dense tensors only";
  }
}

LogicalResult TrainExporter::planLodInputs(StepOp step) {
  Block &body = step.getBody().front();
  auto isInput = [&](Value value) {
    auto arg = dyn_cast<BlockArgument>(value);
    return arg && arg.getOwner() == &body;
  };
  WalkResult walk = step.walk([&](Operation *op) {
    Value ids, lengths;
    if (auto pool = dyn_cast<EmbeddingPoolOp>(op)) {
      ids = pool.getIds();
      lengths = pool.getLengths();
    } else if (auto pool = dyn_cast<SequencePoolOp>(op)) {
      if (auto lookup = pool.getX().getDefiningOp<EmbeddingOp>())
        ids = lookup.getIds();
      lengths = pool.getLengths();
    } else {
      return WalkResult::advance();
    }
    if (!ids || !isInput(ids) || !isInput(lengths)) {
      op->emitOpError("pools lists that are not the ids and lengths of fed "
                      "inputs, but Paddle's sequence_pool takes its lists "
                      "as the LoD of a fed input");
      return WalkResult::interrupt();
    }
    auto [entry, isNew] = lodLengths.try_emplace(ids, lengths);
    if (!isNew && entry->second != lengths) {
      op->emitOpError("pools ids with lengths other than another pool's, "
                      "but Paddle's ids have one LoD");
      return WalkResult::interrupt();
    }
    lengthInputs.insert(lengths);
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();
  // Fed as [N, 1] with LoD, the ids suit only lookups; the lengths exist
  // only as the LoD.
  for (auto [ids, lengths] : lodLengths) {
    for (OpOperand &use : ids.getUses())
      if (!isa<EmbeddingOp, EmbeddingGradOp, EmbeddingPoolOp,
               EmbeddingPoolGradOp>(use.getOwner()))
        return use.getOwner()->emitOpError(
            "uses pooled ids as other than ids, but Paddle has them as a "
            "LoD tensor of lookups");
    for (OpOperand &use : lengths.getUses())
      if (!isa<EmbeddingPoolOp, SequencePoolOp, EmbeddingPoolGradOp,
               SequencePoolGradOp>(use.getOwner()))
        return use.getOwner()->emitOpError(
            "uses the lengths of pooled ids as other than their pools' "
            "lengths, but Paddle has them only as the ids' LoD");
  }
  return success();
}

SmallVector<std::pair<std::string, Attribute>>
TrainExporter::getLookupAttrs(StringRef table,
                              std::optional<int64_t> paddingIdx) {
  // Paddle's is_distributed names its one distributed table; any sparse
  // table here says is_sparse, which imports back the same.
  return {{"padding_idx", builder.getI64IntegerAttr(paddingIdx.value_or(-1))},
          {"is_sparse", builder.getBoolAttr(sparseTables.contains(table))},
          {"is_distributed", builder.getBoolAttr(false)}};
}

std::string TrainExporter::define(Value value) {
  Operation *op = value.getDefiningOp();
  std::string base;
  auto resultIndex = cast<OpResult>(value).getResultNumber();
  if (auto name = dyn_cast<NameLoc>(op->getLoc()); name && resultIndex == 0) {
    base = name.getName().str();
  } else {
    StringRef mnemonic = op->getName().stripDialect();
    auto [number, isNew] = opNumbers.try_emplace(op, opCounts[mnemonic]);
    if (isNew)
      ++opCounts[mnemonic];
    base =
        (mnemonic + "_" + Twine(number->second) + ".tmp_" + Twine(resultIndex))
            .str();
  }
  std::string name = getUniqueName(base);
  names[value] = name;
  RankedTensorType type = getDenseType(value.getType());
  paddle::VarOp var =
      declareVar(name, *getDataType(type.getElementType()), getDims(type),
                 /*persistable=*/false);
  if (selectedRows.contains(value)) {
    // Paddle's sparse lookup gradients and their sums are SELECTED_ROWS.
    paddle::TensorDescAttr desc = var.getLodTensorAttr();
    var.setKind(VarTypeKind::SelectedRows);
    var.setSelectedRowsAttr(paddle::TensorDescAttr::get(
        builder.getContext(), desc.getDataType(), desc.getDims(),
        /*lodLevel=*/std::nullopt));
    var.removeLodTensorAttr();
  }
  return name;
}

std::string TrainExporter::declareLike(Value value, const Twine &base,
                                       ArrayRef<int64_t> dims) {
  std::string name = getUniqueName(base.str());
  auto type = cast<RankedTensorType>(value.getType());
  declareVar(name, *getDataType(type.getElementType()), dims,
             /*persistable=*/false);
  return name;
}

OpSpec TrainExporter::getReshapeSpec(StringRef input,
                                     RankedTensorType inputType, StringRef out,
                                     ArrayRef<int64_t> dims) {
  OpSpec spec;
  spec.type = "reshape2";
  spec.attrs = {{"shape", builder.getDenseI32ArrayAttr(
                              SmallVector<int32_t>(dims.begin(), dims.end()))}};
  SmallVector<int64_t> xshapeDims = {0};
  llvm::append_range(xshapeDims, getDims(inputType));
  std::string xshape = getUniqueName((out + ".xshape").str());
  declareVar(xshape, *getDataType(inputType.getElementType()), xshapeDims,
             /*persistable=*/false);
  spec.inputs = {{"X", {input.str()}}};
  spec.outputs = {{"Out", {out.str()}}, {"XShape", {xshape}}};
  return spec;
}

FailureOr<std::string> TrainExporter::use(Operation *user, Value value) {
  auto read = reads.find(value);
  if (read != reads.end() &&
      updates.lookup(read->second.first) != read->second.second)
    return user->emitOpError("uses the value of @")
           << read->second.first
           << " read before an update of it, but Paddle ops name a "
              "parameter's one storage";
  return names.lookup(value);
}

/// Returns Paddle's op_role of `op`: its train role, or that of its kind.
static int64_t getOpRole(Operation *op) {
  if (std::optional<Role> role = getRole(op))
    return static_cast<int64_t>(*role);
  if (isa<OptimizerOpInterface>(op))
    return static_cast<int64_t>(Role::Optimize);
  if (op->getName().getStringRef().ends_with("_grad"))
    return static_cast<int64_t>(Role::Backward);
  return static_cast<int64_t>(Role::Forward);
}

void TrainExporter::emit(OpSpec spec, Operation *op) {
  MLIRContext *context = builder.getContext();
  auto makeSlots = [&](auto &slots) {
    // Paddle keeps slots in a map, so they serialize sorted by their
    // names, which are distinct.
    llvm::sort(slots,
               [](const auto &a, const auto &b) { return a.first < b.first; });
    SmallVector<Attribute> result;
    for (auto &[slot, args] : slots) {
      SmallVector<Attribute> argAttrs;
      for (const std::string &arg : args)
        argAttrs.push_back(builder.getStringAttr(arg));
      result.push_back(paddle::SlotAttr::get(context,
                                             builder.getStringAttr(slot),
                                             builder.getArrayAttr(argAttrs)));
    }
    return builder.getArrayAttr(result);
  };
  if (op) {
    int64_t role = getOpRole(op);
    if (op == lossOp && role == static_cast<int64_t>(Role::Forward))
      role |= 0x100;
    spec.attrs.push_back({"op_role", i32(role)});
  }
  SmallVector<Attribute> attrNames, attrValues;
  for (auto &[name, value] : spec.attrs) {
    attrNames.push_back(builder.getStringAttr(name));
    attrValues.push_back(value);
  }
  auto created = paddle::GenericOp::create(
      builder, op ? op->getLoc() : program.getLoc(), spec.type,
      makeSlots(spec.inputs), makeSlots(spec.outputs),
      builder.getArrayAttr(attrNames), builder.getArrayAttr(attrValues),
      BoolAttr());
  if (!firstOp)
    firstOp = created;
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult TrainExporter::exportOptimizer(OptimizerOpInterface op) {
  FailureOr<std::string> gradName = use(op, op.getGrad());
  FailureOr<std::string> lrName = use(op, op.getLr());
  if (failed(gradName) || failed(lrName))
    return failure();
  std::string param = op.getParamAttr().getValue().str();
  OpSpec spec;
  spec.inputs = {
      {"Param", {param}}, {"Grad", {*gradName}}, {"LearningRate", {*lrName}}};
  spec.outputs = {{"ParamOut", {param}}};
  auto state = [&](StringRef in, StringRef out, FlatSymbolRefAttr symbol) {
    spec.inputs.push_back({in.str(), {symbol.getValue().str()}});
    spec.outputs.push_back({out.str(), {symbol.getValue().str()}});
    ++updates[symbol.getValue()];
  };
  // Paddle's adam with lazy_mode updates the rows of a SELECTED_ROWS
  // gradient as the row-sparse adam does; its sgd and adagrad leave the
  // rows a gradient does not hold alone anyway.
  bool rowSparse = isa<RowsType>(op.getGrad().getType());
  bool lazy = selectedRows.contains(op.getGrad());
  if (rowSparse && !isa<SgdOp, AdagradOp>(op) && !(isa<AdamOp>(op) && lazy))
    emitWarning(op->getLoc())
        << "'" << op->getName()
        << "' updates only the rows of its row-sparse gradient, but Paddle's "
           "counterpart updates every row of the table";
  TypeSwitch<Operation *>(op)
      .Case([&](SgdOp) { spec.type = "sgd"; })
      .Case([&](MomentumOp momentum) {
        spec.type = "momentum";
        state("Velocity", "VelocityOut", momentum.getVelocityAttr());
        spec.attrs = {
            {"mu", f32(momentum.getMu().convertToDouble())},
            {"use_nesterov", builder.getBoolAttr(momentum.getNesterov())}};
      })
      .Case([&](AdamOp adam) {
        spec.type = "adam";
        state("Moment1", "Moment1Out", adam.getMoment1Attr());
        state("Moment2", "Moment2Out", adam.getMoment2Attr());
        state("Beta1Pow", "Beta1PowOut", adam.getBeta1PowAttr());
        state("Beta2Pow", "Beta2PowOut", adam.getBeta2PowAttr());
        spec.attrs = {{"beta1", f32(adam.getBeta1().convertToDouble())},
                      {"beta2", f32(adam.getBeta2().convertToDouble())},
                      {"epsilon", f32(adam.getEpsilon().convertToDouble())},
                      {"lazy_mode", builder.getBoolAttr(lazy)}};
      })
      .Case([&](AdagradOp adagrad) {
        spec.type = "adagrad";
        state("Moment", "MomentOut", adagrad.getMomentAttr());
        spec.attrs = {{"epsilon", f32(adagrad.getEpsilon().convertToDouble())}};
      });
  if (spec.type.empty())
    return op->emitOpError("cannot be exported to a Paddle program yet");
  ++updates[param];
  // Paddle's transpiler finds (parameter, gradient) pairs here.
  spec.attrs.push_back(
      {"op_role_var", builder.getStrArrayAttr({param, *gradName})});
  emit(spec, op);
  return success();
}

LogicalResult TrainExporter::exportMarginLoss(MarginLossOp op) {
  auto type = cast<RankedTensorType>(op.getType());
  bool column = type.getRank() == 2 && type.getDimSize(1) == 1;
  if (!column && type.getRank() != 1)
    return op.emitOpError("has scores of type ")
           << type << ", but Paddle's margin_rank_loss takes [N, 1] (or "
           << "[N], reshaped)";
  FailureOr<std::string> pos = use(op, op.getPos());
  FailureOr<std::string> neg = use(op, op.getNeg());
  if (failed(pos) || failed(neg))
    return failure();
  std::string out = define(op.getOut());
  SmallVector<int64_t> columnDims = {getDims(type).front(), 1};
  // Rank-1 scores and loss go through [N, 1] columns.
  auto toColumn = [&](Value value, const std::string &name) {
    if (column)
      return name;
    std::string reshaped = declareLike(value, name + ".column", columnDims);
    emit(getReshapeSpec(name, type, reshaped, columnDims), op);
    return reshaped;
  };
  std::string posColumn = toColumn(op.getPos(), *pos);
  std::string negColumn = toColumn(op.getNeg(), *neg);

  // Paddle's loss is max(0, -Label * (X1 - X2) + margin): a Label of ones
  // with X1 the negative score.
  OpSpec ones;
  ones.type = "fill_constant_batch_size_like";
  ones.inputs = {{"Input", {posColumn}}};
  ones.outputs = {
      {"Out", {declareLike(op.getOut(), out + ".label", columnDims)}}};
  ones.attrs = {
      {"shape", builder.getDenseI32ArrayAttr(
                    {static_cast<int32_t>(columnDims.front()), 1})},
      {"input_dim_idx", i32(0)},
      {"output_dim_idx", i32(0)},
      {"dtype", i32(static_cast<int32_t>(*getDataType(type.getElementType())))},
      {"value", f32(1.0)}};
  std::string label = ones.outputs.front().second.front();
  emit(ones, op);

  OpSpec loss;
  loss.type = "margin_rank_loss";
  loss.inputs = {{"X1", {negColumn}}, {"X2", {posColumn}}, {"Label", {label}}};
  std::string lossColumn =
      column ? out : declareLike(op.getOut(), out + ".column", columnDims);
  loss.outputs = {{"Out", {lossColumn}},
                  {"Activated",
                   {declareLike(op.getOut(), out + ".activated", columnDims)}}};
  loss.attrs = {{"margin", f32(op.getMargin().convertToDouble())}};
  emit(loss, op);
  if (!column)
    emit(getReshapeSpec(lossColumn,
                        RankedTensorType::get({type.getDimSize(0), 1},
                                              type.getElementType()),
                        out, getDims(type)),
         op);
  return success();
}

/// Returns Paddle's sequence_pool pooltype of `type`.
static StringRef getPaddlePoolType(PoolType type) {
  switch (type) {
  case PoolType::Sum:
    return "SUM";
  case PoolType::Mean:
    return "AVERAGE";
  case PoolType::Sqrt:
    return "SQRT";
  }
  llvm_unreachable("unknown pool type");
}

LogicalResult TrainExporter::exportPool(Operation *op) {
  auto embeddingPool = dyn_cast<EmbeddingPoolOp>(op);
  auto sequencePool = dyn_cast<SequencePoolOp>(op);
  Value out = op->getResult(0);
  std::string rows;
  if (embeddingPool) {
    // The lookup of every id, whose rows keep the ids' LoD.
    FailureOr<std::string> table = use(op, embeddingPool.getTable());
    FailureOr<std::string> ids = use(op, embeddingPool.getIds());
    if (failed(table) || failed(ids))
      return failure();
    auto outType = cast<RankedTensorType>(out.getType());
    rows = declareLike(out, *ids + "." + *table + ".rows",
                       {-1, outType.getDimSize(1)});
    OpSpec lookup;
    lookup.type = "lookup_table";
    lookup.inputs = {{"Ids", {*ids}}, {"W", {*table}}};
    lookup.outputs = {{"Out", {rows}}};
    lookup.attrs = getLookupAttrs(*table, embeddingPool.getPaddingIdx());
    lookup.attrs.push_back({"remote_prefetch", builder.getBoolAttr(false)});
    emit(lookup, op);
  } else {
    FailureOr<std::string> x = use(op, sequencePool.getX());
    if (failed(x))
      return failure();
    rows = *x;
  }
  std::string name = define(out);
  OpSpec pool;
  pool.type = "sequence_pool";
  pool.inputs = {{"X", {rows}}};
  pool.outputs = {
      {"Out", {name}},
      {"MaxIndex",
       {declareLike(out, name + ".max_index",
                    getDims(cast<RankedTensorType>(out.getType())))}}};
  PoolType type =
      embeddingPool ? embeddingPool.getPooltype() : sequencePool.getPooltype();
  pool.attrs = {{"is_test", builder.getBoolAttr(false)},
                {"pooltype", builder.getStringAttr(getPaddlePoolType(type))},
                {"pad_value", f32(0.0)}};
  emit(pool, op);
  return success();
}

/// Returns the Paddle attributes of p_norm and its grad (Paddle 1.8 has no
/// `asvector`; its default, false, is train's meaning).
static SmallVector<std::pair<std::string, Attribute>>
getNormAttrs(Builder &builder, int64_t p, int64_t axis, bool keepDims,
             APFloat epsilon) {
  return {{"porder", builder.getF32FloatAttr(static_cast<float>(p))},
          {"axis", builder.getI32IntegerAttr(axis)},
          {"epsilon", builder.getF32FloatAttr(
                          static_cast<float>(epsilon.convertToDouble()))},
          {"keepdim", builder.getBoolAttr(keepDims)}};
}

/// Returns the Paddle attributes of reduce_sum and its grad.
static SmallVector<std::pair<std::string, Attribute>>
getReduceAttrs(Builder &builder, ArrayRef<int64_t> dims, bool keepDims) {
  SmallVector<int32_t> dim(dims.begin(), dims.end());
  if (dim.empty())
    dim.push_back(0);
  return {{"dim", builder.getDenseI32ArrayAttr(dim)},
          {"keep_dim", builder.getBoolAttr(keepDims)},
          {"reduce_all", builder.getBoolAttr(dims.empty())}};
}

LogicalResult TrainExporter::exportGradOp(Operation *op) {
  OpSpec spec;
  auto input = [&](StringRef slot, ValueRange values) -> LogicalResult {
    SmallVector<std::string> args;
    for (Value value : values) {
      FailureOr<std::string> name = use(op, value);
      if (failed(name))
        return failure();
      args.push_back(*name);
    }
    spec.inputs.push_back({slot.str(), args});
    return success();
  };
  auto output = [&](StringRef slot, ValueRange values) {
    SmallVector<std::string> args;
    for (Value value : values)
      args.push_back(define(value));
    spec.outputs.push_back({slot.str(), args});
  };
  Attribute minusOne = i32(-1);
  LogicalResult result =
      TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](MatmulGradOp grad) {
            spec.type = "mul_grad";
            spec.attrs = {{"x_num_col_dims", i32(1)},
                          {"y_num_col_dims", i32(1)}};
            output("X@GRAD", grad.getDa());
            output("Y@GRAD", grad.getDb());
            return success(succeeded(input("X", grad.getA())) &&
                           succeeded(input("Y", grad.getB())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          .Case<AddGradOp, SubGradOp, train::MulGradOp, DivGradOp>(
              [&](auto grad) {
                spec.type =
                    ("elementwise_" + op->getName().stripDialect()).str();
                spec.attrs = {{"axis", minusOne}};
                output("X@GRAD", grad.getDx());
                output("Y@GRAD", grad.getDy());
                return success(succeeded(input("X", grad.getX())) &&
                               succeeded(input("Y", grad.getY())) &&
                               succeeded(input("Out@GRAD", grad.getDout())));
              })
          .Case<ReluGradOp, SigmoidGradOp, TanhGradOp, SoftmaxGradOp,
                SqrtGradOp, ExpGradOp>([&](auto grad) {
            spec.type = op->getName().stripDialect().str();
            if (isa<SoftmaxGradOp>(op))
              spec.attrs = {{"axis", minusOne}};
            output("X@GRAD", grad.getDx());
            return success(succeeded(input("Out", grad.getOut())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          // Paddle's gradients of these take X, not Out.
          .Case<AbsGradOp, SquareGradOp, LogGradOp, SoftsignGradOp>(
              [&](auto grad) {
                spec.type = op->getName().stripDialect().str();
                output("X@GRAD", grad.getDx());
                return success(succeeded(input("X", grad.getX())) &&
                               succeeded(input("Out@GRAD", grad.getDout())));
              })
          .Case([&](PNormGradOp grad) {
            spec.type = "p_norm_grad";
            spec.attrs = getNormAttrs(builder, grad.getP(), grad.getAxis(),
                                      grad.getKeepDims(), grad.getEpsilon());
            output("X@GRAD", grad.getDx());
            return success(succeeded(input("X", grad.getX())) &&
                           succeeded(input("Out", grad.getOut())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          .Case([&](SoftmaxCrossEntropyGradOp grad) {
            spec.type = "softmax_with_cross_entropy_grad";
            spec.attrs = {{"soft_label", builder.getBoolAttr(false)},
                          {"ignore_index", i32(-100)},
                          {"numeric_stable_mode", builder.getBoolAttr(true)},
                          {"axis", minusOne}};
            auto softmax = softmaxes.find(grad.getLogits());
            if (softmax == softmaxes.end())
              return LogicalResult(op->emitOpError(
                  "has no train.softmax_cross_entropy of its logits before "
                  "it, whose Softmax Paddle's gradient takes"));
            spec.inputs.push_back({"Softmax", {softmax->second}});
            output("Logits@GRAD", grad.getDlogits());
            return success(succeeded(input("Label", grad.getLabels())) &&
                           succeeded(input("Loss@GRAD", grad.getDloss())));
          })
          .Case([&](SigmoidCrossEntropyGradOp grad) {
            spec.type = "sigmoid_cross_entropy_with_logits_grad";
            spec.attrs = {{"normalize", builder.getBoolAttr(false)},
                          {"ignore_index", i32(-100)}};
            output("X@GRAD", grad.getDlogits());
            return success(succeeded(input("X", grad.getLogits())) &&
                           succeeded(input("Label", grad.getLabels())) &&
                           succeeded(input("Out@GRAD", grad.getDloss())));
          })
          .Case([&](MeanGradOp grad) {
            spec.type = "mean_grad";
            output("X@GRAD", grad.getDx());
            return success(succeeded(input("X", grad.getX())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          .Case([&](ReduceSumGradOp grad) {
            spec.type = "reduce_sum_grad";
            spec.attrs =
                getReduceAttrs(builder, grad.getDims(), grad.getKeepDims());
            output("X@GRAD", grad.getDx());
            return success(succeeded(input("X", grad.getX())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          .Case([&](ReshapeGradOp grad) {
            spec.type = "reshape2_grad";
            auto xshape = xshapes.find(grad.getX());
            if (xshape == xshapes.end())
              return LogicalResult(op->emitOpError(
                  "has no train.reshape of its input before it, whose "
                  "XShape Paddle's gradient takes"));
            spec.inputs.push_back({"XShape", {xshape->second}});
            output("X@GRAD", grad.getDx());
            return input("Out@GRAD", grad.getDout());
          })
          .Case([&](ConcatGradOp grad) {
            spec.type = "concat_grad";
            spec.attrs = {{"axis", i32(grad.getAxis())}};
            output("X@GRAD", grad.getDinputs());
            return success(succeeded(input("X", grad.getInputs())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          .Case([&](EmbeddingGradOp grad) {
            spec.type = lodLengths.contains(grad.getIds())
                            ? "lookup_table_grad"
                            : "lookup_table_v2_grad";
            auto table = tables.find(grad.getIds());
            if (table == tables.end())
              return LogicalResult(op->emitOpError(
                  "has no train.embedding of its ids before it, whose table "
                  "Paddle's gradient takes"));
            spec.attrs = getLookupAttrs(table->second, grad.getPaddingIdx());
            spec.inputs.push_back({"W", {table->second}});
            output("W@GRAD", grad.getDtable());
            return success(succeeded(input("Ids", grad.getIds())) &&
                           succeeded(input("Out@GRAD", grad.getDout())));
          })
          .Default([&](Operation *) {
            return op->emitOpError("has no Paddle counterpart");
          });
  if (failed(result))
    return failure();
  emit(spec, op);
  return success();
}

LogicalResult TrainExporter::exportOp(Operation *op) {
  if (auto read = dyn_cast<ReadOp>(op)) {
    std::string param = read.getParam().str();
    names[read.getValue()] = param;
    reads[read.getValue()] = {param, updates.lookup(param)};
    return success();
  }
  for (Type type : op->getResultTypes()) {
    RankedTensorType tensor = getDenseType(type);
    if (!tensor || !getDataType(tensor.getElementType()))
      return op->emitOpError("has a result of type ")
             << type << ", which Paddle has no tensor of";
  }
  if (auto optimizer = dyn_cast<OptimizerOpInterface>(op))
    return exportOptimizer(optimizer);
  if (auto loss = dyn_cast<MarginLossOp>(op))
    return exportMarginLoss(loss);
  if (isa<EmbeddingPoolOp, SequencePoolOp>(op))
    return exportPool(op);
  if (op->getName().getStringRef().ends_with("_grad") && !isa<ParamGradOp>(op))
    return exportGradOp(op);

  OpSpec spec;
  auto input = [&](StringRef slot, ValueRange values) -> LogicalResult {
    SmallVector<std::string> args;
    for (Value value : values) {
      FailureOr<std::string> name = use(op, value);
      if (failed(name))
        return failure();
      args.push_back(*name);
    }
    spec.inputs.push_back({slot.str(), args});
    return success();
  };
  auto output = [&](StringRef slot, Value value) {
    std::string name = define(value);
    spec.outputs.push_back({slot.str(), {name}});
    return name;
  };
  auto checkLabels = [&](Value labels) -> LogicalResult {
    if (unsqueezed.contains(labels))
      return success();
    return op->emitOpError("takes labels that are not a fed input used as "
                           "labels only, which Paddle would need as [N, 1]");
  };
  Attribute minusOne = i32(-1);
  LogicalResult result =
      TypeSwitch<Operation *, LogicalResult>(op)
          .Case([&](WriteOp write) {
            spec.type = "assign";
            spec.outputs.push_back({"Out", {write.getParam().str()}});
            if (failed(input("X", write.getValue())))
              return failure();
            ++updates[write.getParam()];
            return success();
          })
          .Case([&](FillOp fill) {
            spec.type = "fill_constant";
            auto type = cast<RankedTensorType>(fill.getType());
            double value = fill.getValue().convertToDouble();
            spec.attrs = {
                {"shape", builder.getDenseI64ArrayAttr(type.getShape())},
                {"dtype", i32(static_cast<int32_t>(
                              *getDataType(type.getElementType())))},
                {"value", f32(value)},
                {"str_value", builder.getStringAttr(formatDouble(value))},
                {"force_cpu", builder.getBoolAttr(false)}};
            output("Out", fill.getOut());
            return success();
          })
          .Case([&](ScaleOp scale) {
            spec.type = "scale";
            spec.attrs = {{"scale", f32(scale.getFactor().convertToDouble())},
                          {"bias", f32(0.0)},
                          {"bias_after_scale", builder.getBoolAttr(true)}};
            output("Out", scale.getOut());
            return input("X", scale.getX());
          })
          // Paddle's sum adds SELECTED_ROWS (or, for a table exported
          // dense, the dense gradients).
          .Case([&](MergeRowsOp merge) {
            spec.type = "sum";
            output("Out", merge.getOut());
            return input("X", merge.getInputs());
          })
          // Only the gradients of tables exported dense are densified.
          .Case([&](RowsToDenseOp densify) {
            spec.type = "assign";
            output("Out", densify.getOut());
            return input("X", densify.getRows());
          })
          .Case([&](StopGradientOp stop) {
            // An assign into a variable that stops gradients.
            spec.type = "assign";
            std::string name = output("Out", stop.getOut());
            varOps[name].setStopGradientAttr(builder.getBoolAttr(true));
            return input("X", stop.getX());
          })
          .Case([&](IncrementOp increment) {
            spec.type = "increment";
            spec.attrs = {{"step", f32(1.0)}};
            output("Out", increment.getOut());
            return input("X", increment.getX());
          })
          .Case<ReluOp, SigmoidOp, TanhOp, SoftmaxOp, AbsOp, SquareOp, SqrtOp,
                ExpOp, LogOp, SoftsignOp>([&](auto activation) {
            spec.type = op->getName().stripDialect().str();
            if (isa<SoftmaxOp>(op))
              spec.attrs = {{"axis", minusOne}};
            output("Out", activation.getOut());
            return input("X", activation.getX());
          })
          .Case([&](MatmulOp matmul) {
            spec.type = "mul";
            spec.attrs = {{"x_num_col_dims", i32(1)},
                          {"y_num_col_dims", i32(1)}};
            output("Out", matmul.getOut());
            return success(succeeded(input("X", matmul.getA())) &&
                           succeeded(input("Y", matmul.getB())));
          })
          .Case<AddOp, SubOp, train::MulOp, DivOp>([&](auto binary) {
            spec.type = ("elementwise_" + op->getName().stripDialect()).str();
            spec.attrs = {{"axis", minusOne}};
            output("Out", binary.getOut());
            return success(succeeded(input("X", binary.getX())) &&
                           succeeded(input("Y", binary.getY())));
          })
          .Case([&](SoftmaxCrossEntropyOp loss) {
            spec.type = "softmax_with_cross_entropy";
            spec.attrs = {{"soft_label", builder.getBoolAttr(false)},
                          {"ignore_index", i32(-100)},
                          {"numeric_stable_mode", builder.getBoolAttr(true)},
                          {"axis", minusOne}};
            std::string lossName = output("Loss", loss.getOut());
            std::string softmax = getUniqueName(lossName + ".softmax");
            auto logitsType =
                cast<RankedTensorType>(loss.getLogits().getType());
            declareVar(softmax, *getDataType(logitsType.getElementType()),
                       getDims(logitsType), /*persistable=*/false);
            spec.outputs.push_back({"Softmax", {softmax}});
            softmaxes[loss.getLogits()] = softmax;
            return success(succeeded(checkLabels(loss.getLabels())) &&
                           succeeded(input("Logits", loss.getLogits())) &&
                           succeeded(input("Label", loss.getLabels())));
          })
          .Case([&](SigmoidCrossEntropyOp loss) {
            spec.type = "sigmoid_cross_entropy_with_logits";
            spec.attrs = {{"normalize", builder.getBoolAttr(false)},
                          {"ignore_index", i32(-100)}};
            output("Out", loss.getOut());
            return success(succeeded(input("X", loss.getLogits())) &&
                           succeeded(input("Label", loss.getLabels())));
          })
          .Case([&](PNormOp norm) {
            spec.type = "p_norm";
            spec.attrs = getNormAttrs(builder, norm.getP(), norm.getAxis(),
                                      norm.getKeepDims(), norm.getEpsilon());
            output("Out", norm.getOut());
            return input("X", norm.getX());
          })
          .Case([&](MeanOp mean) {
            spec.type = "mean";
            output("Out", mean.getOut());
            return input("X", mean.getX());
          })
          .Case([&](ReduceSumOp sum) {
            spec.type = "reduce_sum";
            spec.attrs =
                getReduceAttrs(builder, sum.getDims(), sum.getKeepDims());
            output("Out", sum.getOut());
            return input("X", sum.getX());
          })
          .Case([&](ReshapeOp reshape) -> LogicalResult {
            FailureOr<std::string> x = use(op, reshape.getX());
            if (failed(x))
              return failure();
            std::string out = define(reshape.getOut());
            spec = getReshapeSpec(
                *x, cast<RankedTensorType>(reshape.getX().getType()), out,
                getDims(cast<RankedTensorType>(reshape.getType())));
            xshapes[reshape.getX()] = spec.outputs.back().second.front();
            return success();
          })
          .Case([&](ConcatOp concat) {
            spec.type = "concat";
            spec.attrs = {{"axis", i32(concat.getAxis())}};
            output("Out", concat.getOut());
            return input("X", concat.getInputs());
          })
          // Ids fed as a LoD tensor are [N, 1], which the v1 lookup takes.
          .Case([&](EmbeddingOp embedding) {
            spec.type = lodLengths.contains(embedding.getIds())
                            ? "lookup_table"
                            : "lookup_table_v2";
            output("Out", embedding.getOut());
            if (failed(input("W", embedding.getTable())) ||
                failed(input("Ids", embedding.getIds())))
              return failure();
            spec.attrs = getLookupAttrs(spec.inputs.front().second.front(),
                                        embedding.getPaddingIdx());
            spec.attrs.push_back(
                {"remote_prefetch", builder.getBoolAttr(false)});
            tables[embedding.getIds()] = spec.inputs.front().second.front();
            return success();
          })
          .Case<ClipOp, ClipByNormOp, SignOp>([&](Operation *) {
            return op->emitOpError("cannot be exported to a Paddle program "
                                   "yet");
          })
          .Default([&](Operation *) {
            return op->emitOpError("has no Paddle counterpart");
          });
  if (failed(result))
    return failure();
  emit(spec, op);
  return success();
}

//===----------------------------------------------------------------------===//
// Programs
//===----------------------------------------------------------------------===//

LogicalResult TrainExporter::exportStep(StepOp step) {
  Block &body = step.getBody().front();
  auto yield = cast<YieldOp>(body.getTerminator());
  if (!yield.getResults().empty())
    lossOp = yield.getResults().front().getDefiningOp();
  planSparseTables(step);
  if (failed(planLodInputs(step)))
    return failure();

  // Fed int64 labels only ever read as labels get Paddle's trailing 1.
  for (BlockArgument arg : body.getArguments())
    if (!arg.use_empty() && llvm::all_of(arg.getUses(), [](OpOperand &use) {
          return isa<SoftmaxCrossEntropyOp, SoftmaxCrossEntropyGradOp>(
                     use.getOwner()) &&
                 use.getOperandNumber() == 1;
        }))
      unsqueezed.insert(arg);

  if (body.getNumArguments() || !yield.getResults().empty()) {
    for (auto [name, kind] : {std::pair{"feed", VarTypeKind::FeedMinibatch},
                              std::pair{"fetch", VarTypeKind::FetchList}}) {
      usedNames.insert(name);
      paddle::VarOp::create(builder, step.getLoc(), name, kind)
          .setPersistableAttr(builder.getBoolAttr(true));
    }
  }
  for (BlockArgument arg : body.getArguments()) {
    if (lengthInputs.contains(arg))
      continue;
    auto type = dyn_cast<RankedTensorType>(arg.getType());
    std::optional<VarTypeKind> dataType =
        type ? getDataType(type.getElementType()) : std::nullopt;
    if (!dataType)
      return train::emitOpErrorAt(step)
             << "takes an input of type " << arg.getType()
             << ", which Paddle has no tensor of";
    auto nameLoc = dyn_cast<NameLoc>(arg.getLoc());
    std::string name =
        getUniqueName(nameLoc ? nameLoc.getName().str()
                              : ("input_" + Twine(arg.getArgNumber())).str());
    names[arg] = name;
    SmallVector<int64_t> dims = getDims(type);
    bool lod = lodLengths.contains(arg);
    if (unsqueezed.contains(arg) || lod)
      dims.push_back(1);
    paddle::VarOp var = declareVar(name, *dataType, dims,
                                   /*persistable=*/false);
    var.setNeedCheckFeedAttr(builder.getBoolAttr(true));
    if (lod)
      var.setLodTensorAttr(paddle::TensorDescAttr::get(
          builder.getContext(), *dataType, dims, /*lodLevel=*/1));
  }
  // The lengths of pooled ids are their LoD, not fed.
  int64_t col = 0;
  for (BlockArgument arg : body.getArguments()) {
    if (lengthInputs.contains(arg))
      continue;
    OpSpec spec;
    spec.type = "feed";
    spec.inputs = {{"X", {"feed"}}};
    spec.outputs = {{"Out", {names[arg]}}};
    spec.attrs = {{"col", i32(col++)}, {"op_role", i32(0)}};
    emit(spec, nullptr);
  }
  for (Operation &op : body.without_terminator())
    if (failed(exportOp(&op)))
      return failure();
  for (auto [col, value] : llvm::enumerate(yield.getResults())) {
    FailureOr<std::string> name = use(yield, value);
    if (failed(name))
      return failure();
    OpSpec spec;
    spec.type = "fetch";
    spec.inputs = {{"X", {*name}}};
    spec.outputs = {{"Out", {"fetch"}}};
    spec.attrs = {{"col", i32(col)}, {"op_role", i32(0)}};
    emit(spec, nullptr);
  }
  return success();
}

LogicalResult TrainExporter::exportStartup() {
  for (ParamOp param : program.getBody().front().getOps<ParamOp>()) {
    RankedTensorType type = param.getParameterType();
    auto dataType = static_cast<int32_t>(*getDataType(type.getElementType()));
    OpSpec spec;
    spec.outputs = {{"Out", {param.getSymName().str()}}};
    spec.attrs = {{"shape", builder.getDenseI64ArrayAttr(type.getShape())},
                  {"dtype", i32(dataType)}};
    auto addSeed = [&](uint64_t seed) -> LogicalResult {
      if (seed > static_cast<uint64_t>(std::numeric_limits<int32_t>::max()))
        return param.emitOpError("has seed ")
               << seed << ", more than Paddle's int32 seed holds";
      spec.attrs.push_back({"seed", i32(static_cast<int64_t>(seed))});
      return success();
    };
    LogicalResult result =
        TypeSwitch<Attribute, LogicalResult>(param.getInitializer())
            .Case([&](ConstantInitAttr constant) {
              double value = constant.getValue().convertToDouble();
              spec.type = "fill_constant";
              spec.attrs.push_back({"value", f32(value)});
              spec.attrs.push_back(
                  {"str_value", builder.getStringAttr(formatDouble(value))});
              spec.attrs.push_back({"force_cpu", builder.getBoolAttr(false)});
              return success();
            })
            .Case([&](UniformInitAttr uniform) {
              spec.type = "uniform_random";
              spec.attrs.push_back(
                  {"min", f32(uniform.getMin().convertToDouble())});
              spec.attrs.push_back(
                  {"max", f32(uniform.getMax().convertToDouble())});
              return addSeed(uniform.getSeed());
            })
            .Case([&](GaussianInitAttr gaussian) {
              spec.type = "gaussian_random";
              spec.attrs.push_back(
                  {"mean", f32(gaussian.getMean().convertToDouble())});
              spec.attrs.push_back(
                  {"std", f32(gaussian.getStd().convertToDouble())});
              return addSeed(gaussian.getSeed());
            })
            .Case([&](XavierInitAttr xavier) {
              // Paddle's Xavier initializer is a uniform_random in
              // [-limit, limit).
              ArrayRef<int64_t> shape = type.getShape();
              int64_t fanIn = shape.front();
              int64_t fanOut = shape.size() == 1 ? fanIn : 1;
              for (int64_t dim : shape.drop_front())
                fanOut *= dim;
              double limit =
                  std::sqrt(6.0 / static_cast<double>(fanIn + fanOut));
              spec.type = "uniform_random";
              spec.attrs.push_back({"min", f32(-limit)});
              spec.attrs.push_back({"max", f32(limit)});
              return addSeed(xavier.getSeed());
            })
            .Default([&](Attribute) {
              return param.emitOpError("has an initializer Paddle has no "
                                       "initializer op for");
            });
    if (failed(result))
      return failure();
    spec.attrs.push_back({"op_role", i32(0)});
    emit(spec, nullptr);
  }
  return success();
}

OwningOpRef<ModuleOp> TrainExporter::run(TrainProgramPart part) {
  Location loc = program.getLoc();
  builder.getContext()->loadDialect<paddle::PaddleDialect>();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());
  auto paddleProgram = paddle::ProgramOp::create(builder, loc);
  builder.setInsertionPointToEnd(&paddleProgram.getBody().front());
  auto block = paddle::BlockOp::create(builder, loc, /*idx=*/0,
                                       /*parentIdx=*/-1);
  builder.setInsertionPointToEnd(&block.getBody().front());
  if (failed(declareParams()))
    return {};
  if (part == TrainProgramPart::Startup) {
    if (failed(exportStartup()))
      return {};
  } else {
    auto steps = program.getBody().front().getOps<StepOp>();
    size_t numSteps = std::distance(steps.begin(), steps.end());
    if (numSteps != 1) {
      train::emitOpErrorAt(program)
          << "has " << numSteps << " steps; a Paddle main program is one";
      return {};
    }
    if (failed(exportStep(*steps.begin())))
      return {};
  }
  if (failed(verify(*module)))
    return {};
  return module;
}

OwningOpRef<ModuleOp> openks::convertTrainToPaddle(train::ProgramOp program,
                                                   TrainProgramPart part) {
  return TrainExporter(program).run(part);
}
