//===- ModelOpLowering.cpp - Plan calls of the model ops ------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops of TrainMathOps.td, TrainLossOps.td, TrainSequenceOps.td and
// TrainSamplingOps.td become calls of their kernels. A dropout with is_test
// is a scale (by 1 - dropout_prob, or 1 with upscale_in_train), and a
// dropout's gradient is the dropout kernel drawing its mask again.
//
//===----------------------------------------------------------------------===//

#include "LoaderUtils.h"
#include "PlanLowering.h"

#include "openks/Runtime/Kernels.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::loader;

/// The runtime's pool types mirror the dialect's.
static kernels::PoolType getPoolType(train::PoolType type) {
  switch (type) {
  case train::PoolType::Sum:
    return kernels::PoolType::Sum;
  case train::PoolType::Mean:
    return kernels::PoolType::Mean;
  case train::PoolType::Sqrt:
    return kernels::PoolType::Sqrt;
  }
  llvm_unreachable("unknown pool type");
}

static std::optional<int64_t> getPaddingIdx(std::optional<uint64_t> index) {
  if (!index)
    return std::nullopt;
  return static_cast<int64_t>(*index);
}

template <typename DropoutOpTy>
static kernels::DropoutMask getDropoutMask(DropoutOpTy op) {
  return {op.getDropoutProb().convertToDouble(), op.getSeed(),
          op.getUpscaleInTrain()};
}

template <typename NceOpTy>
static kernels::NceSampling getNceSampling(NceOpTy op) {
  return {static_cast<int64_t>(op.getNumNegSamples()),
          op.getSampler() == train::Sampler::LogUniform
              ? ClassSampler::Kind::LogUniform
              : ClassSampler::Kind::Uniform,
          op.getSeed()};
}

/// Returns where the rows of `value` begin in the global batch when its
/// first dimension is the batch (dynamic), so that random draws by row do
/// not depend on how the batch is split among trainers.
static FirstRow firstRowOf(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return {type && type.getRank() > 0 && type.isDynamicDim(0)};
}

