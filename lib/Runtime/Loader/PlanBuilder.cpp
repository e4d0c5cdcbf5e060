//===- PlanBuilder.cpp - Build execution plans from train IR --------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/PlanBuilder.h"

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Runtime/Kernels.h"

#include "mlir/IR/BuiltinTypes.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;

namespace {

/// Builds one plan; see buildPlan.
class PlanBuilder {
public:
  PlanBuilder(const PlanOptions &options) : options(options) {}

  FailureOr<Plan> build(train::StepOp step);

private:
  LogicalResult addParameters(Operation *symbolTable);
  LogicalResult addInputs(train::StepOp step);
  LogicalResult lower(Operation *op);
  LogicalResult lowerRead(train::ReadOp op);
  LogicalResult lowerYield(train::YieldOp op);

  /// Returns the buffer of an already lowered value.
  const Tensor *in(Value value) { return buffers.lookup(value); }
  /// Returns the buffers of already lowered values.
  std::vector<const Tensor *> in(ValueRange values);
  /// Creates the buffer of `value`, sized for the largest batch.
  Tensor *out(Value value);
  /// Creates the buffers of `values`.
  std::vector<Tensor *> out(ValueRange values);
  /// Appends a call of `kernel` on `args`; tensor pointers are passed to it
  /// as references.
  template <typename Kernel, typename... Args>
  LogicalResult call(Operation *op, Kernel kernel, Args... args);
  /// Returns the tensor of parameter `name`.
  Tensor *param(FlatSymbolRefAttr name) {
    return params.lookup(name.getValue());
  }
  /// Appends a kernel call for `op`.
  LogicalResult emit(Operation *op, std::function<Status()> run);

  const PlanOptions &options;
  Plan plan;
  llvm::DenseMap<Value, Tensor *> buffers;
  llvm::StringMap<Tensor *> params;
  /// The position of each op of the step body, for the read aliasing rule.
  llvm::DenseMap<Operation *, unsigned> positions;
  /// The positions of the ops that write each parameter.
  llvm::StringMap<SmallVector<unsigned>> writers;
};

} // namespace

/// Maps an MLIR element type to a runtime dtype.
static FailureOr<DType> dtypeOf(Operation *op, Type type) {
  Type element = getElementTypeOrSelf(type);
  if (element.isF32())
    return DType::F32;
  if (element.isF64())
    return DType::F64;
  if (element.isInteger(64))
    return DType::I64;
  return op->emitOpError("the runtime has no tensors of ") << element;
}

/// Returns the runtime shape of a ranked tensor type, with -1 for dynamic
/// dimensions.
static Shape shapeOf(RankedTensorType type) {
  Shape shape;
  for (int64_t size : type.getShape())
    shape.push_back(ShapedType::isDynamic(size) ? -1 : size);
  return shape;
}

/// Returns a short "file:line:col: 'op.name'" for runtime error messages.
static std::string describe(Operation *op) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto loc = dyn_cast<FileLineColLoc>(op->getLoc()))
    os << loc.getFilename().getValue() << ':' << loc.getLine() << ':'
       << loc.getColumn() << ": ";
  os << "'" << op->getName() << "'";
  return text;
}

static InitializerSpec initializerSpec(train::InitializerAttrInterface attr,
                                       uint64_t runSeed) {
  InitializerSpec spec;
  llvm::TypeSwitch<Attribute>(attr)
      .Case([&](train::ConstantInitAttr a) {
        spec.kind = InitializerSpec::Kind::Constant;
        spec.value = a.getValue().convertToDouble();
      })
      .Case([&](train::UniformInitAttr a) {
        spec.kind = InitializerSpec::Kind::Uniform;
        spec.min = a.getMin().convertToDouble();
        spec.max = a.getMax().convertToDouble();
        spec.seed = mixSeed(a.getSeed(), runSeed);
      })
      .Case([&](train::GaussianInitAttr a) {
        spec.kind = InitializerSpec::Kind::Gaussian;
        spec.mean = a.getMean().convertToDouble();
        spec.std = a.getStd().convertToDouble();
        spec.seed = mixSeed(a.getSeed(), runSeed);
      })
      .Case([&](train::XavierInitAttr a) {
        spec.kind = InitializerSpec::Kind::Xavier;
        spec.seed = mixSeed(a.getSeed(), runSeed);
      });
  return spec;
}

