//===- SamplingKernels.cpp - Dropout and noise-contrastive estimation -----===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// The kernels that draw random numbers. Every draw is a pure function of the
// op's seed, the position of what it draws for (an element, a row's j-th
// negative) and the step counter, so the gradient kernels draw exactly what
// the forward kernels drew, without keeping masks or samples in between.
//
// nce follows Paddle's cost: with o = sigmoid(z) for the logit z of a class
// and b = q(class) * numNegSamples, a true class costs -log(o / (o + b)) =
// log(o + b) + softplus(-z) and a negative log(o + b) - log(b), forms that
// stay finite for any logit.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

/// Returns an error unless `step` is a rank-0 i64 counter; sets `stream` to
/// its value.
static Status readStep(const char *op, const Tensor &step, uint64_t &stream) {
  OPENKS_RETURN_IF_ERROR(checkDType(op, "step", step, DType::I64));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "step", step, Shape{}));
  stream = static_cast<uint64_t>(*step.data<int64_t>());
  return Status::ok();
}

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

/// out = in * mask(step), for the kernel `op`; `out` may be `in`.
static Status applyDropoutMask(const char *op, const Tensor &in,
                               const Tensor &step,
                               const kernels::DropoutMask &mask, Tensor &out) {
  uint64_t stream;
  OPENKS_RETURN_IF_ERROR(readStep(op, step, stream));
  if (!(mask.prob >= 0 && mask.prob <= 1))
    return Status::invalidArgument("{}: dropout_prob {} is outside [0, 1]", op,
                                   mask.prob);
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the result", out, in.dtype()));
  out.resize(in.shape());
  Philox philox(mask.seed);
  // Everything is dropped at probability 1, so the scale does not matter.
  double keptScale =
      mask.upscaleInTrain && mask.prob < 1 ? 1 / (1 - mask.prob) : 1;
  return dispatchFloat(op, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *values = in.data<T>();
    T *result = out.data<T>();
    for (int64_t index = 0, e = in.numel(); index < e; ++index)
      result[index] = philox.uniform(index, stream) >= mask.prob
                          ? values[index] * static_cast<T>(keptScale)
                          : T(0);
  });
}

Status kernels::dropout(const Tensor &x, const Tensor &step,
                        const DropoutMask &mask, Tensor &out) {
  return applyDropoutMask("dropout", x, step, mask, out);
}

Status kernels::dropoutGrad(const Tensor &dout, const Tensor &step,
                            const DropoutMask &mask, Tensor &dx) {
  return applyDropoutMask("dropout_grad", dout, step, mask, dx);
}

//===----------------------------------------------------------------------===//
// Noise-contrastive estimation
//===----------------------------------------------------------------------===//

namespace {
/// The sizes of one nce call: `batch` rows of `width`, each scoring its
/// `numTrue` true classes and `numNeg` negatives among `numClasses`.
struct NceLayout {
  int64_t batch = 0, width = 0, numTrue = 1, numNeg = 1, numClasses = 0;
};
} // namespace

/// Returns an error unless the operands of an nce call fit together and every
/// label is a class; fills `layout` and the step's `stream`.
static Status checkNceOperands(const char *op, const Tensor &input,
                               const Tensor &labels, const Tensor &weight,
                               const Tensor &bias, const Tensor &step,
                               const kernels::NceSampling &sampling,
                               NceLayout &layout, uint64_t &stream) {
  OPENKS_RETURN_IF_ERROR(checkRank(op, "input", input, 2));
  OPENKS_RETURN_IF_ERROR(checkRank(op, "weight", weight, 2));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "weight", weight, input.dtype()));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "bias", bias, input.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "bias", bias, Shape{weight.dim(0)}));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "labels", labels, DType::I64));
  OPENKS_RETURN_IF_ERROR(readStep(op, step, stream));
  layout.batch = input.dim(0);
  layout.width = input.dim(1);
  layout.numClasses = weight.dim(0);
  layout.numNeg = sampling.numNegSamples;
  if (weight.dim(1) != layout.width)
    return Status::invalidArgument("{}: weight has shape {}, expected [V, {}]",
                                   op, weight.shape().str(), layout.width);
  if (layout.numClasses < 1)
    return Status::invalidArgument("{}: weight has no classes", op);
  if ((labels.rank() != 1 && labels.rank() != 2) ||
      labels.dim(0) != layout.batch)
    return Status::invalidArgument(
        "{}: labels have shape {}, expected [{}] or [{}, T]", op,
        labels.shape().str(), layout.batch, layout.batch);
  layout.numTrue = labels.rank() == 2 ? labels.dim(1) : 1;
  if (layout.numNeg < 1)
    return Status::invalidArgument(
        "{}: num_neg_samples must be at least 1, got {}", op, layout.numNeg);
  std::optional<int64_t> samples = checkedAdd(layout.numTrue, layout.numNeg);
  if (samples)
    samples = checkedMul(*samples, layout.batch);
  if (!samples || *samples > kMaxTensorElements)
    return Status::invalidArgument(
        "{}: {} rows of {} true classes and {} negatives are too many "
        "samples",
        op, layout.batch, layout.numTrue, layout.numNeg);
  const int64_t *ids = labels.data<int64_t>();
  for (int64_t index = 0; index < labels.numel(); ++index)
    if (ids[index] < 0 || ids[index] >= layout.numClasses)
      return Status::outOfRange("{}: label {} at position {} is outside "
                                "[0, {})",
                                op, ids[index], index, layout.numClasses);
  return Status::ok();
}

