//===- KernelTesting.h - Fixtures of the kernel tests -----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the kernel tests share: random inputs from a fixed seed, tensors as
// doubles, the f32/f64 fixture that compares a kernel with a naive reference,
// and the f64 fixture that checks a gradient kernel against central finite
// differences of its forward kernel.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TEST_UNIT_RUNTIME_KERNELTESTING_H
#define OPENKS_TEST_UNIT_RUNTIME_KERNELTESTING_H

#include "openks/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

namespace openks::runtime::testing {

/// Elements of a tensor or of a reference result, row-major, as doubles.
using Values = std::vector<double>;

/// Returns the elements of the float tensor `tensor` as doubles.
inline Values valuesOf(const Tensor &tensor) {
  Values values(tensor.numel());
  for (int64_t i = 0; i < tensor.numel(); ++i)
    values[i] = tensor.dtype() == DType::F32 ? tensor.data<float>()[i]
                                             : tensor.data<double>()[i];
  return values;
}

/// Returns the elements of the i64 tensor `tensor`.
inline std::vector<int64_t> idsOf(const Tensor &tensor) {
  const int64_t *data = tensor.data<int64_t>();
  return std::vector<int64_t>(data, data + tensor.numel());
}

/// Returns an i64 tensor of `shape` holding `ids`.
inline Tensor idTensor(const Shape &shape, const std::vector<int64_t> &ids) {
  Tensor tensor(DType::I64, shape);
  std::copy(ids.begin(), ids.end(), tensor.data<int64_t>());
  return tensor;
}

/// Runs each test for one float element type T, checking kernels against
/// references computed in doubles.
template <typename T> class TypedKernelTest : public ::testing::Test {
protected:
  /// Returns a tensor of `shape` with elements uniform in [low, high).
  Tensor random(const Shape &shape, double low = -2, double high = 2) {
    Tensor tensor(dtypeOf<T>(), shape);
    std::uniform_real_distribution<double> uniform(low, high);
    for (int64_t i = 0; i < tensor.numel(); ++i)
      tensor.data<T>()[i] = static_cast<T>(uniform(rng));
    return tensor;
  }

  /// Returns an output tensor of type T whose shape the kernel sets.
  static Tensor output() { return Tensor(dtypeOf<T>(), Shape{}); }

  /// Expects `actual` to have `shape` and elements close to `expected`.
  static void expectNear(const Tensor &actual, const Shape &shape,
                         const Values &expected) {
    ASSERT_EQ(actual.shape().str(), shape.str());
    ASSERT_EQ(actual.dtype(), dtypeOf<T>());
    double tolerance = std::is_same_v<T, float> ? 2e-5 : 1e-12;
    Values values = valuesOf(actual);
    for (size_t i = 0; i < expected.size(); ++i)
      EXPECT_NEAR(values[i], expected[i],
                  tolerance * std::max(1.0, std::abs(expected[i])))
          << "element " << i;
  }

  std::mt19937 rng{20240611};
};

/// Names the typed tests after the element type.
struct ElementTypeNames {
  template <typename T> static std::string GetName(int) {
    return dtypeName(dtypeOf<T>());
  }
};

using FloatTypes = ::testing::Types<float, double>;

/// Computes the forward result of the op under test from its current inputs.
using Forward = std::function<Status(Tensor &out)>;

/// Checks gradient kernels in f64: for a random upstream gradient G and
/// L(x) = sum(G * forward(x)), each element of each differentiable input
/// must get the gradient (L(x + h e_i) - L(x - h e_i)) / 2h.
class GradientCheckTest : public ::testing::Test {
protected:
  /// Returns an f64 tensor of `shape` with elements uniform in [low, high).
  Tensor random(const Shape &shape, double low = -2, double high = 2) {
    Tensor tensor(DType::F64, shape);
    std::uniform_real_distribution<double> uniform(low, high);
    for (int64_t i = 0; i < tensor.numel(); ++i)
      tensor.data<double>()[i] = uniform(rng);
    return tensor;
  }

  /// Returns an f64 output tensor whose shape the kernel sets.
  static Tensor output() { return Tensor(DType::F64, Shape{}); }

  /// Returns a random upstream gradient shaped like `forward`'s result.
  Tensor upstreamFor(const Forward &forward) {
    Tensor out = output();
    EXPECT_TRUE(forward(out).isOk());
    return random(out.shape());
  }

  /// Expects `grads[k]` to be the gradient of sum(upstream * forward()) with
  /// respect to `inputs[k]`, element by element, by central differences.
  static void expectGradients(const Forward &forward, const Tensor &upstream,
                              const std::vector<Tensor *> &inputs,
                              const std::vector<const Tensor *> &grads) {
    constexpr double kStep = 1e-6;
    constexpr double kTolerance = 1e-6;
    ASSERT_EQ(inputs.size(), grads.size());
    Tensor out = output();
    auto loss = [&] {
      Status status = forward(out);
      EXPECT_TRUE(status.isOk()) << status.message();
      EXPECT_EQ(out.shape(), upstream.shape());
      double sum = 0;
      for (int64_t i = 0; i < out.numel(); ++i)
        sum += upstream.data<double>()[i] * out.data<double>()[i];
      return sum;
    };
    for (size_t k = 0; k < inputs.size(); ++k) {
      ASSERT_EQ(grads[k]->shape().str(), inputs[k]->shape().str())
          << "input " << k;
      double *x = inputs[k]->data<double>();
      for (int64_t i = 0; i < inputs[k]->numel(); ++i) {
        double saved = x[i];
        x[i] = saved + kStep;
        double plus = loss();
        x[i] = saved - kStep;
        double minus = loss();
        x[i] = saved;
        double numeric = (plus - minus) / (2 * kStep);
        EXPECT_NEAR(grads[k]->data<double>()[i], numeric,
                    kTolerance * std::max(1.0, std::abs(numeric)))
            << "input " << k << ", element " << i;
      }
    }
  }

  std::mt19937 rng{7};
};

} // namespace openks::runtime::testing

#endif // OPENKS_TEST_UNIT_RUNTIME_KERNELTESTING_H