LogicalResult PlanBuilder::addParameters(Operation *symbolTable) {
  for (Operation &op : symbolTable->getRegion(0).front()) {
    auto paramOp = dyn_cast<train::ParameterOpInterface>(op);
    if (!paramOp)
      continue;
    FailureOr<DType> dtype = dtypeOf(&op, paramOp.getParameterType());
    if (failed(dtype))
      return failure();
    Parameter parameter;
    parameter.name = SymbolTable::getSymbolName(&op).str();
    parameter.initializer =
        initializerSpec(paramOp.getInitializerAttr(), options.runSeed);
    parameter.trainable = paramOp.isTrainable();
    parameter.wholeShape = shapeOf(paramOp.getParameterType());
    parameter.value = Tensor(*dtype, shapeOf(paramOp.getParameterType()));
    std::string name = parameter.name;
    params[name] = &plan.addParameter(std::move(parameter));
  }
  return success();
}

Tensor *PlanBuilder::out(Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  int64_t capacity = 1;
  for (int64_t size : type.getShape())
    capacity *= ShapedType::isDynamic(size) ? options.maxBatch : size;
  // dtypeOf cannot fail here: the op verifiers admit only f32, f64 and i64.
  DType dtype =
      *dtypeOf(value.getDefiningOp() ? value.getDefiningOp()
                                     : value.getParentBlock()->getParentOp(),
               type);
  Tensor *tensor = &plan.addValue(dtype, capacity);
  buffers[value] = tensor;
  return tensor;
}

LogicalResult PlanBuilder::addInputs(train::StepOp step) {
  for (BlockArgument argument : step.getBody().getArguments()) {
    auto type = cast<RankedTensorType>(argument.getType());
    FailureOr<DType> dtype = dtypeOf(step, type);
    if (failed(dtype))
      return failure();
    plan.addInput(*out(argument), FeedSpec{*dtype, shapeOf(type)});
  }
  return success();
}

LogicalResult PlanBuilder::emit(Operation *op, std::function<Status()> run) {
  plan.addInstruction(std::move(run), describe(op));
  return success();
}

/// A read hands over the parameter's own buffer unless the parameter is
/// written before the read value's last use; then it copies.
LogicalResult PlanBuilder::lowerRead(train::ReadOp op) {
  Tensor *source = param(op.getParamAttr());
  unsigned readAt = positions.lookup(op);
  unsigned lastUse = readAt;
  for (Operation *user : op.getValue().getUsers())
    lastUse = std::max(lastUse, positions.lookup(user));
  bool clobbered = llvm::any_of(
      writers.lookup(op.getParamAttr().getValue()),
      [&](unsigned writeAt) { return writeAt > readAt && writeAt <= lastUse; });
  if (!clobbered) {
    buffers[op.getValue()] = source;
    return success();
  }
  Tensor *copy = out(op.getValue());
  return emit(op, [source, copy] {
    copy->copyFrom(*source);
    return Status::ok();
  });
}

LogicalResult PlanBuilder::lowerYield(train::YieldOp op) {
  auto step = op->getParentOfType<train::StepOp>();
  for (auto [index, value] : llvm::enumerate(op.getResults())) {
    std::string name = index == 0 ? "loss" : "result" + std::to_string(index);
    if (auto attr = step.getResultAttrOfType<StringAttr>(index, "train.name"))
      name = attr.getValue().str();
    plan.addOutput(*in(value), std::move(name));
  }
  return success();
}

/// Kernel arguments are captured as pointers into the plan; kernels take
/// references.
template <typename T> static T &deref(T *tensor) { return *tensor; }
template <typename T> static T &&deref(T &&value) {
  return std::forward<T>(value);
}

template <typename Kernel, typename... Args>
LogicalResult PlanBuilder::call(Operation *op, Kernel kernel, Args... args) {
  return emit(op, [kernel, args...] { return kernel(deref(args)...); });
}

std::vector<const Tensor *> PlanBuilder::in(ValueRange values) {
  std::vector<const Tensor *> tensors;
  for (Value value : values)
    tensors.push_back(in(value));
  return tensors;
}

