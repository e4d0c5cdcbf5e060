//===- LossKernels.cpp - Cross-entropies, squared error, margin, mean -----===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Losses computed so that large logits neither overflow nor lose the small
// terms: softmax cross-entropy through a max-shifted log-sum-exp, sigmoid
// cross-entropy as max(x, 0) - x * z + log1p(exp(-|x|)). The squared error
// and the margin ranking loss are element-wise.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

//===----------------------------------------------------------------------===//
// Softmax cross-entropy
//===----------------------------------------------------------------------===//

/// Returns an error unless `logits` is [N, C] and `labels` holds N class ids
/// in [0, C).
static Status checkLabels(const char *op, const Tensor &logits,
                          const Tensor &labels) {
  OPENKS_RETURN_IF_ERROR(checkRank(op, "logits", logits, 2));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "labels", labels, DType::I64));
  OPENKS_RETURN_IF_ERROR(
      checkShape(op, "labels", labels, Shape{logits.dim(0)}));
  const int64_t *ids = labels.data<int64_t>();
  int64_t numClasses = logits.dim(1);
  for (int64_t row = 0, e = labels.numel(); row < e; ++row)
    if (ids[row] < 0 || ids[row] >= numClasses)
      return Status::outOfRange("{}: label {} at row {} is outside [0, {})", op,
                                ids[row], row, numClasses);
  return Status::ok();
}

Status kernels::softmaxCrossEntropy(const Tensor &logits, const Tensor &labels,
                                    Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkLabels("softmax_cross_entropy", logits, labels));
  OPENKS_RETURN_IF_ERROR(
      checkDType("softmax_cross_entropy", "out", out, logits.dtype()));
  out.resize(labels.shape());
  return dispatchFloat("softmax_cross_entropy", logits.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto in = rowsOf<T>(logits, logits.dim(1));
    const int64_t *ids = labels.data<int64_t>();
    T *loss = out.data<T>();
    for (Eigen::Index row = 0; row < in.rows(); ++row)
      loss[row] = logSumExp(in.row(row)) - in(row, ids[row]);
  });
}

Status kernels::softmaxCrossEntropyGrad(const Tensor &logits,
                                        const Tensor &labels,
                                        const Tensor &dloss, Tensor &dlogits) {
  const char *op = "softmax_cross_entropy_grad";
  OPENKS_RETURN_IF_ERROR(checkLabels(op, logits, labels));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dloss", dloss, logits.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape(op, "dloss", dloss, labels.shape()));
  OPENKS_RETURN_IF_ERROR(checkDType(op, "dlogits", dlogits, logits.dtype()));
  dlogits.resize(logits.shape());
  return dispatchFloat(op, logits.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto in = rowsOf<T>(logits, logits.dim(1));
    auto grad = rowsOf<T>(dlogits, logits.dim(1));
    const int64_t *ids = labels.data<int64_t>();
    const T *upstream = dloss.data<T>();
    for (Eigen::Index row = 0; row < in.rows(); ++row) {
      softmaxRow(in.row(row), grad.row(row), upstream[row]);
      grad(row, ids[row]) -= upstream[row];
    }
  });
}

//===----------------------------------------------------------------------===//
// Sigmoid cross-entropy
//===----------------------------------------------------------------------===//

Status kernels::sigmoidCrossEntropy(const Tensor &logits, const Tensor &labels,
                                    Tensor &out) {
  OPENKS_RETURN_IF_ERROR(
      checkLike("sigmoid_cross_entropy", "labels", labels, logits));
  return elementwise(
      "sigmoid_cross_entropy", out,
      [](auto x, auto z) {
        using T = typename decltype(x)::Scalar;
        return x.max(T(0)) - x * z + (-x.abs()).exp().log1p();
      },
      logits, labels);
}

