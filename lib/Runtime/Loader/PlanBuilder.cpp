//===- PlanBuilder.cpp - Build execution plans from IR --------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/PlanBuilder.h"

#include "LoaderUtils.h"
#include "PlanLowering.h"
#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/Runtime/Kernels.h"
#include "openks/Support/Limits.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

std::string openks::runtime::loader::describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << loc.getFilename().getValue() << ':' << loc.getLine() << ':'
       << loc.getColumn() << ": ";
  os << "'" << op->getName() << "'";
  return text;
}

FailureOr<ParameterId> PlanLowering::lookupParameter(Operation *op,
                                                     FlatSymbolRefAttr name,
                                                     Type type) {
  std::optional<ParameterId> id = store.lookup(name.getValue().str());
  if (!id)
    return op->emitOpError("refers to ")
           << name << ", which is not in the parameter store";
  if (!type)
    return *id;
  const Tensor &value = store[*id].value;
  auto tensorType = cast<RankedTensorType>(type);
  FailureOr<DType> dtype = getDType(op, tensorType);
  if (failed(dtype))
    return failure();
  if (*dtype != value.dtype() || getShape(tensorType) != value.shape())
    return op->emitOpError("has type ") << type << ", but the store holds "
                                        << name << " as " << value.typeString();
  return *id;
}

Ins PlanLowering::in(ValueRange values) {
  Ins result;
  for (Value value : values)
    result.slots.push_back(slots.lookup(value));
  return result;
}

std::optional<int64_t> PlanLowering::getCapacity(RankedTensorType type) const {
  int64_t capacity = 1;
  for (int64_t size : type.getShape()) {
    std::optional<int64_t> product = checkedMul(
        capacity, ShapedType::isDynamic(size) ? options.maxBatch : size);
    if (!product || *product > kMaxTensorElements)
      return std::nullopt;
    capacity = *product;
  }
  return capacity;
}

LogicalResult PlanLowering::checkCapacities(Block &block) {
  auto check = [&](Value value, Operation *owner) -> LogicalResult {
    auto type = dyn_cast<RankedTensorType>(value.getType());
    if (!type || getCapacity(type))
      return success();
    return owner->emitOpError("has a value of type ")
           << type << " that would hold more than " << kMaxTensorElements
           << " elements with a batch of " << options.maxBatch << " rows";
  };
  for (BlockArgument argument : block.getArguments())
    if (failed(check(argument, block.getParentOp())))
      return failure();
  for (Operation &op : block)
    for (Value result : op.getResults())
      if (failed(check(result, &op)))
        return failure();
  return success();
}

Out PlanLowering::out(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  // getDType cannot fail here: the op verifiers admit only f32, f64 and i64
  // (and lowerUpstreamOp checks the upstream ops' types first); nor
  // getCapacity: checkCapacities has run.
  Operation *owner = value.getDefiningOp()
                         ? value.getDefiningOp()
                         : value.getParentBlock()->getParentOp();
  SlotId slot = builder.addSlot(*getDType(owner, value.getType()),
                                type ? *getCapacity(type) : 1);
  slots[value] = slot;
  return {slot};
}

Outs PlanLowering::out(ValueRange values) {
  Outs result;
  for (Value value : values)
    result.slots.push_back(out(value).slot);
  return result;
}

Ins PlanLowering::rowIds(ValueRange values) {
  Ins result;
  for (Value value : values)
    result.slots.push_back(rowIdSlots.lookup(value));
  return result;
}

GradIn PlanLowering::gradient(Value value) {
  if (isa<train::RowsType>(value.getType()))
    return {slots.lookup(value), rowIdSlots.lookup(value)};
  return {slots.lookup(value), std::nullopt};
}

std::pair<Out, Out> PlanLowering::outRows(Value value, int64_t maxRows) {
  RankedTensorType table =
      cast<train::RowsType>(value.getType()).getTableType();
  // The verifiers admit only f32 and f64 rows of tables that fit a tensor.
  DType dtype = *getDType(value.getParentBlock()->getParentOp(), table);
  int64_t rows = std::min(maxRows, table.getDimSize(0));
  SlotId ids = builder.addSlot(DType::I64, rows);
  SlotId values = builder.addSlot(dtype, rows * getShape(table).rowWidth());
  rowIdSlots[value] = ids;
  slots[value] = values;
  return {Out{ids}, Out{values}};
}

