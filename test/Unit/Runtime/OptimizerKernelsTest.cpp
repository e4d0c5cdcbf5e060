//===- OptimizerKernelsTest.cpp - Tests of the optimizer kernels ----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs each optimizer for a few steps on random gradients, in f32 and f64,
// next to the per-element formulas written out in doubles, and compares the
// parameter and the optimizer state after every step. The f32 optimizers
// whose rounding Paddle's f32 kernels cancel (adam, adamax, rmsprop,
// decayed_adagrad) are also compared, to the ulp, with those kernels'
// arithmetic written out in floats. Checks the clipping and sign kernels
// that prepare gradients against the same kind of naive references.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace openks;
using namespace openks::runtime;

namespace {

/// Elements of a tensor or of a reference state, as doubles.
using Values = std::vector<double>;

/// Runs each test for one float element type T.
template <typename T> class OptimizerKernelsTest : public ::testing::Test {
protected:
  /// The shape of the parameters under test.
  const Shape shape{4, 3};

  /// Returns a tensor of `shape` with elements uniform in [-1, 1).
  Tensor random() {
    Tensor tensor(dtypeOf<T>(), shape);
    std::uniform_real_distribution<double> uniform(-1, 1);
    for (int64_t i = 0; i < tensor.numel(); ++i)
      tensor.data<T>()[i] = static_cast<T>(uniform(rng));
    return tensor;
  }

  /// Returns a rank-0 tensor of type T holding `value`.
  static Tensor scalar(double value) {
    Tensor tensor(dtypeOf<T>(), Shape{});
    *tensor.data<T>() = static_cast<T>(value);
    return tensor;
  }

  /// Returns the elements of `tensor` as doubles.
  static Values valuesOf(const Tensor &tensor) {
    const T *data = tensor.data<T>();
    return Values(data, data + tensor.numel());
  }

  /// Expects the elements of `actual` to be close to `expected`.
  static void expectNear(const Tensor &actual, const Values &expected,
                         const char *what) {
    double tolerance = std::is_same_v<T, float> ? 1e-5 : 1e-12;
    Values values = valuesOf(actual);
    ASSERT_EQ(values.size(), expected.size()) << what;
    for (size_t i = 0; i < values.size(); ++i)
      EXPECT_NEAR(values[i], expected[i],
                  tolerance * std::max(1.0, std::abs(expected[i])))
          << what << ", element " << i;
  }

  std::mt19937 rng{11};
};

/// Names the typed tests after the element type.
struct ElementTypeNames {
  template <typename T> static std::string GetName(int) {
    return dtypeName(dtypeOf<T>());
  }
};

using FloatTypes = ::testing::Types<float, double>;
TYPED_TEST_SUITE(OptimizerKernelsTest, FloatTypes, ElementTypeNames);

constexpr int kSteps = 4;

TYPED_TEST(OptimizerKernelsTest, SgdMatchesFormula) {
  Tensor param = this->random();
  Tensor lr = this->scalar(0.1);
  Values p = this->valuesOf(param);
  for (int step = 0; step < kSteps; ++step) {
    Tensor grad = this->random();
    Values g = this->valuesOf(grad);
    ASSERT_TRUE(kernels::sgd(param, grad, lr).isOk());
    for (size_t i = 0; i < p.size(); ++i)
      p[i] -= 0.1 * g[i];
    this->expectNear(param, p, "param");
  }
}

TYPED_TEST(OptimizerKernelsTest, MomentumMatchesFormula) {
  const double mu = 0.9;
  for (bool nesterov : {false, true}) {
    SCOPED_TRACE(nesterov ? "nesterov" : "plain");
    Tensor param = this->random();
    Tensor velocity = this->random();
    Tensor lr = this->scalar(0.05);
    Values p = this->valuesOf(param), v = this->valuesOf(velocity);
    for (int step = 0; step < kSteps; ++step) {
      Tensor grad = this->random();
      Values g = this->valuesOf(grad);
      ASSERT_TRUE(
          kernels::momentum(param, velocity, grad, lr, mu, nesterov).isOk());
      for (size_t i = 0; i < p.size(); ++i) {
        v[i] = mu * v[i] + g[i];
        p[i] -= 0.05 * (nesterov ? g[i] + mu * v[i] : v[i]);
      }
      this->expectNear(velocity, v, "velocity");
      this->expectNear(param, p, "param");
    }
  }
}

TYPED_TEST(OptimizerKernelsTest, AdamMatchesPaddleFormula) {
  const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, rate = 0.01;
  Tensor param = this->random();
  Tensor moment1(dtypeOf<TypeParam>(), this->shape);
  Tensor moment2(dtypeOf<TypeParam>(), this->shape);
  // Paddle starts the beta powers at beta1 and beta2.
  Tensor beta1Pow = this->scalar(beta1), beta2Pow = this->scalar(beta2);
  Tensor lr = this->scalar(rate);
  Values p = this->valuesOf(param), m1(p.size(), 0.0), m2(p.size(), 0.0);
  double b1p = beta1, b2p = beta2;
  for (int step = 0; step < kSteps; ++step) {
    Tensor grad = this->random();
    Values g = this->valuesOf(grad);
    ASSERT_TRUE(kernels::adam(param, moment1, moment2, beta1Pow, beta2Pow, grad,
                              lr, beta1, beta2, epsilon)
                    .isOk());
    double stepSize = rate * std::sqrt(1 - b2p) / (1 - b1p);
    for (size_t i = 0; i < p.size(); ++i) {
      m1[i] = beta1 * m1[i] + (1 - beta1) * g[i];
      m2[i] = beta2 * m2[i] + (1 - beta2) * g[i] * g[i];
      p[i] -= stepSize * m1[i] / (std::sqrt(m2[i]) + epsilon);
    }
    b1p *= beta1;
    b2p *= beta2;
    this->expectNear(moment1, m1, "moment1");
    this->expectNear(moment2, m2, "moment2");
    this->expectNear(param, p, "param");
    this->expectNear(beta1Pow, {b1p}, "beta1_pow");
    this->expectNear(beta2Pow, {b2p}, "beta2_pow");
  }
  EXPECT_NEAR(this->valuesOf(beta1Pow)[0], std::pow(beta1, kSteps + 1), 1e-6);
}

TYPED_TEST(OptimizerKernelsTest, AdagradMatchesFormula) {
  const double epsilon = 1e-6, rate = 0.1;
  Tensor param = this->random();
  Tensor moment(dtypeOf<TypeParam>(), this->shape);
  Tensor lr = this->scalar(rate);
  Values p = this->valuesOf(param), m(p.size(), 0.0);
  for (int step = 0; step < kSteps; ++step) {
    Tensor grad = this->random();
    Values g = this->valuesOf(grad);
    ASSERT_TRUE(kernels::adagrad(param, moment, grad, lr, epsilon).isOk());
    for (size_t i = 0; i < p.size(); ++i) {
      m[i] += g[i] * g[i];
      p[i] -= rate * g[i] / (std::sqrt(m[i]) + epsilon);
    }
    this->expectNear(moment, m, "moment");
    this->expectNear(param, p, "param");
  }
}

TYPED_TEST(OptimizerKernelsTest, RmspropMatchesPaddleFormula) {
  const double decay = 0.9, epsilon = 1e-6, rate = 0.01;
  for (bool centered : {false, true}) {
    SCOPED_TRACE(centered ? "centered" : "plain");
    const double mu = centered ? 0.5 : 0.0;
    Tensor param = this->random();
    Tensor meanSquare(dtypeOf<TypeParam>(), this->shape);
    Tensor moment(dtypeOf<TypeParam>(), this->shape);
    Tensor meanGrad(dtypeOf<TypeParam>(), this->shape);
    Tensor lr = this->scalar(rate);
    Values p = this->valuesOf(param), ms(p.size(), 0.0), mom(p.size(), 0.0),
           mg(p.size(), 0.0);
    for (int step = 0; step < kSteps; ++step) {
      Tensor grad = this->random();
      Values g = this->valuesOf(grad);
      Status status =
          centered
              ? kernels::centeredRmsprop(param, meanSquare, moment, meanGrad,
                                         grad, lr, decay, epsilon, mu)
              : kernels::rmsprop(param, meanSquare, moment, grad, lr, decay,
                                 epsilon, mu);
      ASSERT_TRUE(status.isOk()) << status.message();
      for (size_t i = 0; i < p.size(); ++i) {
        ms[i] = decay * ms[i] + (1 - decay) * g[i] * g[i];
        double variance = ms[i];
        if (centered) {
          mg[i] = decay * mg[i] + (1 - decay) * g[i];
          variance -= mg[i] * mg[i];
        }
        mom[i] = mu * mom[i] + rate * g[i] / std::sqrt(variance + epsilon);
        p[i] -= mom[i];
      }
      this->expectNear(meanSquare, ms, "mean_square");
      this->expectNear(moment, mom, "moment");
      if (centered)
        this->expectNear(meanGrad, mg, "mean_grad");
      this->expectNear(param, p, "param");
    }
  }
}

TYPED_TEST(OptimizerKernelsTest, DecayedAdagradMatchesPaddleFormula) {
  const double decay = 0.8, epsilon = 1e-6, rate = 0.1;
  Tensor param = this->random();
  Tensor moment(dtypeOf<TypeParam>(), this->shape);
  Tensor lr = this->scalar(rate);
  Values p = this->valuesOf(param), m(p.size(), 0.0);
  for (int step = 0; step < kSteps; ++step) {
    Tensor grad = this->random();
    Values g = this->valuesOf(grad);
    ASSERT_TRUE(kernels::decayedAdagrad(param, moment, grad, lr, decay, epsilon)
                    .isOk());
    for (size_t i = 0; i < p.size(); ++i) {
      m[i] = decay * m[i] + (1 - decay) * g[i] * g[i];
      p[i] -= rate * g[i] / (std::sqrt(m[i]) + epsilon);
    }
    this->expectNear(moment, m, "moment");
    this->expectNear(param, p, "param");
  }
}

TYPED_TEST(OptimizerKernelsTest, FtrlMatchesPaddleFormula) {
  const double rate = 0.1;
  // Square roots and general powers; an L1 term large enough that some
  // elements shrink to zero and an L2 term.
  for (double lrPower : {-0.5, -0.3}) {
    SCOPED_TRACE(lrPower);
    const double l1 = 0.5, l2 = 0.2;
    Tensor param = this->random();
    Tensor squared(dtypeOf<TypeParam>(), this->shape);
    Tensor linear(dtypeOf<TypeParam>(), this->shape);
    Tensor lr = this->scalar(rate);
    Values p = this->valuesOf(param), n(p.size(), 0.0), z(p.size(), 0.0);
    // As Paddle's kernel, 1e-10 added to the coefficients.
    const double l1Term = l1 + 1e-10, l2Term = l2 + 1e-10;
    int zeros = 0;
    for (int step = 0; step < kSteps; ++step) {
      Tensor grad = this->random();
      Values g = this->valuesOf(grad);
      ASSERT_TRUE(
          kernels::ftrl(param, squared, linear, grad, lr, l1, l2, lrPower)
              .isOk());
      for (size_t i = 0; i < p.size(); ++i) {
        double next = n[i] + g[i] * g[i];
        z[i] += g[i] - (std::pow(next, -lrPower) - std::pow(n[i], -lrPower)) /
                           rate * p[i];
        double sign = z[i] > 0 ? 1 : z[i] < 0 ? -1 : 0;
        p[i] = std::abs(z[i]) > l1Term
                   ? (l1Term * sign - z[i]) /
                         (std::pow(next, -lrPower) / rate + 2 * l2Term)
                   : 0.0;
        zeros += p[i] == 0;
        n[i] = next;
      }
      this->expectNear(squared, n, "squared");
      this->expectNear(linear, z, "linear");
      this->expectNear(param, p, "param");
    }
    EXPECT_GT(zeros, 0) << "no element was shrunk to zero";
  }
}

TYPED_TEST(OptimizerKernelsTest, AdamaxMatchesPaddleFormula) {
  const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, rate = 0.01;
  Tensor param = this->random();
  Tensor moment(dtypeOf<TypeParam>(), this->shape);
  Tensor infNorm(dtypeOf<TypeParam>(), this->shape);
  // Paddle starts the beta1 power at beta1.
  Tensor beta1Pow = this->scalar(beta1);
  Tensor lr = this->scalar(rate);
  Values p = this->valuesOf(param), m(p.size(), 0.0), u(p.size(), 0.0);
  double b1p = beta1;
  for (int step = 0; step < kSteps; ++step) {
    Tensor grad = this->random();
    Values g = this->valuesOf(grad);
    ASSERT_TRUE(kernels::adamax(param, moment, infNorm, beta1Pow, grad, lr,
                                beta1, beta2, epsilon)
                    .isOk());
    for (size_t i = 0; i < p.size(); ++i) {
      m[i] = beta1 * m[i] + (1 - beta1) * g[i];
      u[i] = std::max(beta2 * u[i] + epsilon, std::abs(g[i]));
      p[i] -= rate / (1 - b1p) * m[i] / u[i];
    }
    b1p *= beta1;
    this->expectNear(moment, m, "moment");
    this->expectNear(infNorm, u, "inf_norm");
    this->expectNear(param, p, "param");
    this->expectNear(beta1Pow, {b1p}, "beta1_pow");
  }
}

TYPED_TEST(OptimizerKernelsTest, ClipMatchesFormula) {
  Tensor x = this->random();
  Tensor out(dtypeOf<TypeParam>(), this->shape);
  ASSERT_TRUE(kernels::clip(x, -0.25, 0.5, out).isOk());
  Values expected = this->valuesOf(x);
  for (double &value : expected)
    value = std::min(std::max(value, -0.25), 0.5);
  this->expectNear(out, expected, "clip");
  // In place, as the plan may run it.
  ASSERT_TRUE(kernels::clip(x, -0.25, 0.5, x).isOk());
  this->expectNear(x, expected, "clip in place");
}

TYPED_TEST(OptimizerKernelsTest, ClipByNormScalesOnlyAboveTheNorm) {
  Tensor x = this->random();
  Values values = this->valuesOf(x);
  double norm = 0;
  for (double value : values)
    norm += value * value;
  norm = std::sqrt(norm);
  Tensor out(dtypeOf<TypeParam>(), this->shape);
  // Above the norm: scaled to exactly max_norm.
  ASSERT_TRUE(kernels::clipByNorm(x, norm / 4, out).isOk());
  Values expected = values;
  for (double &value : expected)
    value *= (norm / 4) / norm;
  this->expectNear(out, expected, "clipped");
  // At or below: unchanged, bit for bit.
  ASSERT_TRUE(kernels::clipByNorm(x, norm * 2, out).isOk());
  EXPECT_EQ(this->valuesOf(out), values);
}

TYPED_TEST(OptimizerKernelsTest, ClipByGlobalNormUsesTheJointNorm) {
  Tensor a = this->random(), b = this->random();
  Values va = this->valuesOf(a), vb = this->valuesOf(b);
  double norm = 0;
  for (const Values *values : {&va, &vb})
    for (double value : *values)
      norm += value * value;
  norm = std::sqrt(norm);
  Tensor ca(dtypeOf<TypeParam>(), this->shape),
      cb(dtypeOf<TypeParam>(), this->shape);
  ASSERT_TRUE(kernels::clipByGlobalNorm({&a, &b}, 1.0, {&ca, &cb}).isOk());
  for (double &value : va)
    value *= 1.0 / std::max(norm, 1.0);
  for (double &value : vb)
    value *= 1.0 / std::max(norm, 1.0);
  this->expectNear(ca, va, "first");
  this->expectNear(cb, vb, "second");
}

TYPED_TEST(OptimizerKernelsTest, SignIsMinusOneZeroOrOne) {
  Tensor x(dtypeOf<TypeParam>(), Shape{4});
  TypeParam *data = x.data<TypeParam>();
  data[0] = -3;
  data[1] = 0;
  data[2] = static_cast<TypeParam>(1e-30);
  data[3] = static_cast<TypeParam>(-0.0);
  Tensor out(dtypeOf<TypeParam>(), Shape{4});
  ASSERT_TRUE(kernels::sign(x, out).isOk());
  EXPECT_EQ(this->valuesOf(out), Values({-1, 0, 1, 0}));
}

TYPED_TEST(OptimizerKernelsTest, BadOperandsAreErrorsAndLeaveTheParameter) {
  Tensor param = this->random();
  Values before = this->valuesOf(param);
  Tensor transposed(dtypeOf<TypeParam>(), {3, 4});
  EXPECT_EQ(kernels::sgd(param, transposed, this->scalar(0.1)).message(),
            "sgd: grad has shape [3, 4], expected [4, 3]");
  Tensor twoRates(dtypeOf<TypeParam>(), {2});
  EXPECT_EQ(kernels::sgd(param, this->random(), twoRates).message(),
            "sgd: lr must hold one element, but has shape [2]");
  Tensor moment(dtypeOf<TypeParam>(), this->shape);
  Tensor intPow(DType::I64, Shape{});
  Tensor beta2Pow = this->scalar(0.999);
  EXPECT_EQ(kernels::adam(param, moment, moment, intPow, beta2Pow,
                          this->random(), this->scalar(0.1), 0.9, 0.999, 1e-8)
                .message(),
            "adam: expected an f32 or f64 tensor, got i64");
  EXPECT_EQ(kernels::ftrl(param, moment, transposed, this->random(),
                          this->scalar(0.1), 0, 0, -0.5)
                .message(),
            "ftrl: linear has shape [3, 4], expected [4, 3]");
  EXPECT_EQ(kernels::adamax(param, moment, moment, twoRates, this->random(),
                            this->scalar(0.1), 0.9, 0.999, 1e-8)
                .message(),
            "adamax: beta1_pow must hold one element, but has shape [2]");
  EXPECT_EQ(kernels::centeredRmsprop(param, moment, moment, transposed,
                                     this->random(), this->scalar(0.1), 0.9,
                                     1e-6, 0)
                .message(),
            "rmsprop: mean_grad has shape [3, 4], expected [4, 3]");
  Tensor ints(DType::I64, this->shape);
  EXPECT_EQ(kernels::sign(ints, ints).message(),
            "sign: expected an f32 or f64 tensor, got i64");
  this->expectNear(param, before, "param");
}

/// Expects every element of the f32 tensor `actual` within one ulp of
/// `expected`.
static void expectWithinUlp(const Tensor &actual,
                            const std::vector<float> &expected,
                            const char *what) {
  ASSERT_EQ(actual.numel(), static_cast<int64_t>(expected.size())) << what;
  for (size_t i = 0; i < expected.size(); ++i) {
    float value = actual.data<float>()[i];
    float ulp =
        std::nextafter(std::abs(expected[i]), INFINITY) - std::abs(expected[i]);
    EXPECT_LE(std::abs(value - expected[i]), ulp)
        << what << ", element " << i << ": " << value << " against "
        << expected[i];
  }
}

/// Returns an f32 tensor of `values`.
static Tensor f32Tensor(const Shape &shape, const std::vector<float> &values) {
  Tensor tensor(DType::F32, shape);
  std::copy(values.begin(), values.end(), tensor.data<float>());
  return tensor;
}

/// Gradients of several magnitudes and both signs.
static const std::vector<float> kGradients = {0.5f,  -1.25f, 3e-3f,
                                              -7.0f, 0.0f,   2e-6f};

TEST(OptimizerKernelsF32Test, AdamStepMatchesPaddlesF32Kernel) {
  // Parameters start at 0, so that the step is the parameter and a relative
  // error of the step shows in full.
  const Shape shape{6};
  const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, rate = 1e-3;
  Tensor param(DType::F32, shape), moment1(DType::F32, shape),
      moment2(DType::F32, shape);
  // openks-append-optimizer starts the f32 beta powers at the attributes.
  Tensor beta1Pow = f32Tensor(Shape{}, {static_cast<float>(beta1)});
  Tensor beta2Pow = f32Tensor(Shape{}, {static_cast<float>(beta2)});
  Tensor lr = f32Tensor(Shape{}, {static_cast<float>(rate)});

  // Paddle's f32 adam kernel: attributes cast to float, all in float.
  const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
  const float eps = static_cast<float>(epsilon);
  float b1p = b1, b2p = b2;
  std::vector<float> p(shape[0], 0.0f), m1(shape[0], 0.0f), m2(shape[0], 0.0f);
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE(step);
    std::vector<float> g = kGradients;
    for (float &value : g)
      value *= static_cast<float>(step + 1);
    ASSERT_TRUE(kernels::adam(param, moment1, moment2, beta1Pow, beta2Pow,
                              f32Tensor(shape, g), lr, beta1, beta2, epsilon)
                    .isOk());
    float stepSize = static_cast<float>(rate);
    stepSize *= std::sqrt(1 - b2p) / (1 - b1p);
    for (size_t i = 0; i < p.size(); ++i) {
      m1[i] = b1 * m1[i] + (1 - b1) * g[i];
      m2[i] = b2 * m2[i] + (1 - b2) * g[i] * g[i];
      p[i] = p[i] - stepSize * (m1[i] / (std::sqrt(m2[i]) + eps));
    }
    b1p = b1 * b1p;
    b2p = b2 * b2p;
    expectWithinUlp(moment1, m1, "moment1");
    expectWithinUlp(moment2, m2, "moment2");
    expectWithinUlp(param, p, "param");
    expectWithinUlp(beta1Pow, {b1p}, "beta1_pow");
    expectWithinUlp(beta2Pow, {b2p}, "beta2_pow");
    if (step == 0) {
      // Paddle's first step is lr for every gradient well above epsilon:
      // the f32 roundings of beta2 in the moment and in the bias
      // correction cancel. Taking 1 - beta2 from the f64 attribute but
      // beta2_pow from the f32 state made it 6.4e-6 (relative) too small.
      EXPECT_NEAR(param.data<float>()[0], -rate, rate * 1e-6);
      double mixed = rate * std::sqrt(1 - static_cast<double>(b2)) /
                     (1 - static_cast<double>(b1)) *
                     static_cast<float>(1 - beta1) /
                     std::sqrt(static_cast<float>(1 - beta2));
      EXPECT_GT(std::abs(mixed / rate - 1), 6e-6);
    }
  }
}

