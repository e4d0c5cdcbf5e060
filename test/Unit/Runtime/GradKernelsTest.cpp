//===- GradKernelsTest.cpp - Tests of the gradient CPU kernels ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks every gradient kernel against central finite differences in f64
// (GradientCheckTest in KernelTesting.h).
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

using GradKernelsTest = GradientCheckTest;

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

//===----------------------------------------------------------------------===//
// Element-wise math, norms and cosines
//===----------------------------------------------------------------------===//

/// Moves every element of `x` at least `gap` away from 0, keeping its sign,
/// so no finite difference straddles a kink there.
void awayFromZero(Tensor &x, double gap) {
  for (int64_t i = 0; i < x.numel(); ++i)
    x.data<double>()[i] += x.data<double>()[i] < 0 ? -gap : gap;
}

TEST_F(GradKernelsTest, SubAndDivWithAndWithoutBias) {
  struct Case {
    const char *name;
    Status (*kernel)(const Tensor &, const Tensor &, Tensor &);
    Status (*gradKernel)(const Tensor &, const Tensor &, const Tensor &,
                         Tensor &, Tensor &);
  };
  for (const Case &op : {Case{"sub", kernels::sub, kernels::subGrad},
                         Case{"div", kernels::div, kernels::divGrad}}) {
    for (const Shape &yShape : {Shape{2, 3, 4}, Shape{4}}) {
      SCOPED_TRACE(op.name + (" with y " + yShape.str()));
      Tensor x = random({2, 3, 4});
      Tensor y = random(yShape, -1, 1);
      awayFromZero(y, 0.5);
      Forward forward = [&](Tensor &out) { return op.kernel(x, y, out); };
      Tensor upstream = upstreamFor(forward);
      Tensor dx = output(), dy = output();
      ASSERT_TRUE(op.gradKernel(x, y, upstream, dx, dy).isOk());
      expectGradients(forward, upstream, {&x, &y}, {&dx, &dy});
    }
  }
}

TEST_F(GradKernelsTest, UnaryMath) {
  struct Case {
    const char *name;
    Status (*kernel)(const Tensor &, Tensor &);
    Status (*gradKernel)(const Tensor &, const Tensor &, Tensor &);
    /// Whether the gradient kernel takes the forward result, not the input.
    bool fromResult;
    /// The input range, within the op's domain.
    double low, high;
  };
  for (const Case &op :
       {Case{"abs", kernels::abs, kernels::absGrad, false, -2, 2},
        Case{"square", kernels::square, kernels::squareGrad, false, -2, 2},
        Case{"sqrt", kernels::sqrt, kernels::sqrtGrad, true, 0.2, 3},
        Case{"exp", kernels::exp, kernels::expGrad, true, -2, 2},
        Case{"log", kernels::log, kernels::logGrad, false, 0.2, 3},
        Case{"softsign", kernels::softsign, kernels::softsignGrad, false, -3,
             3}}) {
    SCOPED_TRACE(op.name);
    Tensor x = random({3, 5}, op.low, op.high);
    if (op.low < 0)
      awayFromZero(x, 0.1);
    Forward forward = [&](Tensor &out) { return op.kernel(x, out); };
    Tensor upstream = upstreamFor(forward);
    Tensor out = output(), dx = output();
    ASSERT_TRUE(op.kernel(x, out).isOk());
    ASSERT_TRUE(op.gradKernel(op.fromResult ? out : x, upstream, dx).isOk());
    expectGradients(forward, upstream, {&x}, {&dx});
  }
}

TEST_F(GradKernelsTest, PNormOfEachOrderAlongEachAxis) {
  for (int64_t p : {1, 2}) {
    for (int64_t axis : {0, 1, 2}) {
      for (bool keepDims : {false, true}) {
        SCOPED_TRACE(
            fmt::format("p {} axis {} keep_dims {}", p, axis, keepDims));
        Tensor x = random({2, 3, 4});
        awayFromZero(x, 0.1);
        Forward forward = [&](Tensor &out) {
          return kernels::pNorm(x, p, axis, keepDims, out);
        };
        Tensor upstream = upstreamFor(forward);
        Tensor out = output(), dx = output();
        ASSERT_TRUE(kernels::pNorm(x, p, axis, keepDims, out).isOk());
        ASSERT_TRUE(
            kernels::pNormGrad(x, out, upstream, p, axis, keepDims, 1e-12, dx)
                .isOk());
        expectGradients(forward, upstream, {&x}, {&dx});
      }
    }
  }
}