FailureOr<std::tuple<In, In, std::optional<int64_t>>>
PlanLowering::lookupOperands(Operation *op, Value table, Value ids,
                             std::optional<int64_t> paddingIdx) {
  auto rows = dyn_cast<train::RowsType>(table.getType());
  if (!rows)
    return std::make_tuple(in(table), in(ids), paddingIdx);
  In requested = in(ids);
  SlotId positions =
      builder.addSlot(DType::I64, builder.getSlot(requested.slot).capacity);
  if (failed(call(op, kernels::findRows, rowIds(table), requested,
                  rows.getTableType().getDimSize(0), paddingIdx,
                  Out{positions})))
    return failure();
  return std::make_tuple(in(table), In{positions},
                         paddingIdx ? std::optional<int64_t>(-1)
                                    : std::nullopt);
}

int64_t PlanLowering::getRowCapacity(Value value) const {
  return builder.getSlot(rowIdSlots.lookup(value)).capacity;
}

FailureOr<ParamOut> PlanLowering::update(Operation *op,
                                         FlatSymbolRefAttr name) {
  FailureOr<ParameterId> id = lookupParameter(op, name);
  if (failed(id))
    return failure();
  return ParamOut{*id};
}

LogicalResult PlanLowering::addInputs(Block &block) {
  Operation *owner = block.getParentOp();
  for (BlockArgument argument : block.getArguments()) {
    // A row-sparse value is fed as its rows, then their ids.
    if (auto rows = dyn_cast<train::RowsType>(argument.getType())) {
      RankedTensorType table = rows.getTableType();
      auto [ids, values] = outRows(argument, table.getDimSize(0));
      Shape shape = getShape(table);
      shape[0] = -1;
      builder.addInput(values.slot, FeedSpec{*getDType(owner, table), shape});
      builder.addInput(ids.slot, FeedSpec{DType::I64, Shape{-1}});
      continue;
    }
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    if (!type)
      return owner->emitOpError("cannot feed a value of type ")
             << argument.getType() << "; the runtime feeds ranked tensors";
    FailureOr<DType> dtype = getDType(owner, type);
    if (failed(dtype))
      return failure();
    builder.addInput(out(argument).slot, FeedSpec{*dtype, getShape(type)});
  }
  return success();
}

unsigned PlanLowering::getLastUse(Value value) {
  unsigned last = 0;
  for (Operation *user : value.getUsers()) {
    last = std::max(last, positions.lookup(user));
    if (auto stop = dyn_cast<train::StopGradientOp>(user))
      last = std::max(last, getLastUse(stop.getOut()));
  }
  return last;
}

unsigned PlanLowering::getLastUseOfIds(Value rows) {
  unsigned last = getLastUse(rows);
  for (Value sharer : idSlotSharers.lookup(rowIdSlots.lookup(rows)))
    last = std::max(last, getLastUse(sharer));
  return last;
}

void PlanLowering::shareIds(Value rows, Value sharer) {
  SmallVector<Value> &sharers = idSlotSharers[rowIdSlots.lookup(rows)];
  if (sharers.empty())
    sharers.push_back(rows);
  sharers.push_back(sharer);
}

/// The kernel of train.write; writing a parameter's own value is a no-op.
static Status overwrite(const Tensor &value, Tensor &parameter) {
  if (&value != &parameter)
    parameter.copyFrom(value);
  return Status::ok();
}

/// A read shares the parameter's own buffer (a parameter slot) unless the
/// parameter is written before the read value's last use; then it copies.
LogicalResult PlanLowering::lowerRead(train::ReadOp op) {
  FailureOr<ParameterId> id =
      lookupParameter(op, op.getParamAttr(), op.getValue().getType());
  if (failed(id))
    return failure();
  unsigned readAt = positions.lookup(op);
  unsigned lastUse = std::max(readAt, getLastUse(op.getValue()));
  bool clobbered = llvm::any_of(writers.lookup(*id), [&](unsigned writeAt) {
    return writeAt > readAt && writeAt <= lastUse;
  });
  if (!clobbered) {
    slots[op.getValue()] = builder.addParameterSlot(*id);
    return success();
  }
  return call(op, kernels::copy, ParamIn{*id}, out(op.getValue()));
}