TEST(OptimizerKernelsF32Test, AdamaxStepMatchesPaddlesF32Kernel) {
  const Shape shape{6};
  const double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8, rate = 1e-3;
  Tensor param(DType::F32, shape), moment(DType::F32, shape),
      infNorm(DType::F32, shape);
  Tensor beta1Pow = f32Tensor(Shape{}, {static_cast<float>(beta1)});
  Tensor lr = f32Tensor(Shape{}, {static_cast<float>(rate)});

  // Paddle's f32 adamax kernel, with the beta1_pow update of its scale op.
  const float b1 = static_cast<float>(beta1), b2 = static_cast<float>(beta2);
  const float eps = static_cast<float>(epsilon);
  float b1p = b1;
  std::vector<float> p(shape[0], 0.0f), m(shape[0], 0.0f), u(shape[0], 0.0f);
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE(step);
    std::vector<float> g = kGradients;
    for (float &value : g)
      value *= static_cast<float>(step + 1);
    ASSERT_TRUE(kernels::adamax(param, moment, infNorm, beta1Pow,
                                f32Tensor(shape, g), lr, beta1, beta2, epsilon)
                    .isOk());
    float stepSize = static_cast<float>(rate) / (1 - b1p);
    for (size_t i = 0; i < p.size(); ++i) {
      m[i] = b1 * m[i] + (1 - b1) * g[i];
      u[i] = std::max(std::abs(g[i]), b2 * u[i] + eps);
      p[i] = p[i] - stepSize * (m[i] / u[i]);
    }
    b1p = b1 * b1p;
    expectWithinUlp(moment, m, "moment");
    expectWithinUlp(infNorm, u, "inf_norm");
    expectWithinUlp(param, p, "param");
    expectWithinUlp(beta1Pow, {b1p}, "beta1_pow");
  }
}