/// Calls `fn(row, cls, isTrue, b)` for every class each row scores: its true
/// classes, then its negatives, each with b = q(cls) * numNeg.
template <typename Fn>
static void forEachNceSample(const NceLayout &layout, const Tensor &labels,
                             const kernels::NceSampling &sampling,
                             uint64_t stream, Fn fn) {
  ClassSampler sampler(sampling.sampler, layout.numClasses, sampling.seed);
  const int64_t *ids = labels.data<int64_t>();
  auto expected = [&](int64_t cls) {
    return sampler.probability(cls) * static_cast<double>(layout.numNeg);
  };
  for (int64_t row = 0; row < layout.batch; ++row) {
    for (int64_t j = 0; j < layout.numTrue; ++j) {
      int64_t cls = ids[row * layout.numTrue + j];
      fn(row, cls, true, expected(cls));
    }
    for (int64_t j = 0; j < layout.numNeg; ++j) {
      int64_t cls = sampler.sample(row * layout.numNeg + j, stream);
      fn(row, cls, false, expected(cls));
    }
  }
}

Status kernels::nce(const Tensor &input, const Tensor &labels,
                    const Tensor &weight, const Tensor &bias,
                    const Tensor &step, const NceSampling &sampling,
                    Tensor &cost) {
  NceLayout layout;
  uint64_t stream;
  OPENKS_RETURN_IF_ERROR(checkNceOperands("nce", input, labels, weight, bias,
                                          step, sampling, layout, stream));
  OPENKS_RETURN_IF_ERROR(checkDType("nce", "cost", cost, input.dtype()));
  cost.resize(Shape{layout.batch});
  return dispatchFloat("nce", input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto inputs = rowsOf<T>(input, layout.width);
    auto weights = rowsOf<T>(weight, layout.width);
    const T *biases = bias.data<T>();
    T *costs = cost.data<T>();
    std::fill_n(costs, layout.batch, T(0));
    forEachNceSample(
        layout, labels, sampling, stream,
        [&](int64_t row, int64_t cls, bool isTrue, double expected) {
          T z = (inputs.row(row) * weights.row(cls)).sum() + biases[cls];
          T b = static_cast<T>(expected);
          T o = T(1) / (T(1) + std::exp(-z));
          // softplus(-z) = -log(sigmoid(z)), without overflow.
          T softplus = std::max(-z, T(0)) + std::log1p(std::exp(-std::abs(z)));
          costs[row] += isTrue ? std::log(o + b) + softplus
                               : std::log(o + b) - std::log(b);
        });
  });
}

Status kernels::nceGrad(const Tensor &input, const Tensor &labels,
                        const Tensor &weight, const Tensor &bias,
                        const Tensor &step, const Tensor &dcost,
                        const NceSampling &sampling, Tensor &dinput,
                        Tensor &dweight, Tensor &dbias) {
  const char *op = "nce_grad";
  NceLayout layout;
  uint64_t stream;
  OPENKS_RETURN_IF_ERROR(checkNceOperands(op, input, labels, weight, bias, step,
                                          sampling, layout, stream));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dcost", dcost, input.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "dcost", dcost, Shape{layout.batch}));
  for (Tensor *grad : {&dinput, &dweight, &dbias})
    OPENKS_RETURN_IF_ERROR(checkDType(op, "a gradient", *grad, input.dtype()));
  dinput.resize(input.shape());
  dweight.resize(weight.shape());
  dbias.resize(bias.shape());
  for (Tensor *grad : {&dinput, &dweight, &dbias})
    grad->setZero();
  return dispatchFloat(op, input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto inputs = rowsOf<T>(input, layout.width);
    auto weights = rowsOf<T>(weight, layout.width);
    auto inputGrads = rowsOf<T>(dinput, layout.width);
    auto weightGrads = rowsOf<T>(dweight, layout.width);
    const T *biases = bias.data<T>();
    const T *upstream = dcost.data<T>();
    T *biasGrads = dbias.data<T>();
    forEachNceSample(
        layout, labels, sampling, stream,
        [&](int64_t row, int64_t cls, bool isTrue, double expected) {
          T z = (inputs.row(row) * weights.row(cls)).sum() + biases[cls];
          T b = static_cast<T>(expected);
          T o = T(1) / (T(1) + std::exp(-z));
          // d cost / d z for a true class and for a negative.
          T g = isTrue ? b / (o + b) * (o - T(1)) : o * (T(1) - o) / (o + b);
          g *= upstream[row];
          biasGrads[cls] += g;
          weightGrads.row(cls) += g * inputs.row(row);
          inputGrads.row(row) += g * weights.row(cls);
        });
  });
}