Status kernels::sigmoidCrossEntropyGrad(const Tensor &logits,
                                        const Tensor &labels,
                                        const Tensor &dloss, Tensor &dlogits) {
  const char *op = "sigmoid_cross_entropy_grad";
  OPENKS_RETURN_IF_ERROR(checkLike(op, "labels", labels, logits));
  OPENKS_RETURN_IF_ERROR(checkLike(op, "dloss", dloss, logits));
  return elementwise(
      op, dlogits,
      [](auto x, auto z, auto dl) { return dl * (x.logistic() - z); }, logits,
      labels, dloss);
}

//===----------------------------------------------------------------------===//
// Squared error and margin loss
//===----------------------------------------------------------------------===//

Status kernels::squareError(const Tensor &input, const Tensor &label,
                            Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkLike("square_error", "label", label, input));
  return elementwise(
      "square_error", out, [](auto x, auto z) { return (x - z).square(); },
      input, label);
}

/// out = -in, for the gradient `op` of a loss whose two operands' gradients
/// are opposite.
static Status negate(const char *op, const Tensor &in, Tensor &out) {
  return elementwise(
      op, out, [](auto values) { return -values; }, in);
}

Status kernels::squareErrorGrad(const Tensor &input, const Tensor &label,
                                const Tensor &dout, Tensor &dinput,
                                Tensor &dlabel) {
  const char *op = "square_error_grad";
  OPENKS_RETURN_IF_ERROR(checkLike(op, "label", label, input));
  OPENKS_RETURN_IF_ERROR(checkLike(op, "dout", dout, input));
  OPENKS_RETURN_IF_ERROR(elementwise(
      op, dlabel,
      [](auto x, auto z, auto g) {
        using T = typename decltype(x)::Scalar;
        return T(2) * (z - x) * g;
      },
      input, label, dout));
  return negate(op, dlabel, dinput);
}

Status kernels::marginLoss(const Tensor &pos, const Tensor &neg, double margin,
                           Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkLike("margin_loss", "neg", neg, pos));
  return elementwise(
      "margin_loss", out,
      [margin](auto p, auto n) {
        using T = typename decltype(p)::Scalar;
        return (T(margin) + p - n).max(T(0));
      },
      pos, neg);
}

Status kernels::marginLossGrad(const Tensor &pos, const Tensor &neg,
                               const Tensor &dout, double margin, Tensor &dpos,
                               Tensor &dneg) {
  const char *op = "margin_loss_grad";
  OPENKS_RETURN_IF_ERROR(checkLike(op, "neg", neg, pos));
  OPENKS_RETURN_IF_ERROR(checkLike(op, "dout", dout, pos));
  OPENKS_RETURN_IF_ERROR(elementwise(
      op, dneg,
      [margin](auto p, auto n, auto g) {
        using T = typename decltype(p)::Scalar;
        return (T(margin) + p - n > T(0)).select(-g, T(0));
      },
      pos, neg, dout));
  return negate(op, dneg, dpos);
}

//===----------------------------------------------------------------------===//
// Mean
//===----------------------------------------------------------------------===//

Status kernels::mean(const Tensor &x, Tensor &out) {
  OPENKS_RETURN_IF_ERROR(checkDType("mean", "out", out, x.dtype()));
  if (x.numel() == 0)
    return Status::invalidArgument("mean: x ({}) has no elements",
                                   x.shape().str());
  out.resize(Shape{});
  return dispatchFloat("mean", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    *out.data<T>() = flat<T>(x).mean();
  });
}

Status kernels::meanGrad(const Tensor &x, const Tensor &dout, Tensor &dx) {
  OPENKS_RETURN_IF_ERROR(checkDType("mean_grad", "dout", dout, x.dtype()));
  OPENKS_RETURN_IF_ERROR(checkShape("mean_grad", "dout", dout, Shape{}));
  OPENKS_RETURN_IF_ERROR(checkDType("mean_grad", "dx", dx, x.dtype()));
  dx.resize(x.shape());
  return dispatchFloat("mean_grad", x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    flat<T>(dx).setConstant(*dout.data<T>() / static_cast<T>(x.numel()));
  });
}
