//===- OptimizerKernels.cpp - Optimizer updates ---------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Optimizer updates, in place on the parameter and its state: sgd,
// momentum, adam, adagrad, rmsprop, decayed_adagrad, ftrl and adamax, each
// as Paddle's op of that name computes it. The learning rate and the beta
// powers are rank-0 tensors of either float type. As in Paddle's kernels,
// the attributes, the learning rate and the beta powers are rounded to the
// parameter's element type T, and the arithmetic is done in T in Paddle's
// order, so that roundings cancel where Paddle's do: in f32 adam, beta2
// rounded to f32 is both the first beta2_pow and the 1 - beta2 of the
// second moment, and the bias correction sqrt(1 - beta2_pow) undoes it.
// Every update is element-wise, so a block of a parameter updates exactly
// like the same rows of the whole parameter, and a row-sparse gradient
// updates its rows as a dense one would (lazily: rows it does not hold keep
// their value and state, where a dense zero row would still decay them).
// sgd, on the hot path of training, runs the loop of Vectorized.h.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"
#include "Vectorized.h"

#include <cmath>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;
using openks::runtime::kernels::GradientRef;

/// Sets `value` to the element of the one-element float tensor `tensor`
/// (called `name` in `op`).
static Status readScalar(const char *op, const char *name, const Tensor &tensor,
                         double &value) {
  if (tensor.numel() != 1)
    return Status::invalidArgument(
        "{}: {} must hold one element, but has shape {}", op, name,
        tensor.shape().str());
  return dispatchFloat(op, tensor.dtype(), [&](auto tag) {
    value = *tensor.data<decltype(tag)>();
  });
}

/// Sets the element of the one-element float tensor `tensor` to `value`.
static Status writeScalar(const char *op, Tensor &tensor, double value) {
  return dispatchFloat(op, tensor.dtype(), [&](auto tag) {
    using T = decltype(tag);
    *tensor.data<T>() = static_cast<T>(value);
  });
}

/// A state tensor an optimizer updates with its parameter, and its name in
/// error messages.
using NamedState = std::pair<const char *, const Tensor *>;

/// Checks that the gradient is dense and has the element type and shape of
/// `param`, or is a row-sparse value of it; that the element-wise `state`
/// is shaped like `param`; and reads the learning rate into `rate`. Errors
/// name the kernel `op`.
static Status checkUpdate(const char *op, const Tensor &param,
                          const GradientRef &grad,
                          std::initializer_list<NamedState> state,
                          const Tensor &lr, double &rate) {
  if (grad.rowIds) {
    OPENKS_RETURN_IF_ERROR(checkDType(op, "grad", grad.values, param.dtype()));
    OPENKS_RETURN_IF_ERROR(
        checkRows(op, "grad", *grad.rowIds, grad.values, param.shape()));
  } else {
    OPENKS_RETURN_IF_ERROR(checkLike(op, "grad", grad.values, param));
  }
  for (auto [name, tensor] : state)
    OPENKS_RETURN_IF_ERROR(checkLike(op, name, *tensor, param));
  return readScalar(op, "lr", lr, rate);
}

namespace {
/// A run of elements an update covers: `count` elements of the parameter
/// and of its element-wise state from element `at`, whose gradient is the
/// `count` elements of the gradient's values from element `from`.
struct Span {
  int64_t at, from, count;
};
} // namespace

/// Calls `fn(span)` for each run of elements of `param` that `grad` updates:
/// all of them at once for a dense gradient, each of its rows for a
/// row-sparse one.
template <typename Fn>
static void forEachSpan(const Tensor &param, const GradientRef &grad, Fn fn) {
  if (!grad.rowIds) {
    fn(Span{0, 0, param.numel()});
    return;
  }
  int64_t width = param.shape().rowWidth();
  const int64_t *ids = grad.rowIds->data<int64_t>();
  for (int64_t row = 0, e = grad.rowIds->numel(); row < e; ++row)
    fn(Span{ids[row] * width, row * width, width});
}

/// Returns the elements of the parameter or state `tensor` in `span`.
template <typename T> static auto at(Tensor &tensor, const Span &span) {
  return vec(tensor.data<T>() + span.at, span.count);
}

/// Returns the gradient's elements for `span`.
template <typename T>
static auto gradAt(const GradientRef &grad, const Span &span) {
  return vec(grad.values.data<T>() + span.from, span.count);
}

Status kernels::sgd(Tensor &param, const GradientRef &grad, const Tensor &lr) {
  double rate;
  OPENKS_RETURN_IF_ERROR(checkUpdate("sgd", param, grad, {}, lr, rate));
  return dispatchFloat("sgd", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    forEachSpan(param, grad, [&](const Span &span) {
      sgdLoop(param.data<T>() + span.at, grad.values.data<T>() + span.from,
              static_cast<T>(rate), span.count);
    });
  });
}