TEST_F(GradKernelsTest, PNormOfAZeroVectorHasAZeroGradient) {
  // Row 1 is zero: its norm is 0 and its gradient 0 (p = 2 divides by
  // out + epsilon), not NaN; the other rows are unaffected.
  Tensor x = random({3, 4});
  std::fill_n(x.data<double>() + 4, 4, 0.0);
  for (int64_t p : {1, 2}) {
    SCOPED_TRACE(fmt::format("p {}", p));
    Tensor out = output(), dx = output();
    ASSERT_TRUE(kernels::pNorm(x, p, 1, false, out).isOk());
    EXPECT_EQ(out.data<double>()[1], 0.0);
    Tensor upstream = random({3});
    ASSERT_TRUE(
        kernels::pNormGrad(x, out, upstream, p, 1, false, 1e-12, dx).isOk());
    for (int64_t i = 0; i < dx.numel(); ++i) {
      EXPECT_TRUE(std::isfinite(dx.data<double>()[i])) << "element " << i;
      if (i / 4 == 1)
        EXPECT_EQ(dx.data<double>()[i], 0.0) << "element " << i;
      else
        EXPECT_NE(dx.data<double>()[i], 0.0) << "element " << i;
    }
  }
}

TEST_F(GradKernelsTest, CosSimRowWiseAndBroadcast) {
  for (const Shape &yShape : {Shape{5, 3}, Shape{1, 3}}) {
    SCOPED_TRACE("y " + yShape.str());
    Tensor x = random({5, 3});
    Tensor y = random(yShape);
    Forward forward = [&](Tensor &out) { return kernels::cosSim(x, y, out); };
    Tensor upstream = upstreamFor(forward);
    Tensor dx = output(), dy = output();
    ASSERT_TRUE(kernels::cosSimGrad(x, y, upstream, dx, dy).isOk());
    expectGradients(forward, upstream, {&x, &y}, {&dx, &dy});
  }
}

TEST_F(GradKernelsTest, CosSimOfAZeroRowIsZeroWithZeroGradients) {
  Tensor x = random({3, 4});
  Tensor y = random({3, 4});
  std::fill_n(x.data<double>() + 4, 4, 0.0); // x row 1
  std::fill_n(y.data<double>() + 8, 4, 0.0); // y row 2
  Tensor out = output(), dx = output(), dy = output();
  ASSERT_TRUE(kernels::cosSim(x, y, out).isOk());
  EXPECT_EQ(out.data<double>()[1], 0.0);
  EXPECT_EQ(out.data<double>()[2], 0.0);
  Tensor upstream = random({3, 1});
  ASSERT_TRUE(kernels::cosSimGrad(x, y, upstream, dx, dy).isOk());
  for (int64_t i = 4; i < 12; ++i) {
    EXPECT_EQ(dx.data<double>()[i], 0.0) << "element " << i;
    EXPECT_EQ(dy.data<double>()[i], 0.0) << "element " << i;
  }
  EXPECT_NE(dx.data<double>()[0], 0.0);
}

//===----------------------------------------------------------------------===//
// Losses
//===----------------------------------------------------------------------===//

TEST_F(GradKernelsTest, SquareError) {
  Tensor input = random({4, 3});
  Tensor label = random({4, 3});
  Forward forward = [&](Tensor &out) {
    return kernels::squareError(input, label, out);
  };
  Tensor upstream = upstreamFor(forward);
  Tensor dinput = output(), dlabel = output();
  ASSERT_TRUE(
      kernels::squareErrorGrad(input, label, upstream, dinput, dlabel).isOk());
  expectGradients(forward, upstream, {&input, &label}, {&dinput, &dlabel});
}

TEST_F(GradKernelsTest, MarginLossOnBothSidesOfTheMargin) {
  const double margin = 0.5;
  Tensor pos = random({12});
  Tensor neg = random({12});
  // Keep margin + pos - neg at least 0.1 away from the kink at 0.
  for (int64_t i = 0; i < 12; ++i) {
    double &n = neg.data<double>()[i];
    double slack = margin + pos.data<double>()[i] - n;
    if (std::abs(slack) < 0.1)
      n -= 0.2;
  }
  Forward forward = [&](Tensor &out) {
    return kernels::marginLoss(pos, neg, margin, out);
  };
  Tensor upstream = upstreamFor(forward);
  Tensor dpos = output(), dneg = output();
  ASSERT_TRUE(
      kernels::marginLossGrad(pos, neg, upstream, margin, dpos, dneg).isOk());
  expectGradients(forward, upstream, {&pos, &neg}, {&dpos, &dneg});
  int active = 0;
  for (int64_t i = 0; i < 12; ++i)
    active += dpos.data<double>()[i] != 0;
  EXPECT_GT(active, 0);
  EXPECT_LT(active, 12);
}