TEST(OptimizerKernelsF32Test, RmspropAndDecayedAdagradMatchPaddlesF32Kernels) {
  const Shape shape{6};
  const double decay = 0.95, epsilon = 1e-6, mu = 0.5, rate = 1e-2;
  Tensor param(DType::F32, shape), meanSquare(DType::F32, shape),
      moment(DType::F32, shape), squares(DType::F32, shape),
      adagradParam(DType::F32, shape);
  Tensor lr = f32Tensor(Shape{}, {static_cast<float>(rate)});

  // Paddle's f32 kernels compute 1 - rho in float.
  const float rho = static_cast<float>(decay),
              eps = static_cast<float>(epsilon);
  const float momentum = static_cast<float>(mu), r = static_cast<float>(rate);
  std::vector<float> p(shape[0], 0.0f), ms(shape[0], 0.0f), mom(shape[0], 0.0f),
      sq(shape[0], 0.0f), ap(shape[0], 0.0f);
  for (int step = 0; step < kSteps; ++step) {
    SCOPED_TRACE(step);
    std::vector<float> g = kGradients;
    for (float &value : g)
      value *= static_cast<float>(step + 1);
    Tensor grad = f32Tensor(shape, g);
    ASSERT_TRUE(kernels::rmsprop(param, meanSquare, moment, grad, lr, decay,
                                 epsilon, mu)
                    .isOk());
    ASSERT_TRUE(
        kernels::decayedAdagrad(adagradParam, squares, grad, lr, decay, epsilon)
            .isOk());
    for (size_t i = 0; i < p.size(); ++i) {
      ms[i] = rho * ms[i] + (1 - rho) * g[i] * g[i];
      mom[i] = momentum * mom[i] + r * g[i] / std::sqrt(ms[i] + eps);
      p[i] = p[i] - mom[i];
      sq[i] = rho * sq[i] + (1 - rho) * g[i] * g[i];
      ap[i] = ap[i] - r * g[i] / (std::sqrt(sq[i]) + eps);
    }
    expectWithinUlp(meanSquare, ms, "rmsprop mean_square");
    expectWithinUlp(moment, mom, "rmsprop moment");
    expectWithinUlp(param, p, "rmsprop param");
    expectWithinUlp(squares, sq, "decayed_adagrad moment");
    expectWithinUlp(adagradParam, ap, "decayed_adagrad param");
  }
}

TEST(OptimizerKernelsMixedTest, LearningRateMayHaveTheOtherFloatType) {
  Tensor param(DType::F32, {2});
  Tensor grad(DType::F32, {2});
  grad.data<float>()[0] = 1;
  grad.data<float>()[1] = -2;
  Tensor lr(DType::F64, Shape{});
  *lr.data<double>() = 0.5;
  ASSERT_TRUE(kernels::sgd(param, grad, lr).isOk());
  EXPECT_EQ(param.data<float>()[0], -0.5f);
  EXPECT_EQ(param.data<float>()[1], 1.0f);
}

} // namespace
