//===- SamplingKernels.cpp - Dropout and noise-contrastive estimation -----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
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

/// out = in * mask(step), for the kernel `op`, `in` beginning at row
/// `firstRow` of the whole batch; `out` may be `in`.
static Status applyDropoutMask(const char *op, const Tensor &in,
                               const Tensor &step, int64_t firstRow,
                               const kernels::DropoutMask &mask, Tensor &out) {
  uint64_t stream;
  OPENKS_RETURN_IF_ERROR(readStep(op, step, stream));
  if (!(mask.prob >= 0 && mask.prob <= 1))
    return Status::invalidArgument("{}: dropout_prob {} is outside [0, 1]", op,
                                   mask.prob);
  if (firstRow < 0)
    return Status::invalidArgument("{}: the first row {} is negative", op,
                                   firstRow);
  OPENKS_RETURN_IF_ERROR(checkDType(op, "the result", out, in.dtype()));
  out.resize(in.shape());
  // The counter of element 0: the elements of the rows before this batch.
  int64_t rowSize =
      in.rank() > 0 && in.dim(0) > 0 ? in.numel() / in.dim(0) : in.numel();
  uint64_t first =
      static_cast<uint64_t>(firstRow) * static_cast<uint64_t>(rowSize);
  Philox philox(mask.seed);
  // Everything is dropped at probability 1, so the scale does not matter.
  double keptScale =
      mask.upscaleInTrain && mask.prob < 1 ? 1 / (1 - mask.prob) : 1;
  return dispatchFloat(op, in.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T *values = in.data<T>();
    T *result = out.data<T>();
    for (int64_t index = 0, e = in.numel(); index < e; ++index)
      result[index] = philox.uniform(first + index, stream) >= mask.prob
                          ? values[index] * static_cast<T>(keptScale)
                          : T(0);
  });
}

Status kernels::dropout(const Tensor &x, const Tensor &step, int64_t firstRow,
                        const DropoutMask &mask, Tensor &out) {
  return applyDropoutMask("dropout", x, step, firstRow, mask, out);
}

Status kernels::dropoutGrad(const Tensor &dout, const Tensor &step,
                            int64_t firstRow, const DropoutMask &mask,
                            Tensor &dx) {
  return applyDropoutMask("dropout_grad", dout, step, firstRow, mask, dx);
}

//===----------------------------------------------------------------------===//
// Noise-contrastive estimation
//===----------------------------------------------------------------------===//

namespace {
/// The sizes of one nce call: `batch` rows of `width`, each scoring its
/// `numTrue` true classes and `numNeg` negatives among `numClasses`.
struct NceLayout {
  int64_t batch = 0, width = 0, numTrue = 1, numNeg = 1, numClasses = 0;
  /// The row of the whole batch where the input begins.
  int64_t firstRow = 0;
};
} // namespace

/// Returns an error unless the operands of an nce call fit together and every
/// label is a class; fills `layout` and the step's `stream`.
static Status checkNceOperands(const char *op, const Tensor &input,
                               const Tensor &labels, const Tensor &weight,
                               const Tensor &bias, const Tensor &step,
                               int64_t firstRow,
                               const kernels::NceSampling &sampling,
                               NceLayout &layout, uint64_t &stream) {
  OPENKS_RETURN_IF_ERROR(checkRank(op, "input", input, 2));
  OPENKS_RETURN_IF_ERROR(checkRank(op, "weight", weight, 2));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "weight", weight, input.dtype()));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "bias", bias, input.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "bias", bias, Shape{weight.dim(0)}));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "labels", labels, DType::I64));
  OPENKS_RETURN_IF_ERROR(readStep(op, step, stream));
  if (firstRow < 0)
    return Status::invalidArgument("{}: the first row {} is negative", op,
                                   firstRow);
  layout.firstRow = firstRow;
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

namespace {
/// One class that one row of nce scores: a true class or a negative, its
/// logit z, o = sigmoid(z) and b = q(cls) * numNeg.
template <typename T> struct NceSample {
  int64_t row, cls;
  bool isTrue;
  T z, o, b;
};
} // namespace

