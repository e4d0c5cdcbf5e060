//===- PlanBuilder.cpp - Build execution plans from train IR --------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Loader/PlanBuilder.h"

#include "dialects/PS/IR/PSOps.h"
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
  /// Creates the buffer of `value`, sized for the largest batch.
  Tensor *out(Value value);
  /// Returns the tensor of parameter `name`.
  Tensor *param(FlatSymbolRefAttr name) { return params.lookup(name.getValue()); }
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
  DType dtype = *dtypeOf(value.getDefiningOp() ? value.getDefiningOp()
                                               : value.getParentBlock()
                                                     ->getParentOp(),
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

LogicalResult PlanBuilder::lower(Operation *op) {
  auto inputs = [&](ValueRange values) {
    std::vector<const Tensor *> tensors;
    for (Value value : values)
      tensors.push_back(in(value));
    return tensors;
  };
  auto outputs = [&](ValueRange values) {
    std::vector<Tensor *> tensors;
    for (Value value : values)
      tensors.push_back(out(value));
    return tensors;
  };
  auto optionalIndex = [](std::optional<uint64_t> value) {
    return value ? std::optional<int64_t>(static_cast<int64_t>(*value))
                 : std::nullopt;
  };
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
        Status status = kernels::fill(fill.getValue().convertToDouble(), *result);
        if (!status.isOk())
          return fill.emitOpError(status.message());
        return success();
      })
      .Case([&](train::ScaleOp scale) {
        return emit(op, [x = in(scale.getX()), factor = scale.getFactor().convertToDouble(),
                         result = out(scale.getOut())] {
          return kernels::scale(*x, factor, *result);
        });
      })
      .Case([&](train::MatmulOp m) {
        return emit(op, [a = in(m.getA()), b = in(m.getB()), r = out(m.getOut())] {
          return matmul(*a, *b, *r);
        });
      })
      .Case([&](train::AddOp a) {
        return emit(op, [x = in(a.getX()), y = in(a.getY()), r = out(a.getOut())] {
          return add(*x, *y, *r);
        });
      })
      .Case([&](train::MulOp m) {
        return emit(op, [x = in(m.getX()), y = in(m.getY()), r = out(m.getOut())] {
          return mul(*x, *y, *r);
        });
      })
      .Case([&](train::ReluOp u) {
        return emit(op, [x = in(u.getX()), r = out(u.getOut())] { return relu(*x, *r); });
      })
      .Case([&](train::SigmoidOp u) {
        return emit(op, [x = in(u.getX()), r = out(u.getOut())] { return sigmoid(*x, *r); });
      })
      .Case([&](train::TanhOp u) {
        return emit(op, [x = in(u.getX()), r = out(u.getOut())] { return kernels::tanh(*x, *r); });
      })
      .Case([&](train::SoftmaxOp u) {
        return emit(op, [x = in(u.getX()), r = out(u.getOut())] { return softmax(*x, *r); });
      })
      .Case([&](train::SoftmaxCrossEntropyOp l) {
        return emit(op, [x = in(l.getLogits()), y = in(l.getLabels()), r = out(l.getOut())] {
          return softmaxCrossEntropy(*x, *y, *r);
        });
      })
      .Case([&](train::SigmoidCrossEntropyOp l) {
        return emit(op, [x = in(l.getLogits()), y = in(l.getLabels()), r = out(l.getOut())] {
          return sigmoidCrossEntropy(*x, *y, *r);
        });
      })
      .Case([&](train::MeanOp m) {
        return emit(op, [x = in(m.getX()), r = out(m.getOut())] { return mean(*x, *r); });
      })
      .Case([&](train::ReduceSumOp s) {
        std::vector<int64_t> dims(s.getDims().begin(), s.getDims().end());
        return emit(op, [x = in(s.getX()), dims, keep = s.getKeepDims(), r = out(s.getOut())] {
          return reduceSum(*x, dims, keep, *r);
        });
      })
      .Case([&](train::ReshapeOp s) {
        return emit(op, [x = in(s.getX()), shape = shapeOf(s.getOut().getType()),
                         r = out(s.getOut())] { return reshape(*x, shape, *r); });
      })
      .Case([&](train::ConcatOp c) {
        return emit(op, [xs = inputs(c.getInputs()), axis = c.getAxis(), r = out(c.getOut())] {
          return concat(xs, axis, *r);
        });
      })
      .Case([&](train::EmbeddingOp e) {
        return emit(op, [t = in(e.getTable()), ids = in(e.getIds()),
                         padding = optionalIndex(e.getPaddingIdx()), r = out(e.getOut())] {
          return embedding(*t, *ids, padding, *r);
        });
      })
      .Case([&](train::MatmulGradOp g) {
        return emit(op, [a = in(g.getA()), b = in(g.getB()), d = in(g.getDout()),
                         da = out(g.getDa()), db = out(g.getDb())] {
          return matmulGrad(*a, *b, *d, *da, *db);
        });
      })
      .Case([&](train::AddGradOp g) {
        return emit(op, [x = in(g.getX()), y = in(g.getY()), d = in(g.getDout()),
                         dx = out(g.getDx()), dy = out(g.getDy())] {
          return addGrad(*x, *y, *d, *dx, *dy);
        });
      })
      .Case([&](train::MulGradOp g) {
        return emit(op, [x = in(g.getX()), y = in(g.getY()), d = in(g.getDout()),
                         dx = out(g.getDx()), dy = out(g.getDy())] {
          return mulGrad(*x, *y, *d, *dx, *dy);
        });
      })
      .Case([&](train::ReluGradOp g) {
        return emit(op, [o = in(g.getOut()), d = in(g.getDout()), dx = out(g.getDx())] {
          return reluGrad(*o, *d, *dx);
        });
      })
      .Case([&](train::SigmoidGradOp g) {
        return emit(op, [o = in(g.getOut()), d = in(g.getDout()), dx = out(g.getDx())] {
          return sigmoidGrad(*o, *d, *dx);
        });
      })
      .Case([&](train::TanhGradOp g) {
        return emit(op, [o = in(g.getOut()), d = in(g.getDout()), dx = out(g.getDx())] {
          return tanhGrad(*o, *d, *dx);
        });
      })
      .Case([&](train::SoftmaxGradOp g) {
        return emit(op, [o = in(g.getOut()), d = in(g.getDout()), dx = out(g.getDx())] {
          return softmaxGrad(*o, *d, *dx);
        });
      })
      .Case([&](train::SoftmaxCrossEntropyGradOp g) {
        return emit(op, [x = in(g.getLogits()), y = in(g.getLabels()), d = in(g.getDloss()),
                         dx = out(g.getDlogits())] {
          return softmaxCrossEntropyGrad(*x, *y, *d, *dx);
        });
      })
      .Case([&](train::SigmoidCrossEntropyGradOp g) {
        return emit(op, [x = in(g.getLogits()), y = in(g.getLabels()), d = in(g.getDloss()),
                         dx = out(g.getDlogits())] {
          return sigmoidCrossEntropyGrad(*x, *y, *d, *dx);
        });
      })
      .Case([&](train::MeanGradOp g) {
        return emit(op, [x = in(g.getX()), d = in(g.getDout()), dx = out(g.getDx())] {
          return meanGrad(*x, *d, *dx);
        });
      })
      .Case([&](train::ReduceSumGradOp g) {
        std::vector<int64_t> dims(g.getDims().begin(), g.getDims().end());
        return emit(op, [x = in(g.getX()), d = in(g.getDout()), dims, keep = g.getKeepDims(),
                         dx = out(g.getDx())] {
          return reduceSumGrad(*x, *d, dims, keep, *dx);
        });
      })
      .Case([&](train::ReshapeGradOp g) {
        return emit(op, [x = in(g.getX()), d = in(g.getDout()), dx = out(g.getDx())] {
          return reshapeGrad(*x, *d, *dx);
        });
      })
      .Case([&](train::ConcatGradOp g) {
        return emit(op, [xs = inputs(g.getInputs()), d = in(g.getDout()), axis = g.getAxis(),
                         dxs = outputs(g.getDinputs())] {
          return concatGrad(xs, *d, axis, dxs);
        });
      })
      .Case([&](train::EmbeddingGradOp g) {
        return emit(op, [ids = in(g.getIds()), d = in(g.getDout()),
                         shape = shapeOf(g.getDtable().getType()),
                         padding = optionalIndex(g.getPaddingIdx()), dt = out(g.getDtable())] {
          return embeddingGrad(*ids, *d, shape, padding, *dt);
        });
      })
      .Case([&](train::SgdOp o) {
        return emit(op, [p = param(o.getParamAttr()), g = in(o.getGrad()), lr = in(o.getLr())] {
          return sgd(*p, *g, *lr);
        });
      })
      .Case([&](train::MomentumOp o) {
        return emit(op, [p = param(o.getParamAttr()), v = param(o.getVelocityAttr()),
                         g = in(o.getGrad()), lr = in(o.getLr()),
                         mu = o.getMu().convertToDouble(), nesterov = o.getNesterov()] {
          return momentum(*p, *v, *g, *lr, mu, nesterov);
        });
      })
      .Case([&](train::AdamOp o) {
        return emit(op, [p = param(o.getParamAttr()), m1 = param(o.getMoment1Attr()),
                         m2 = param(o.getMoment2Attr()), b1p = param(o.getBeta1PowAttr()),
                         b2p = param(o.getBeta2PowAttr()), g = in(o.getGrad()), lr = in(o.getLr()),
                         beta1 = o.getBeta1().convertToDouble(),
                         beta2 = o.getBeta2().convertToDouble(),
                         epsilon = o.getEpsilon().convertToDouble()] {
          return adam(*p, *m1, *m2, *b1p, *b2p, *g, *lr, beta1, beta2, epsilon);
        });
      })
      .Case([&](train::AdagradOp o) {
        return emit(op, [p = param(o.getParamAttr()), m = param(o.getMomentAttr()),
                         g = in(o.getGrad()), lr = in(o.getLr()),
                         epsilon = o.getEpsilon().convertToDouble()] {
          return adagrad(*p, *m, *g, *lr, epsilon);
        });
      })
      // SSA values never change, so passing one through needs no copy.
      .Case([&](train::StopGradientOp s) {
        buffers[s.getOut()] = buffers.lookup(s.getX());
        return success();
      })
      // Gradient slots only carry information between passes.
      .Case([&](train::ParamGradOp) { return success(); })
      .Case([&](train::ClipByGlobalNormOp c) {
        return emit(op, [gs = inputs(c.getGrads()),
                         maxNorm = c.getMaxNorm().convertToDouble(),
                         rs = outputs(c.getClipped())] {
          return clipByGlobalNorm(gs, maxNorm, rs);
        });
      })
      .Case([&](train::IncrementOp i) {
        return emit(op, [x = in(i.getX()), r = out(i.getOut())] {
          return increment(*x, *r);
        });
      })
      .Case([&](train::ExponentialDecayOp d) {
        return emit(op, [s = in(d.getStep()),
                         rate = d.getLearningRate().convertToDouble(),
                         decay = d.getDecayRate().convertToDouble(),
                         steps = d.getDecaySteps(), stairs = d.getStaircase(),
                         r = out(d.getLr())] {
          return exponentialDecay(*s, rate, decay, steps, stairs, *r);
        });
      })
      .Case([&](train::PiecewiseDecayOp d) {
        return emit(op, [s = in(d.getStep()),
                         bounds = std::vector<int64_t>(d.getBoundaries().begin(),
                                                       d.getBoundaries().end()),
                         rates = std::vector<double>(d.getValues().begin(),
                                                     d.getValues().end()),
                         r = out(d.getLr())] {
          return piecewiseDecay(*s, bounds, rates, *r);
        });
      })
      .Case([&](ps::SplitOp s) {
        std::vector<int64_t> rows(s.getSections().begin(), s.getSections().end());
        return emit(op, [x = in(s.getInput()), rows, outs = outputs(s.getOutputs())] {
          return splitRows(*x, rows, outs);
        });
      })
      .Case([&](ps::ConcatOp c) {
        return emit(op, [xs = inputs(c.getInputs()), r = out(c.getOutput())] {
          return concat(xs, /*axis=*/0, *r);
        });
      })
      .Default([&](Operation *other) {
        return other->emitOpError(
            "cannot run in a single-process step; the runtime has no kernel "
            "for it");
      });
}

FailureOr<Plan> PlanBuilder::build(train::StepOp step) {
  Operation *symbolTable = SymbolTable::getNearestSymbolTable(step->getParentOp());
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