std::optional<LogicalResult> PlanLowering::lowerModelOp(Operation *op) {
  auto unary = [&](auto kernel, Value x, Value out) {
    return call(op, kernel, in(x), this->out(out));
  };
  auto unaryGrad = [&](auto kernel, Value first, Value dout, Value dx) {
    return call(op, kernel, in(first), in(dout), out(dx));
  };
  return llvm::TypeSwitch<Operation *, std::optional<LogicalResult>>(op)
      // Element-wise math.
      .Case([&](train::SubOp s) {
        return call(op, kernels::sub, in(s.getX()), in(s.getY()),
                    out(s.getOut()));
      })
      .Case([&](train::DivOp d) {
        return call(op, kernels::div, in(d.getX()), in(d.getY()),
                    out(d.getOut()));
      })
      .Case([&](train::SubGradOp g) {
        return call(op, kernels::subGrad, in(g.getX()), in(g.getY()),
                    in(g.getDout()), out(g.getDx()), out(g.getDy()));
      })
      .Case([&](train::DivGradOp g) {
        return call(op, kernels::divGrad, in(g.getX()), in(g.getY()),
                    in(g.getDout()), out(g.getDx()), out(g.getDy()));
      })
      .Case([&](train::AbsOp u) {
        return unary(kernels::abs, u.getX(), u.getOut());
      })
      .Case([&](train::SquareOp u) {
        return unary(kernels::square, u.getX(), u.getOut());
      })
      .Case([&](train::SqrtOp u) {
        return unary(kernels::sqrt, u.getX(), u.getOut());
      })
      .Case([&](train::ExpOp u) {
        return unary(kernels::exp, u.getX(), u.getOut());
      })
      .Case([&](train::LogOp u) {
        return unary(kernels::log, u.getX(), u.getOut());
      })
      .Case([&](train::SoftsignOp u) {
        return unary(kernels::softsign, u.getX(), u.getOut());
      })
      .Case([&](train::AbsGradOp g) {
        return unaryGrad(kernels::absGrad, g.getX(), g.getDout(), g.getDx());
      })
      .Case([&](train::SquareGradOp g) {
        return unaryGrad(kernels::squareGrad, g.getX(), g.getDout(), g.getDx());
      })
      .Case([&](train::SqrtGradOp g) {
        return unaryGrad(kernels::sqrtGrad, g.getOut(), g.getDout(), g.getDx());
      })
      .Case([&](train::ExpGradOp g) {
        return unaryGrad(kernels::expGrad, g.getOut(), g.getDout(), g.getDx());
      })
      .Case([&](train::LogGradOp g) {
        return unaryGrad(kernels::logGrad, g.getX(), g.getDout(), g.getDx());
      })
      .Case([&](train::SoftsignGradOp g) {
        return unaryGrad(kernels::softsignGrad, g.getX(), g.getDout(),
                         g.getDx());
      })
      // Norms and cosines.
      .Case([&](train::PNormOp n) {
        return call(op, kernels::pNorm, in(n.getX()), int64_t(n.getP()),
                    int64_t(n.getAxis()), n.getKeepDims(), out(n.getOut()));
      })
      .Case([&](train::PNormGradOp g) {
        return call(op, kernels::pNormGrad, in(g.getX()), in(g.getOut()),
                    in(g.getDout()), int64_t(g.getP()), int64_t(g.getAxis()),
                    g.getKeepDims(), g.getEpsilon().convertToDouble(),
                    out(g.getDx()));
      })
      .Case([&](train::CosSimOp c) {
        return call(op, kernels::cosSim, in(c.getX()), in(c.getY()),
                    out(c.getOut()));
      })
      .Case([&](train::CosSimGradOp g) {
        return call(op, kernels::cosSimGrad, in(g.getX()), in(g.getY()),
                    in(g.getDout()), out(g.getDx()), out(g.getDy()));
      })
      // Losses.
      .Case([&](train::SquareErrorOp l) {
        return call(op, kernels::squareError, in(l.getInput()),
                    in(l.getLabel()), out(l.getOut()));
      })
      .Case([&](train::SquareErrorGradOp g) {
        return call(op, kernels::squareErrorGrad, in(g.getInput()),
                    in(g.getLabel()), in(g.getDout()), out(g.getDinput()),
                    out(g.getDlabel()));
      })
      .Case([&](train::MarginLossOp l) {
        return call(op, kernels::marginLoss, in(l.getPos()), in(l.getNeg()),
                    l.getMargin().convertToDouble(), out(l.getOut()));
      })
      .Case([&](train::MarginLossGradOp g) {
        return call(op, kernels::marginLossGrad, in(g.getPos()), in(g.getNeg()),
                    in(g.getDout()), g.getMargin().convertToDouble(),
                    out(g.getDpos()), out(g.getDneg()));
      })
      // Pooling.
      .Case([&](train::SequencePoolOp p) {
        return call(op, kernels::sequencePool, in(p.getX()), in(p.getLengths()),
                    getPoolType(p.getPooltype()), out(p.getOut()));
      })
      .Case([&](train::SequencePoolGradOp g) {
        return call(op, kernels::sequencePoolGrad, in(g.getX()),
                    in(g.getLengths()), in(g.getDout()),
                    getPoolType(g.getPooltype()), out(g.getDx()));
      })
      .Case([&](train::EmbeddingPoolOp p) -> LogicalResult {
        auto operands = lookupOperands(op, p.getTable(), p.getIds(),
                                       getPaddingIdx(p.getPaddingIdx()));
        if (failed(operands))
          return failure();
        auto [table, ids, paddingIdx] = *operands;
        return call(op, kernels::embeddingPool, table, ids, in(p.getLengths()),
                    getPoolType(p.getPooltype()), paddingIdx, out(p.getOut()));
      })
      .Case([&](train::EmbeddingPoolGradOp g) {
        Shape table = getShape(train::getDenseType(g.getDtable().getType()));
        kernels::PoolType type = getPoolType(g.getPooltype());
        std::optional<int64_t> paddingIdx = getPaddingIdx(g.getPaddingIdx());
        if (!isa<train::RowsType>(g.getDtable().getType()))
          return call(op, kernels::embeddingPoolGrad, in(g.getIds()),
                      in(g.getLengths()), in(g.getDout()), table, type,
                      paddingIdx, out(g.getDtable()));
        int64_t lookups = builder.getSlot(in(g.getIds()).slot).capacity;
        auto [ids, rows] = outRows(g.getDtable(), lookups);
        return call(op, kernels::embeddingPoolGradRows, in(g.getIds()),
                    in(g.getLengths()), in(g.getDout()), table, type,
                    paddingIdx, ids, rows);
      })
      // Sampling.
      .Case([&](train::DropoutOp d) {
        if (!d.getIsTest())
          return call(op, kernels::dropout, in(d.getX()), in(d.getStep()),
                      firstRowOf(d.getX()), getDropoutMask(d), out(d.getOut()));
        double keep = d.getUpscaleInTrain()
                          ? 1.0
                          : 1 - d.getDropoutProb().convertToDouble();
        return call(op, kernels::scale, in(d.getX()), keep, out(d.getOut()));
      })
      .Case([&](train::DropoutGradOp g) {
        return call(op, kernels::dropoutGrad, in(g.getDout()), in(g.getStep()),
                    firstRowOf(g.getDout()), getDropoutMask(g), out(g.getDx()));
      })
      .Case([&](train::NceOp n) {
        return call(op, kernels::nce, in(n.getInput()), in(n.getLabels()),
                    in(n.getWeight()), in(n.getBias()), in(n.getStep()),
                    firstRowOf(n.getInput()), getNceSampling(n),
                    out(n.getCost()));
      })
      .Case([&](train::NceGradOp g) {
        return call(op, kernels::nceGrad, in(g.getInput()), in(g.getLabels()),
                    in(g.getWeight()), in(g.getBias()), in(g.getStep()),
                    firstRowOf(g.getInput()), in(g.getDcost()),
                    getNceSampling(g), out(g.getDinput()), out(g.getDweight()),
                    out(g.getDbias()));
      })
      .Default([](Operation *) { return std::nullopt; });
}