/// Calls `fn(sample)` with an NceSample<T> for every class each row scores:
/// its true classes, then its negatives.
template <typename T, typename Fn>
static void
forEachNceSample(const NceLayout &layout, const Tensor &input,
                 const Tensor &labels, const Tensor &weight, const Tensor &bias,
                 const kernels::NceSampling &sampling, uint64_t stream, Fn fn) {
  ClassSampler sampler(sampling.sampler, layout.numClasses, sampling.seed);
  auto inputs = rowsOf<T>(input, layout.width);
  auto weights = rowsOf<T>(weight, layout.width);
  const T *biases = bias.data<T>();
  auto visit = [&](int64_t row, int64_t cls, bool isTrue) {
    T z = (inputs.row(row) * weights.row(cls)).sum() + biases[cls];
    T b = static_cast<T>(sampler.probability(cls) *
                         static_cast<double>(layout.numNeg));
    fn(NceSample<T>{row, cls, isTrue, z, T(1) / (T(1) + std::exp(-z)), b});
  };
  const int64_t *ids = labels.data<int64_t>();
  for (int64_t row = 0; row < layout.batch; ++row) {
    for (int64_t j = 0; j < layout.numTrue; ++j)
      visit(row, ids[row * layout.numTrue + j], true);
    uint64_t first = (static_cast<uint64_t>(layout.firstRow) + row) *
                     static_cast<uint64_t>(layout.numNeg);
    for (int64_t j = 0; j < layout.numNeg; ++j)
      visit(row, sampler.sample(first + j, stream), false);
  }
}

Status kernels::nce(const Tensor &input, const Tensor &labels,
                    const Tensor &weight, const Tensor &bias,
                    const Tensor &step, int64_t firstRow,
                    const NceSampling &sampling, Tensor &cost) {
  NceLayout layout;
  uint64_t stream;
  OPENKS_RETURN_IF_ERROR(checkNceOperands("nce", input, labels, weight, bias,
                                          step, firstRow, sampling, layout,
                                          stream));
  OPENKS_RETURN_IF_ERROR(checkDType("nce", "cost", cost, input.dtype()));
  cost.resize(Shape{layout.batch});
  return dispatchFloat("nce", input.dtype(), [&](auto tag) {
    using T = decltype(tag);
    T *costs = cost.data<T>();
    std::fill_n(costs, layout.batch, T(0));
    forEachNceSample<T>(layout, input, labels, weight, bias, sampling, stream,
                        [&](const NceSample<T> &s) {
                          // softplus(-z) = -log(sigmoid(z)), without overflow.
                          T softplus = std::max(-s.z, T(0)) +
                                       std::log1p(std::exp(-std::abs(s.z)));
                          costs[s.row] +=
                              s.isTrue ? std::log(s.o + s.b) + softplus
                                       : std::log(s.o + s.b) - std::log(s.b);
                        });
  });
}

Status kernels::nceGrad(const Tensor &input, const Tensor &labels,
                        const Tensor &weight, const Tensor &bias,
                        const Tensor &step, int64_t firstRow,
                        const Tensor &dcost, const NceSampling &sampling,
                        Tensor &dinput, Tensor &dweight, Tensor &dbias) {
  const char *op = "nce_grad";
  NceLayout layout;
  uint64_t stream;
  OPENKS_RETURN_IF_ERROR(checkNceOperands(op, input, labels, weight, bias, step,
                                          firstRow, sampling, layout, stream));
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
    const T *upstream = dcost.data<T>();
    T *biasGrads = dbias.data<T>();
    forEachNceSample<T>(layout, input, labels, weight, bias, sampling, stream,
                        [&](const NceSample<T> &s) {
                          // d cost / d z for a true class and for a negative.
                          T g = s.isTrue ? s.b / (s.o + s.b) * (s.o - T(1))
                                         : s.o * (T(1) - s.o) / (s.o + s.b);
                          g *= upstream[s.row];
                          biasGrads[s.cls] += g;
                          weightGrads.row(s.cls) += g * inputs.row(s.row);
                          inputGrads.row(s.row) += g * weights.row(s.cls);
                        });
  });
}