Status kernels::momentum(Tensor &param, Tensor &velocity,
                         const GradientRef &grad, const Tensor &lr, double mu,
                         bool nesterov) {
  double rate;
  OPENKS_RETURN_IF_ERROR(checkUpdate("momentum", param, grad,
                                     {{"velocity", &velocity}}, lr, rate));
  return dispatchFloat("momentum", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    forEachSpan(param, grad, [&](const Span &span) {
      auto v = at<T>(velocity, span);
      auto g = gradAt<T>(grad, span);
      v = static_cast<T>(mu) * v + g;
      if (nesterov)
        at<T>(param, span) -=
            static_cast<T>(rate) * (g + static_cast<T>(mu) * v);
      else
        at<T>(param, span) -= static_cast<T>(rate) * v;
    });
  });
}

Status kernels::adam(Tensor &param, Tensor &moment1, Tensor &moment2,
                     Tensor &beta1Pow, Tensor &beta2Pow,
                     const GradientRef &grad, const Tensor &lr, double beta1,
                     double beta2, double epsilon) {
  double rate, beta1Power, beta2Power;
  OPENKS_RETURN_IF_ERROR(
      checkUpdate("adam", param, grad,
                  {{"moment1", &moment1}, {"moment2", &moment2}}, lr, rate));
  OPENKS_RETURN_IF_ERROR(readScalar("adam", "beta1_pow", beta1Pow, beta1Power));
  OPENKS_RETURN_IF_ERROR(readScalar("adam", "beta2_pow", beta2Pow, beta2Power));
  double nextBeta1Power = 0, nextBeta2Power = 0;
  OPENKS_RETURN_IF_ERROR(dispatchFloat("adam", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T b1 = static_cast<T>(beta1), b2 = static_cast<T>(beta2);
    const T eps = static_cast<T>(epsilon);
    const T b1Power = static_cast<T>(beta1Power);
    const T b2Power = static_cast<T>(beta2Power);
    // The bias-corrected step size.
    const T step =
        static_cast<T>(rate) * (std::sqrt(1 - b2Power) / (1 - b1Power));
    forEachSpan(param, grad, [&](const Span &span) {
      auto g = gradAt<T>(grad, span);
      auto m1 = at<T>(moment1, span);
      auto m2 = at<T>(moment2, span);
      m1 = b1 * m1 + (1 - b1) * g;
      m2 = b2 * m2 + (1 - b2) * g * g;
      at<T>(param, span) -= step * (m1 / (m2.sqrt() + eps));
    });
    nextBeta1Power = b1 * b1Power;
    nextBeta2Power = b2 * b2Power;
  }));
  OPENKS_RETURN_IF_ERROR(writeScalar("adam", beta1Pow, nextBeta1Power));
  return writeScalar("adam", beta2Pow, nextBeta2Power);
}

Status kernels::adagrad(Tensor &param, Tensor &moment, const GradientRef &grad,
                        const Tensor &lr, double epsilon) {
  double rate;
  OPENKS_RETURN_IF_ERROR(
      checkUpdate("adagrad", param, grad, {{"moment", &moment}}, lr, rate));
  return dispatchFloat("adagrad", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    forEachSpan(param, grad, [&](const Span &span) {
      auto g = gradAt<T>(grad, span);
      auto m = at<T>(moment, span);
      m += g.square();
      at<T>(param, span) -=
          static_cast<T>(rate) * g / (m.sqrt() + static_cast<T>(epsilon));
    });
  });
}

/// The update of rmsprop and of centered rmsprop (`meanGrad` not null), as
/// kernel `op`.
static Status rmspropUpdate(const char *op, Tensor &param, Tensor &meanSquare,
                            Tensor &moment, Tensor *meanGrad,
                            const GradientRef &grad, const Tensor &lr,
                            double decay, double epsilon, double momentum) {
  double rate;
  OPENKS_RETURN_IF_ERROR(checkUpdate(
      op, param, grad, {{"mean_square", &meanSquare}, {"moment", &moment}}, lr,
      rate));
  if (meanGrad)
    OPENKS_RETURN_IF_ERROR(checkLike(op, "mean_grad", *meanGrad, param));
  return dispatchFloat(op, param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T rho = static_cast<T>(decay), rest = 1 - rho;
    const T eps = static_cast<T>(epsilon), mu = static_cast<T>(momentum);
    forEachSpan(param, grad, [&](const Span &span) {
      auto g = gradAt<T>(grad, span);
      auto ms = at<T>(meanSquare, span);
      auto mom = at<T>(moment, span);
      ms = rho * ms + rest * g * g;
      if (meanGrad) {
        auto mg = at<T>(*meanGrad, span);
        mg = rho * mg + rest * g;
        mom = mu * mom +
              static_cast<T>(rate) * g / (ms - mg.square() + eps).sqrt();
      } else {
        mom = mu * mom + static_cast<T>(rate) * g / (ms + eps).sqrt();
      }
      at<T>(param, span) -= mom;
    });
  });
}