LogicalResult PlanLowering::lowerYield(train::YieldOp op) {
  auto step = op->getParentOfType<train::StepOp>();
  for (auto [index, value] : llvm::enumerate(op.getResults())) {
    if (isa<train::RowsType>(value.getType()))
      return op.emitOpError("cannot fetch result ")
             << index << " of type " << value.getType()
             << ": the runtime fetches tensors (densify it with "
                "train.rows_to_dense)";
    std::string name = index == 0 ? "loss" : "result" + std::to_string(index);
    if (auto attr = step.getResultAttrOfType<StringAttr>(index, "train.name"))
      name = attr.getValue().str();
    builder.addOutput(in(value).slot, std::move(name));
  }
  return success();
}

/// Fills are constants: computed once, here.
LogicalResult PlanLowering::lowerFill(train::FillOp op) {
  RankedTensorType type = op.getOut().getType();
  FailureOr<DType> dtype = getDType(op, type);
  if (failed(dtype))
    return failure();
  Tensor value(*dtype, getShape(type));
  Status status = kernels::fill(op.getValue().convertToDouble(), value);
  if (!status.isOk())
    return op.emitOpError(status.message());
  slots[op.getOut()] = builder.addConstantSlot(std::move(value));
  return success();
}

static std::optional<int64_t> optionalIndex(std::optional<uint64_t> value) {
  if (!value)
    return std::nullopt;
  return static_cast<int64_t>(*value);
}

static double toDouble(const APFloat &value) { return value.convertToDouble(); }

template <typename T> static std::vector<T> vectorOf(ArrayRef<T> values) {
  return std::vector<T>(values.begin(), values.end());
}

