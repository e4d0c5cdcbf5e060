//===- OptimizerKernels.cpp - sgd, momentum, adam, adagrad ----------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Optimizer updates, in place on the parameter and its state. The learning
// rate and Adam's beta powers are rank-0 tensors of either float type; the
// scalar arithmetic on them is done in double.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "KernelUtils.h"

#include <cmath>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::kernels::detail;

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

Status kernels::sgd(Tensor &param, const Tensor &grad, const Tensor &lr) {
  OPENKS_RETURN_IF_ERROR(checkLike("sgd", "grad", grad, param));
  double rate;
  OPENKS_RETURN_IF_ERROR(readScalar("sgd", "lr", lr, rate));
  return dispatchFloat("sgd", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    flat<T>(param) -= static_cast<T>(rate) * flat<T>(grad);
  });
}

Status kernels::momentum(Tensor &param, Tensor &velocity, const Tensor &grad,
                         const Tensor &lr, double mu, bool nesterov) {
  OPENKS_RETURN_IF_ERROR(checkLike("momentum", "grad", grad, param));
  OPENKS_RETURN_IF_ERROR(checkLike("momentum", "velocity", velocity, param));
  double rate;
  OPENKS_RETURN_IF_ERROR(readScalar("momentum", "lr", lr, rate));
  return dispatchFloat("momentum", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto v = flat<T>(velocity);
    auto g = flat<T>(grad);
    v = static_cast<T>(mu) * v + g;
    if (nesterov)
      flat<T>(param) -= static_cast<T>(rate) * (g + static_cast<T>(mu) * v);
    else
      flat<T>(param) -= static_cast<T>(rate) * v;
  });
}

Status kernels::adam(Tensor &param, Tensor &moment1, Tensor &moment2,
                     Tensor &beta1Pow, Tensor &beta2Pow, const Tensor &grad,
                     const Tensor &lr, double beta1, double beta2,
                     double epsilon) {
  OPENKS_RETURN_IF_ERROR(checkLike("adam", "grad", grad, param));
  OPENKS_RETURN_IF_ERROR(checkLike("adam", "moment1", moment1, param));
  OPENKS_RETURN_IF_ERROR(checkLike("adam", "moment2", moment2, param));
  double rate, beta1Power, beta2Power;
  OPENKS_RETURN_IF_ERROR(readScalar("adam", "lr", lr, rate));
  OPENKS_RETURN_IF_ERROR(readScalar("adam", "beta1_pow", beta1Pow, beta1Power));
  OPENKS_RETURN_IF_ERROR(readScalar("adam", "beta2_pow", beta2Pow, beta2Power));
  // The bias-corrected step size, as Paddle's adam op computes it.
  double step = rate * std::sqrt(1 - beta2Power) / (1 - beta1Power);
  OPENKS_RETURN_IF_ERROR(dispatchFloat("adam", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto g = flat<T>(grad);
    auto m1 = flat<T>(moment1);
    auto m2 = flat<T>(moment2);
    m1 = static_cast<T>(beta1) * m1 + static_cast<T>(1 - beta1) * g;
    m2 = static_cast<T>(beta2) * m2 + static_cast<T>(1 - beta2) * g.square();
    flat<T>(param) -=
        static_cast<T>(step) * m1 / (m2.sqrt() + static_cast<T>(epsilon));
  }));
  OPENKS_RETURN_IF_ERROR(writeScalar("adam", beta1Pow, beta1Power * beta1));
  return writeScalar("adam", beta2Pow, beta2Power * beta2);
}

Status kernels::adagrad(Tensor &param, Tensor &moment, const Tensor &grad,
                        const Tensor &lr, double epsilon) {
  OPENKS_RETURN_IF_ERROR(checkLike("adagrad", "grad", grad, param));
  OPENKS_RETURN_IF_ERROR(checkLike("adagrad", "moment", moment, param));
  double rate;
  OPENKS_RETURN_IF_ERROR(readScalar("adagrad", "lr", lr, rate));
  return dispatchFloat("adagrad", param.dtype(), [&](auto tag) {
    using T = decltype(tag);
    auto g = flat<T>(grad);
    auto m = flat<T>(moment);
    m += g.square();
    flat<T>(param) -=
        static_cast<T>(rate) * g / (m.sqrt() + static_cast<T>(epsilon));
  });
}