//===----------------------------------------------------------------------===//
// Pooling
//===----------------------------------------------------------------------===//

TEST_F(GradKernelsTest, SequencePoolOfEachTypeWithAnEmptySequence) {
  Tensor lengths = idTensor({4}, {2, 0, 4, 1});
  for (kernels::PoolType type :
       {kernels::PoolType::Sum, kernels::PoolType::Mean,
        kernels::PoolType::Sqrt}) {
    for (const Shape &shape : {Shape{7, 3}, Shape{7}, Shape{7, 2, 2}}) {
      SCOPED_TRACE(
          fmt::format("type {} x {}", static_cast<int>(type), shape.str()));
      Tensor x = random(shape);
      Forward forward = [&](Tensor &out) {
        return kernels::sequencePool(x, lengths, type, out);
      };
      Tensor upstream = upstreamFor(forward);
      Tensor dx = output();
      ASSERT_TRUE(
          kernels::sequencePoolGrad(x, lengths, upstream, type, dx).isOk());
      expectGradients(forward, upstream, {&x}, {&dx});
    }
  }
}

TEST_F(GradKernelsTest, EmbeddingPoolOfEachTypeWithPadding) {
  Tensor table = random({6, 3});
  Tensor ids = idTensor({7}, {1, 4, 1, 0, 5, 4, 0});
  Tensor lengths = idTensor({3}, {3, 0, 4});
  for (kernels::PoolType type :
       {kernels::PoolType::Sum, kernels::PoolType::Mean,
        kernels::PoolType::Sqrt}) {
    for (std::optional<int64_t> padding :
         {std::optional<int64_t>(), std::optional<int64_t>(0)}) {
      SCOPED_TRACE(fmt::format("type {} {}", static_cast<int>(type),
                               padding ? "padding_idx 0" : "no padding_idx"));
      Forward forward = [&](Tensor &out) {
        return kernels::embeddingPool(table, ids, lengths, type, padding, out);
      };
      Tensor upstream = upstreamFor(forward);
      Tensor dtable = output();
      ASSERT_TRUE(kernels::embeddingPoolGrad(ids, lengths, upstream,
                                             table.shape(), type, padding,
                                             dtable)
                      .isOk());
      expectGradients(forward, upstream, {&table}, {&dtable});
    }
  }
}

//===----------------------------------------------------------------------===//
// Dropout and nce: the draws are fixed by the seed and the step
//===----------------------------------------------------------------------===//

TEST_F(GradKernelsTest, DropoutInBothModes) {
  Tensor step = idTensor({}, {5});
  for (bool upscale : {false, true}) {
    SCOPED_TRACE(upscale ? "upscale_in_train" : "downgrade_in_infer");
    kernels::DropoutMask mask{0.4, 11, upscale};
    Tensor x = random({4, 6});
    Forward forward = [&](Tensor &out) {
      return kernels::dropout(x, step, /*firstRow=*/0, mask, out);
    };
    Tensor upstream = upstreamFor(forward);
    Tensor dx = output();
    ASSERT_TRUE(
        kernels::dropoutGrad(upstream, step, /*firstRow=*/0, mask, dx).isOk());
    expectGradients(forward, upstream, {&x}, {&dx});
  }
}

TEST_F(GradKernelsTest, NceWithEachSamplerAndOneOrTwoTrueClasses) {
  Tensor step = idTensor({}, {3});
  for (ClassSampler::Kind sampler :
       {ClassSampler::Kind::Uniform, ClassSampler::Kind::LogUniform}) {
    for (const Tensor &labels :
         {idTensor({3}, {7, 0, 2}), idTensor({3, 2}, {7, 1, 0, 9, 2, 2})}) {
      SCOPED_TRACE(fmt::format(
          "{} sampler, labels {}",
          sampler == ClassSampler::Kind::Uniform ? "uniform" : "log-uniform",
          labels.shape().str()));
      kernels::NceSampling sampling{4, sampler, 21};
      Tensor input = random({3, 4}, -1, 1);
      Tensor weight = random({10, 4}, -1, 1);
      Tensor bias = random({10}, -1, 1);
      Forward forward = [&](Tensor &out) {
        return kernels::nce(input, labels, weight, bias, step, /*firstRow=*/0,
                            sampling, out);
      };
      Tensor upstream = upstreamFor(forward);
      Tensor dinput = output(), dweight = output(), dbias = output();
      ASSERT_TRUE(kernels::nceGrad(input, labels, weight, bias, step,
                                   /*firstRow=*/0, upstream, sampling, dinput,
                                   dweight, dbias)
                      .isOk());
      expectGradients(forward, upstream, {&input, &weight, &bias},
                      {&dinput, &dweight, &dbias});
    }
  }
}
