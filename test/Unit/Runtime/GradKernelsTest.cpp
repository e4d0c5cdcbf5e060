//===- GradKernelsTest.cpp - Tests of the gradient CPU kernels ------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Checks every gradient kernel against central finite differences in f64:
// for a random upstream gradient G and L(x) = sum(G * forward(x)), each
// element of each differentiable input must get the gradient
// (L(x + h e_i) - L(x - h e_i)) / 2h.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Kernels.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <functional>
#include <random>
#include <vector>

using namespace openks;
using namespace openks::runtime;

namespace {

/// Computes the forward result of the op under test from its current inputs.
using Forward = std::function<Status(Tensor &out)>;

class GradKernelsTest : public ::testing::Test {
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

/// Returns an i64 tensor of `shape` holding `ids`.
Tensor idTensor(const Shape &shape, const std::vector<int64_t> &ids) {
  Tensor tensor(DType::I64, shape);
  std::copy(ids.begin(), ids.end(), tensor.data<int64_t>());
  return tensor;
}

TEST_F(GradKernelsTest, Matmul) {
  Tensor a = random({4, 3});
  Tensor b = random({3, 5});
  Forward forward = [&](Tensor &out) { return kernels::matmul(a, b, out); };
  Tensor upstream = upstreamFor(forward);
  Tensor da = output(), db = output();
  ASSERT_TRUE(kernels::matmulGrad(a, b, upstream, &da, &db).isOk());
  expectGradients(forward, upstream, {&a, &b}, {&da, &db});

  // Skipping the gradient of a leaves that of b as it was.
  Tensor onlyDb = output();
  ASSERT_TRUE(kernels::matmulGrad(a, b, upstream, nullptr, &onlyDb).isOk());
  ASSERT_EQ(onlyDb.shape(), db.shape());
  for (int64_t i = 0; i < db.numel(); ++i)
    EXPECT_EQ(onlyDb.data<double>()[i], db.data<double>()[i]);
}

TEST_F(GradKernelsTest, AddAndMulWithAndWithoutBias) {
  struct Case {
    const char *name;
    Status (*kernel)(const Tensor &, const Tensor &, Tensor &);
    Status (*gradKernel)(const Tensor &, const Tensor &, const Tensor &,
                         Tensor &, Tensor &);
  };
  for (const Case &op : {Case{"add", kernels::add, kernels::addGrad},
                         Case{"mul", kernels::mul, kernels::mulGrad}}) {
    for (const Shape &yShape : {Shape{2, 3, 4}, Shape{4}}) {
      SCOPED_TRACE(op.name + (" with y " + yShape.str()));
      Tensor x = random({2, 3, 4});
      Tensor y = random(yShape);
      Forward forward = [&](Tensor &out) { return op.kernel(x, y, out); };
      Tensor upstream = upstreamFor(forward);
      Tensor dx = output(), dy = output();
      ASSERT_TRUE(op.gradKernel(x, y, upstream, dx, dy).isOk());
      expectGradients(forward, upstream, {&x, &y}, {&dx, &dy});
    }
  }
}

TEST_F(GradKernelsTest, ActivationsAndSoftmax) {
  struct Case {
    const char *name;
    Status (*kernel)(const Tensor &, Tensor &);
    /// Takes the forward result, as the train dialect's gradient ops do.
    Status (*gradKernel)(const Tensor &, const Tensor &, Tensor &);
  };
  for (const Case &op :
       {Case{"relu", kernels::relu, kernels::reluGrad},
        Case{"sigmoid", kernels::sigmoid, kernels::sigmoidGrad},
        Case{"tanh", kernels::tanh, kernels::tanhGrad},
        Case{"softmax", kernels::softmax, kernels::softmaxGrad}}) {
    SCOPED_TRACE(op.name);
    Tensor x = random({3, 5});
    // Keep every element at least 0.1 away from relu's kink at 0.
    for (int64_t i = 0; i < x.numel(); ++i)
      x.data<double>()[i] += x.data<double>()[i] < 0 ? -0.1 : 0.1;
    Forward forward = [&](Tensor &out) { return op.kernel(x, out); };
    Tensor upstream = upstreamFor(forward);
    Tensor out = output(), dx = output();
    ASSERT_TRUE(op.kernel(x, out).isOk());
    ASSERT_TRUE(op.gradKernel(out, upstream, dx).isOk());
    expectGradients(forward, upstream, {&x}, {&dx});
  }
}

TEST_F(GradKernelsTest, SoftmaxCrossEntropyWithFixedLabels) {
  Tensor logits = random({5, 4}, -4, 4);
  Tensor labels = idTensor({5}, {3, 0, 0, 2, 1});
  Forward forward = [&](Tensor &out) {
    return kernels::softmaxCrossEntropy(logits, labels, out);
  };
  Tensor upstream = upstreamFor(forward);
  Tensor dlogits = output();
  ASSERT_TRUE(
      kernels::softmaxCrossEntropyGrad(logits, labels, upstream, dlogits)
          .isOk());
  expectGradients(forward, upstream, {&logits}, {&dlogits});
}

TEST_F(GradKernelsTest, SigmoidCrossEntropyWithFixedLabels) {
  Tensor logits = random({6, 2}, -5, 5);
  Tensor labels = random({6, 2}, 0, 1);
  for (int64_t i = 0; i < labels.numel(); ++i)
    labels.data<double>()[i] = std::round(labels.data<double>()[i]);
  Forward forward = [&](Tensor &out) {
    return kernels::sigmoidCrossEntropy(logits, labels, out);
  };
  Tensor upstream = upstreamFor(forward);
  Tensor dlogits = output();
  ASSERT_TRUE(
      kernels::sigmoidCrossEntropyGrad(logits, labels, upstream, dlogits)
          .isOk());
  expectGradients(forward, upstream, {&logits}, {&dlogits});
}

TEST_F(GradKernelsTest, Mean) {
  Tensor x = random({3, 5});
  Forward forward = [&](Tensor &out) { return kernels::mean(x, out); };
  Tensor upstream = upstreamFor(forward);
  Tensor dx = output();
  ASSERT_TRUE(kernels::meanGrad(x, upstream, dx).isOk());
  expectGradients(forward, upstream, {&x}, {&dx});
}

TEST_F(GradKernelsTest, ReduceSumOverSeveralDimensionSets) {
  const std::vector<std::vector<int64_t>> dimSets = {{},  {0},    {1},
                                                     {2}, {0, 2}, {1, 2}};
  for (const std::vector<int64_t> &dims : dimSets) {
    for (bool keepDims : {false, true}) {
      SCOPED_TRACE(fmt::format("dims [{}] keep_dims {}", fmt::join(dims, ", "),
                               keepDims));
      Tensor x = random({2, 3, 4});
      Forward forward = [&](Tensor &out) {
        return kernels::reduceSum(x, dims, keepDims, out);
      };
      Tensor upstream = upstreamFor(forward);
      Tensor dx = output();
      ASSERT_TRUE(
          kernels::reduceSumGrad(x, upstream, dims, keepDims, dx).isOk());
      expectGradients(forward, upstream, {&x}, {&dx});
    }
  }
}

TEST_F(GradKernelsTest, Reshape) {
  Tensor x = random({2, 3, 4});
  Forward forward = [&](Tensor &out) {
    return kernels::reshape(x, {-1, 4}, out);
  };
  Tensor upstream = upstreamFor(forward);
  Tensor dx = output();
  ASSERT_TRUE(kernels::reshapeGrad(x, upstream, dx).isOk());
  expectGradients(forward, upstream, {&x}, {&dx});
}

TEST_F(GradKernelsTest, ConcatOfThreeInputsOnEachAxis) {
  const std::vector<std::pair<int, std::vector<Shape>>> cases = {
      {0, {{2, 3}, {1, 3}, {4, 3}}}, {1, {{2, 1}, {2, 3}, {2, 2}}}};
  for (const auto &[axis, shapes] : cases) {
    SCOPED_TRACE(fmt::format("axis {}", axis));
    Tensor a = random(shapes[0]), b = random(shapes[1]), c = random(shapes[2]);
    std::vector<const Tensor *> inputs = {&a, &b, &c};
    Forward forward = [&, axis = axis](Tensor &out) {
      return kernels::concat(inputs, axis, out);
    };
    Tensor upstream = upstreamFor(forward);
    Tensor da = output(), db = output(), dc = output();
    ASSERT_TRUE(
        kernels::concatGrad(inputs, upstream, axis, {&da, &db, &dc}).isOk());
    expectGradients(forward, upstream, {&a, &b, &c}, {&da, &db, &dc});
  }
}

TEST_F(GradKernelsTest, EmbeddingWithRepeatedIdsAndPadding) {
  Tensor table = random({6, 3});
  Tensor ids = idTensor({2, 4}, {1, 4, 1, 0, 5, 4, 1, 0});
  for (std::optional<int64_t> padding :
       {std::optional<int64_t>(), std::optional<int64_t>(0)}) {
    SCOPED_TRACE(padding ? "padding_idx 0" : "no padding_idx");
    Forward forward = [&](Tensor &out) {
      return kernels::embedding(table, ids, padding, out);
    };
    Tensor upstream = upstreamFor(forward);
    Tensor dtable = output();
    ASSERT_TRUE(
        kernels::embeddingGrad(ids, upstream, table.shape(), padding, dtable)
            .isOk());
    expectGradients(forward, upstream, {&table}, {&dtable});
  }
}

} // namespace