std::vector<Tensor *> PlanBuilder::out(ValueRange values) {
  std::vector<Tensor *> tensors;
  for (Value value : values)
    tensors.push_back(out(value));
  return tensors;
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

LogicalResult PlanBuilder::lower(Operation *op) {
  using namespace kernels;
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case([&](train::ReadOp read) { return lowerRead(read); })
      .Case([&](train::WriteOp write) {
        const Tensor *value = in(write.getValue());
        Tensor *target = param(write.getParamAttr());
        return emit(op, [value, target] {
          if (value != target)
            target->copyFrom(*value);
          return Status::ok();
        });
      })
      .Case([&](train::YieldOp yield) { return lowerYield(yield); })
      // Fills are constants: computed once, here.
      .Case([&](train::FillOp fill) -> LogicalResult {
        Tensor *result = out(fill.getOut());
        result->resize(shapeOf(fill.getOut().getType()));
        Status status = kernels::fill(toDouble(fill.getValue()), *result);
        if (!status.isOk())
          return fill.emitOpError(status.message());
        return success();
      })
      // SSA values never change, so passing one through needs no copy.
      .Case([&](train::StopGradientOp s) {
        buffers[s.getOut()] = buffers.lookup(s.getX());
        return success();
      })
      // Gradient slots only carry information between passes.
      .Case([&](train::ParamGradOp) { return success(); })
      .Case([&](train::ScaleOp s) {
        return call(op, scale, in(s.getX()), toDouble(s.getFactor()),
                    out(s.getOut()));
      })
      .Case([&](train::MatmulOp m) {
        return call(op, matmul, in(m.getA()), in(m.getB()), out(m.getOut()));
      })
      .Case([&](train::AddOp a) {
        return call(op, add, in(a.getX()), in(a.getY()), out(a.getOut()));
      })
      .Case([&](train::MulOp m) {
        return call(op, mul, in(m.getX()), in(m.getY()), out(m.getOut()));
      })
      .Case([&](train::ReluOp u) {
        return call(op, relu, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::SigmoidOp u) {
        return call(op, sigmoid, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::TanhOp u) {
        return call(op, kernels::tanh, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::SoftmaxOp u) {
        return call(op, softmax, in(u.getX()), out(u.getOut()));
      })
      .Case([&](train::SoftmaxCrossEntropyOp l) {
        return call(op, softmaxCrossEntropy, in(l.getLogits()),
                    in(l.getLabels()), out(l.getOut()));
      })
      .Case([&](train::SigmoidCrossEntropyOp l) {
        return call(op, sigmoidCrossEntropy, in(l.getLogits()),
                    in(l.getLabels()), out(l.getOut()));
      })
      .Case([&](train::MeanOp m) {
        return call(op, mean, in(m.getX()), out(m.getOut()));
      })
      .Case([&](train::ReduceSumOp s) {
        return call(op, reduceSum, in(s.getX()), vectorOf(s.getDims()),
                    s.getKeepDims(), out(s.getOut()));
      })
      .Case([&](train::ReshapeOp s) {
        return call(op, reshape, in(s.getX()), shapeOf(s.getOut().getType()),
                    out(s.getOut()));
      })
      .Case([&](train::ConcatOp c) {
        return call(op, concat, in(c.getInputs()), c.getAxis(),
                    out(c.getOut()));
      })
      .Case([&](train::EmbeddingOp e) {
        return call(op, embedding, in(e.getTable()), in(e.getIds()),
                    optionalIndex(e.getPaddingIdx()), out(e.getOut()));
      })
      // A gradient nothing reads (that of the fed batch) is not computed.
      .Case([&](train::MatmulGradOp g) {
        Tensor *da = g.getDa().use_empty() ? nullptr : out(g.getDa());
        Tensor *db = g.getDb().use_empty() ? nullptr : out(g.getDb());
        return emit(op,
                    [a = in(g.getA()), b = in(g.getB()), dout = in(g.getDout()),
                     da, db] { return matmulGrad(*a, *b, *dout, da, db); });
      })
      .Case([&](train::AddGradOp g) {
        return call(op, addGrad, in(g.getX()), in(g.getY()), in(g.getDout()),
                    out(g.getDx()), out(g.getDy()));
      })
      .Case([&](train::MulGradOp g) {
        return call(op, mulGrad, in(g.getX()), in(g.getY()), in(g.getDout()),
                    out(g.getDx()), out(g.getDy()));
      })
      .Case([&](train::ReluGradOp g) {
        return call(op, reluGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::SigmoidGradOp g) {
        return call(op, sigmoidGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::TanhGradOp g) {
        return call(op, tanhGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::SoftmaxGradOp g) {
        return call(op, softmaxGrad, in(g.getOut()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::SoftmaxCrossEntropyGradOp g) {
        return call(op, softmaxCrossEntropyGrad, in(g.getLogits()),
                    in(g.getLabels()), in(g.getDloss()), out(g.getDlogits()));
      })
      .Case([&](train::SigmoidCrossEntropyGradOp g) {
        return call(op, sigmoidCrossEntropyGrad, in(g.getLogits()),
                    in(g.getLabels()), in(g.getDloss()), out(g.getDlogits()));
      })
      .Case([&](train::MeanGradOp g) {
        return call(op, meanGrad, in(g.getX()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::ReduceSumGradOp g) {
        return call(op, reduceSumGrad, in(g.getX()), in(g.getDout()),
                    vectorOf(g.getDims()), g.getKeepDims(), out(g.getDx()));
      })
      .Case([&](train::ReshapeGradOp g) {
        return call(op, reshapeGrad, in(g.getX()), in(g.getDout()),
                    out(g.getDx()));
      })
      .Case([&](train::ConcatGradOp g) {
        return call(op, concatGrad, in(g.getInputs()), in(g.getDout()),
                    g.getAxis(), out(g.getDinputs()));
      })
      .Case([&](train::EmbeddingGradOp g) {
        return call(op, embeddingGrad, in(g.getIds()), in(g.getDout()),
                    shapeOf(g.getDtable().getType()),
                    optionalIndex(g.getPaddingIdx()), out(g.getDtable()));
      })
      .Case([&](train::SgdOp o) {
        return call(op, sgd, param(o.getParamAttr()), in(o.getGrad()),
                    in(o.getLr()));
      })
      .Case([&](train::MomentumOp o) {
        return call(op, momentum, param(o.getParamAttr()),
                    param(o.getVelocityAttr()), in(o.getGrad()), in(o.getLr()),
                    toDouble(o.getMu()), o.getNesterov());
      })
      .Case([&](train::AdamOp o) {
        return call(op, adam, param(o.getParamAttr()),
                    param(o.getMoment1Attr()), param(o.getMoment2Attr()),
                    param(o.getBeta1PowAttr()), param(o.getBeta2PowAttr()),
                    in(o.getGrad()), in(o.getLr()), toDouble(o.getBeta1()),
                    toDouble(o.getBeta2()), toDouble(o.getEpsilon()));
      })
      .Case([&](train::AdagradOp o) {
        return call(op, adagrad, param(o.getParamAttr()),
                    param(o.getMomentAttr()), in(o.getGrad()), in(o.getLr()),
                    toDouble(o.getEpsilon()));
      })
      .Case([&](train::ClipByGlobalNormOp c) {
        return call(op, clipByGlobalNorm, in(c.getGrads()),
                    toDouble(c.getMaxNorm()), out(c.getClipped()));
      })
      .Case([&](train::IncrementOp i) {
        return call(op, increment, in(i.getX()), out(i.getOut()));
      })
      .Case([&](train::ExponentialDecayOp d) {
        return call(op, exponentialDecay, in(d.getStep()),
                    toDouble(d.getLearningRate()), toDouble(d.getDecayRate()),
                    d.getDecaySteps(), d.getStaircase(), out(d.getLr()));
      })
      .Case([&](train::PiecewiseDecayOp d) {
        return call(op, piecewiseDecay, in(d.getStep()),
                    vectorOf(d.getBoundaries()), vectorOf(d.getValues()),
                    out(d.getLr()));
      })
      .Case([&](ps::SplitOp s) {
        return call(op, splitRows, in(s.getInput()), vectorOf(s.getSections()),
                    out(s.getOutputs()));
      })
      .Case([&](ps::ConcatOp c) {
        return call(op, concat, in(c.getInputs()), int64_t(0),
                    out(c.getOutput()));
      })
      .Default([&](Operation *other) {
        return other->emitOpError(
            "cannot run in a single-process step; the runtime has no kernel "
            "for it");
      });
}

FailureOr<Plan> PlanBuilder::build(train::StepOp step) {
  Operation *symbolTable =
      SymbolTable::getNearestSymbolTable(step->getParentOp());
  if (!symbolTable || failed(addParameters(symbolTable)) ||
      failed(addInputs(step)))
    return failure();

  Block &body = step.getBody().front();
  for (auto [index, op] : llvm::enumerate(body)) {
    positions[&op] = index;
    if (auto write = dyn_cast<train::WriteOp>(op))
      writers[write.getParamAttr().getValue()].push_back(index);
    if (auto optimizer = dyn_cast<train::OptimizerOpInterface>(op)) {
      writers[optimizer.getParamAttr().getValue()].push_back(index);
      for (FlatSymbolRefAttr state : optimizer.getElementwiseState())
        writers[state.getValue()].push_back(index);
      for (FlatSymbolRefAttr state : optimizer.getScalarState())
        writers[state.getValue()].push_back(index);
    }
  }
  for (Operation &op : body)
    if (failed(lower(&op)))
      return failure();
  return std::move(plan);
}

FailureOr<Plan> openks::runtime::buildPlan(train::StepOp step,
                                           const PlanOptions &options) {
  return PlanBuilder(options).build(step);
}