LogicalResult PlanLowering::lower(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](train::ReadOp read) { return lowerRead(read); })
      .Case([&](train::WriteOp write) -> LogicalResult {
        FailureOr<ParameterId> id = lookupParameter(op, write.getParamAttr(),
                                                    write.getValue().getType());
        if (failed(id))
          return failure();
        return call(op, overwrite, in(write.getValue()), ParamOut{*id});
      })
      .Case([&](train::YieldOp yield) { return lowerYield(yield); })
      .Case([&](train::FillOp fill) { return lowerFill(fill); })
      // SSA values never change, so passing one through needs no copy.
      .Case([&](train::StopGradientOp s) {
        slots[s.getOut()] = slots.lookup(s.getX());
        return success();
      })
      // Gradient slots only carry information between passes.
      .Case([&](train::ParamGradOp) { return success(); })
      .Case([&](train::ScaleOp s) -> LogicalResult {
        if (!isa<train::RowsType>(s.getX().getType()))
          return call(op, kernels::scale, in(s.getX()), toDouble(s.getFactor()),
                      out(s.getOut()));
        // Scaled rows keep their ids, which never change.
        const Plan::Slot &layout = builder.getSlot(in(s.getX()).slot);
        SlotId rows = builder.addSlot(layout.dtype, layout.capacity);
        slots[s.getOut()] = rows;
        rowIdSlots[s.getOut()] = rowIds(s.getX()).slot;
        shareIds(s.getX(), s.getOut());
        return call(op, kernels::scale, in(s.getX()), toDouble(s.getFactor()),
                    Out{rows});
      })
      .Case([&](train::MatmulOp m) {
        return call(op, kernels::matmul, in(m.getA()), in(m.getB()),
                    out(m.getOut()));
      })
      .Case([&](train::AddOp a) {
        return call(op, kernels::add, in(a.getX()), in(a.getY()),
                    out(a.getOut()));
      })
      .Case([&](train::MulOp m) {
        return call(op, kernels::mul, in(m.getX()), in(m.getY()),
                    out(m.getOut()));
      })
      .Case([&](train::ReluOp u) {
        return call(op, kernels::relu, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::SigmoidOp u) {
        return call(op, kernels::sigmoid, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::TanhOp u) {
        return call(op, kernels::tanh, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::SoftmaxOp u) {
        return call(op, kernels::softmax, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::SoftmaxCrossEntropyOp l) {
        return call(op, kernels::softmaxCrossEntropy, in(l.getLogits()),
                    in(l.getLabels()), out(l.getOut()));
      })
      .Case([&](train::SigmoidCrossEntropyOp l) {
        return call(op, kernels::sigmoidCrossEntropy, in(l.getLogits()),
                    in(l.getLabels()), out(l.getOut()));
      })
      .Case([&](train::MeanOp m) {
        return call(op, kernels::mean, in(m.getX()), out(m.getOut()));
      })
      .Case([&](train::ReduceSumOp s) {
        return call(op, kernels::reduceSum, in(s.getX()), vectorOf(s.getDims()),
                    s.getKeepDims(), out(s.getOut()));
      })
      .Case([&](train::ReshapeOp s) {
        return call(op, kernels::reshape, in(s.getX()),
                    getShape(s.getOut().getType()), out(s.getOut()));
      })
      .Case([&](train::ConcatOp c) {
        return call(op, kernels::concat, in(c.getInputs()), c.getAxis(),
                    out(c.getOut()));
      })
      .Case([&](train::EmbeddingOp e) -> LogicalResult {
        auto operands = lookupOperands(op, e.getTable(), e.getIds(),
                                       optionalIndex(e.getPaddingIdx()));
        if (failed(operands))
          return failure();
        auto [table, ids, paddingIdx] = *operands;
        return call(op, kernels::embedding, table, ids, paddingIdx,
                    out(e.getOut()));
      })
      .Case([&](ps::RouteIdsOp r) -> LogicalResult {
        int64_t ids = 0;
        for (Value input : r.getIds())
          ids += builder.getSlot(in(input).slot).capacity;
        Outs sections;
        for (auto [local, rows] : llvm::zip(r.getLocalIds(), r.getSections())) {
          SlotId slot = builder.addSlot(DType::I64, std::min(ids, rows));
          slots[local] = slot;
          sections.slots.push_back(slot);
        }
        return call(op, kernels::routeIds, in(r.getIds()), r.getTable().str(),
                    vectorOf(r.getSections()), sections);
      })
      // A gradient nothing reads (that of the fed batch) is not computed.
      .Case([&](train::MatmulGradOp g) {
        auto maybeOut = [&](Value value) {
          return value.use_empty() ? MaybeOut{} : MaybeOut{out(value).slot};
        };
        return call(op, kernels::matmulGrad, in(g.getA()), in(g.getB()),
                    in(g.getDout()), maybeOut(g.getDa()), maybeOut(g.getDb()));
      })
      .Case([&](train::AddGradOp g) {
        return call(op, kernels::addGrad, in(g.getX()), in(g.getY()),
                    in(g.getDout()), out(g.getDx()), out(g.getDy()));
      })
      .Case([&](train::MulGradOp g) {
        return call(op, kernels::mulGrad, in(g.getX()), in(g.getY()),
                    in(g.getDout()), out(g.getDx()), out(g.getDy()));
      })
      .Case([&](train::ReluGradOp g) {
        return call(op, kernels::reluGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::SigmoidGradOp g) {
        return call(op, kernels::sigmoidGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::TanhGradOp g) {
        return call(op, kernels::tanhGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::SoftmaxGradOp g) {
        return call(op, kernels::softmaxGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::SoftmaxCrossEntropyGradOp g) {
        return call(op, kernels::softmaxCrossEntropyGrad, in(g.getLogits()),
                    in(g.getLabels()), in(g.getDloss()), out(g.getDlogits()));
      })
      .Case([&](train::SigmoidCrossEntropyGradOp g) {
        return call(op, kernels::sigmoidCrossEntropyGrad, in(g.getLogits()),
                    in(g.getLabels()), in(g.getDloss()), out(g.getDlogits()));
      })
      .Case([&](train::MeanGradOp g) {
        return call(op, kernels::meanGrad, in(g.getX()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::ReduceSumGradOp g) {
        return call(op, kernels::reduceSumGrad, in(g.getX()), in(g.getDout()),
                    vectorOf(g.getDims()), g.getKeepDims(), out(g.getDx()));
      })
      .Case([&](train::ReshapeGradOp g) {
        return call(op, kernels::reshapeGrad, in(g.getX()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::ConcatGradOp g) {
        return call(op, kernels::concatGrad, in(g.getInputs()), in(g.getDout()),
                    g.getAxis(), out(g.getDinputs()));
      })
      .Case([&](train::EmbeddingGradOp g) {
        Shape table = getShape(train::getDenseType(g.getDtable().getType()));
        std::optional<int64_t> paddingIdx = optionalIndex(g.getPaddingIdx());
        if (!isa<train::RowsType>(g.getDtable().getType()))
          return call(op, kernels::embeddingGrad, in(g.getIds()),
                      in(g.getDout()), table, paddingIdx, out(g.getDtable()));
        int64_t lookups = builder.getSlot(in(g.getIds()).slot).capacity;
        auto [ids, rows] = outRows(g.getDtable(), lookups);
        return call(op, kernels::embeddingGradRows, in(g.getIds()),
                    in(g.getDout()), table, paddingIdx, ids, rows);
      })
      .Case([&](train::MergeRowsOp m) {
        int64_t total = 0;
        for (Value input : m.getInputs())
          total += getRowCapacity(input);
        RankedTensorType table = m.getOut().getType().getTableType();
        auto [ids, rows] = outRows(m.getOut(), total);
        return call(op, kernels::mergeRows, rowIds(m.getInputs()),
                    in(m.getInputs()), getShape(table), ids, rows);
      })
      .Case([&](train::RowsToDenseOp r) {
        return call(op, kernels::rowsToDense, rowIds(r.getRows()),
                    in(r.getRows()), getShape(r.getOut().getType()),
                    out(r.getOut()));
      })
      .Case([&](train::ChangedRowsOp c) {
        auto [ids, rows] =
            outRows(c.getOut(), c.getLhs().getType().getDimSize(0));
        return call(op, kernels::changedRows, in(c.getLhs()), in(c.getRhs()),
                    ids, rows);
      })
      // A row-sparse value's ids are a tensor of their own.
      .Case([&](train::RowIdsOp r) {
        slots[r.getIds()] = rowIds(r.getRows()).slot;
        shareIds(r.getRows(), r.getIds());
        return success();
      })
      .Case([&](train::ScatterRowsOp s) -> LogicalResult {
        FailureOr<ParameterId> id = lookupParameter(
            op, s.getParamAttr(), s.getRows().getType().getTableType());
        if (failed(id))
          return failure();
        return call(op, kernels::scatterRows, rowIds(s.getRows()),
                    in(s.getRows()), s.getAccumulate(), ParamOut{*id});
      })
      .Case([&](train::OptimizerOpInterface o) { return lowerOptimizer(o); })
      .Case([&](train::ClipByGlobalNormOp c) {
        return call(op, kernels::clipByGlobalNorm, in(c.getGrads()),
                    toDouble(c.getMaxNorm()), out(c.getClipped()));
      })
      .Case([&](train::ClipByNormOp c) {
        return call(op, kernels::clipByNorm, in(c.getX()),
                    toDouble(c.getMaxNorm()), out(c.getOut()));
      })
      .Case([&](train::ClipOp c) {
        return call(op, kernels::clip, in(c.getX()), toDouble(c.getMin()),
                    toDouble(c.getMax()), out(c.getOut()));
      })
      .Case([&](train::SignOp s) {
        return call(op, kernels::sign, in(s.getX()), out(s.getOut()));
      })
      .Case([&](train::IncrementOp i) {
        return call(op, kernels::increment, in(i.getX()), out(i.getOut()));
      })
      .Case([&](train::ExponentialDecayOp d) {
        return call(op, kernels::exponentialDecay, in(d.getStep()),
                    toDouble(d.getLearningRate()), toDouble(d.getDecayRate()),
                    d.getDecaySteps(), d.getStaircase(), out(d.getLr()));
      })
      .Case([&](train::PiecewiseDecayOp d) {
        return call(op, kernels::piecewiseDecay, in(d.getStep()),
                    vectorOf(d.getBoundaries()), vectorOf(d.getValues()),
                    out(d.getLr()));
      })
      .Case([&](ps::SplitOp s) -> LogicalResult {
        if (!isa<train::RowsType>(s.getInput().getType()))
          return call(op, kernels::splitRows, in(s.getInput()),
                      vectorOf(s.getSections()), out(s.getOutputs()));
        Outs ids, rows;
        for (Value section : s.getOutputs()) {
          auto [sectionIds, sectionRows] =
              outRows(section, getRowCapacity(s.getInput()));
          ids.slots.push_back(sectionIds.slot);
          rows.slots.push_back(sectionRows.slot);
        }
        return call(op, kernels::splitRowSections, rowIds(s.getInput()),
                    in(s.getInput()), vectorOf(s.getSections()), ids, rows);
      })
      .Case([&](ps::ConcatOp c) -> LogicalResult {
        if (!isa<train::RowsType>(c.getOutput().getType()))
          return call(op, kernels::concat, in(c.getInputs()), int64_t(0),
                      out(c.getOutput()));
        int64_t capacity = 0;
        std::vector<int64_t> sections;
        for (Value section : c.getInputs()) {
          capacity += getRowCapacity(section);
          sections.push_back(
              train::getDenseType(section.getType()).getDimSize(0));
        }
        auto [ids, rows] = outRows(c.getOutput(), capacity);
        return call(op, kernels::concatRowSections, rowIds(c.getInputs()),
                    in(c.getInputs()), sections, ids, rows);
      })
      .Case<ps::SendOp, ps::RecvOp, ps::PrefetchOp, ps::SendBarrierOp,
            ps::FetchBarrierOp, ps::ReduceNormOp>(
          [&](Operation *communication) {
            return lowerCommunication(communication);
          })
      .Case([&](ps::ClipByGlobalNormOp clip) {
        return lowerSharedNormClip(clip);
      })
      .Default([&](Operation *other) -> LogicalResult {
        if (std::optional<LogicalResult> lowered = lowerModelOp(other))
          return *lowered;
        if (std::optional<LogicalResult> lowered = lowerUpstreamOp(other))
          return *lowered;
        return other->emitOpError(
            "cannot be run: the runtime has no kernel for it");
      });
}

FailureOr<Plan> PlanLowering::build(Region &body) {
  if (!body.hasOneBlock())
    return body.getParentOp()->emitOpError(
        "has a region the runtime cannot run: a plan needs exactly one block");
  Block &block = body.front();
  if (options.maxBatch < 1)
    return body.getParentOp()->emitOpError("cannot be planned for a batch of ")
           << options.maxBatch << " rows";
  if (failed(checkCapacities(block)) || failed(addInputs(block)))
    return failure();

  // Every parameter written before lowering, for the read sharing rule.
  for (auto [index, op] : llvm::enumerate(block)) {
    positions[&op] = index;
    SmallVector<FlatSymbolRefAttr> written;
    if (auto write = dyn_cast<train::WriteOp>(op))
      written.push_back(write.getParamAttr());
    if (auto optimizer = dyn_cast<train::OptimizerOpInterface>(op)) {
      written.push_back(optimizer.getParamAttr());
      llvm::append_range(written, optimizer.getElementwiseState());
      llvm::append_range(written, optimizer.getScalarState());
    }
    for (FlatSymbolRefAttr name : written)
      if (std::optional<ParameterId> id = store.lookup(name.getValue().str()))
        writers[*id].push_back(index);
  }
  if (failed(planInPlaceReceives(block)))
    return failure();
  for (Operation &op : block)
    if (!batched.contains(&op) && !landed.contains(&op) && failed(lower(&op)))
      return failure();
  return std::move(builder).build(options.shareBuffers);
}

FailureOr<Plan> openks::runtime::buildPlan(Region &body,
                                           const ParameterStore &store,
                                           const PlanOptions &options) {
  return PlanLowering(store, options).build(body);
}