Status kernels::rmsprop(Tensor &param, Tensor &meanSquare, Tensor &moment,
                        const GradientRef &grad, const Tensor &lr, double decay,
                        double epsilon, double momentum) {
  return rmspropUpdate("rmsprop", param, meanSquare, moment, nullptr, grad, lr,
                       decay, epsilon, momentum);
}

Status kernels::centeredRmsprop(Tensor &param, Tensor &meanSquare,
                                Tensor &moment, Tensor &meanGrad,
                                const GradientRef &grad, const Tensor &lr,
                                double decay, double epsilon, double momentum) {
  return rmspropUpdate("rmsprop", param, meanSquare, moment, &meanGrad, grad,
                       lr, decay, epsilon, momentum);
}

Status kernels::decayedAdagrad(Tensor &param, Tensor &moment,
                               const GradientRef &grad, const Tensor &lr,
                               double decay, double epsilon) {
  double rate;
  OPENKS_RETURN_IF_ERROR(checkUpdate("decayed_adagrad", param, grad,
                                     {{"moment", &moment}}, lr, rate));
  return dispatchFloat("decayed_adagrad", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T rho = static_cast<T>(decay), rest = 1 - rho;
    forEachSpan(param, grad, [&](const Span &span) {
      auto g = gradAt<T>(grad, span);
      auto m = at<T>(moment, span);
      m = rho * m + rest * g * g;
      at<T>(param, span) -=
          static_cast<T>(rate) * g / (m.sqrt() + static_cast<T>(epsilon));
    });
  });
}

Status kernels::ftrl(Tensor &param, Tensor &squared, Tensor &linear,
                     const GradientRef &grad, const Tensor &lr, double l1,
                     double l2, double lrPower) {
  double rate;
  OPENKS_RETURN_IF_ERROR(
      checkUpdate("ftrl", param, grad,
                  {{"squared", &squared}, {"linear", &linear}}, lr, rate));
  return dispatchFloat("ftrl", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    // Paddle's kernel adds 1e-10 to both coefficients.
    const T l1Term = static_cast<T>(l1) + static_cast<T>(1e-10);
    const T l2Term = static_cast<T>(l2) + static_cast<T>(1e-10);
    const T power = static_cast<T>(-lrPower), r = static_cast<T>(rate);
    const bool squareRoot = lrPower == -0.5;
    auto root = [&](T x) {
      return squareRoot ? std::sqrt(x) : std::pow(x, power);
    };
    forEachSpan(param, grad, [&](const Span &span) {
      T *p = param.data<T>() + span.at, *s = squared.data<T>() + span.at;
      T *z = linear.data<T>() + span.at;
      const T *g = grad.values.data<T>() + span.from;
      for (int64_t i = 0; i < span.count; ++i) {
        T next = s[i] + g[i] * g[i];
        z[i] = z[i] + g[i] - (root(next) - root(s[i])) / r * p[i];
        T direction = static_cast<T>((z[i] > 0) - (z[i] < 0));
        T shrunk = (l1Term * direction - z[i]) /
                   (root(next) / r + static_cast<T>(2) * l2Term);
        p[i] = std::abs(z[i]) > l1Term ? shrunk : static_cast<T>(0);
        s[i] = next;
      }
    });
  });
}

Status kernels::adamax(Tensor &param, Tensor &moment, Tensor &infNorm,
                       Tensor &beta1Pow, const GradientRef &grad,
                       const Tensor &lr, double beta1, double beta2,
                       double epsilon) {
  double rate, beta1Power;
  OPENKS_RETURN_IF_ERROR(
      checkUpdate("adamax", param, grad,
                  {{"moment", &moment}, {"inf_norm", &infNorm}}, lr, rate));
  OPENKS_RETURN_IF_ERROR(
      readScalar("adamax", "beta1_pow", beta1Pow, beta1Power));
  double nextBeta1Power = 0;
  OPENKS_RETURN_IF_ERROR(dispatchFloat("adamax", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    const T b1 = static_cast<T>(beta1), b2 = static_cast<T>(beta2);
    const T eps = static_cast<T>(epsilon);
    const T b1Power = static_cast<T>(beta1Power);
    // The bias-corrected step size.
    const T step = static_cast<T>(rate) / (1 - b1Power);
    forEachSpan(param, grad, [&](const Span &span) {
      auto g = gradAt<T>(grad, span);
      auto m = at<T>(moment, span);
      auto u = at<T>(infNorm, span);
      m = b1 * m + (1 - b1) * g;
      u = g.abs().max(b2 * u + eps);
      at<T>(param, span) -= step * (m / u);
    });
    nextBeta1Power = b1 * b1Power;
  }));
  return writeScalar("adamax", beta1Pow, nextBeta1Power);
}
