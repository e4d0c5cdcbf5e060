//===- SamplingKernelsTest.cpp - Tests of dropout, samplers and nce -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks that dropout masks keep the right share of elements, scale them as
// Paddle does, and depend on nothing but the seed, the step and the
// position; that ClassSampler draws with the probabilities it reports; and
// the nce cost, in f32 and f64, against Paddle's formula evaluated naively
// over the same draws.
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

template <typename T> class SamplingKernelsTest : public TypedKernelTest<T> {};
TYPED_TEST_SUITE(SamplingKernelsTest, FloatTypes, ElementTypeNames);

/// Returns a rank-0 step counter holding `step`.
Tensor stepTensor(int64_t step) { return idTensor({}, {step}); }

//===----------------------------------------------------------------------===//
// Dropout
//===----------------------------------------------------------------------===//

TYPED_TEST(SamplingKernelsTest, DropoutKeepsOneMinusProbScaledAsPaddle) {
  Tensor x = this->random({100, 100}, 1, 2);
  Values xs = valuesOf(x);
  for (bool upscale : {false, true}) {
    SCOPED_TRACE(upscale ? "upscale_in_train" : "downgrade_in_infer");
    Tensor out = this->output();
    ASSERT_TRUE(kernels::dropout(x, stepTensor(9), /*firstRow=*/0,
                                 {0.3, 5, upscale}, out)
                    .isOk());
    Values outs = valuesOf(out);
    int64_t kept = 0;
    double scale = upscale ? 1 / 0.7 : 1;
    for (size_t i = 0; i < xs.size(); ++i) {
      if (outs[i] == 0)
        continue;
      ++kept;
      EXPECT_NEAR(outs[i], xs[i] * scale, 1e-6 * outs[i]) << "element " << i;
    }
    // 10000 Bernoulli(0.7) draws: the standard deviation of the share is
    // about 0.005.
    EXPECT_NEAR(kept / 10000.0, 0.7, 0.02);
  }
}

TYPED_TEST(SamplingKernelsTest, DropoutMaskDependsOnSeedStepAndPositionOnly) {
  Tensor x = this->random({8, 16}, 1, 2);
  auto maskOf = [&](const Tensor &input, int64_t step, uint64_t seed) {
    Tensor out = this->output();
    EXPECT_TRUE(kernels::dropout(input, stepTensor(step), /*firstRow=*/0,
                                 {0.5, seed, false}, out)
                    .isOk());
    std::vector<bool> kept;
    for (double value : valuesOf(out))
      kept.push_back(value != 0);
    return kept;
  };
  std::vector<bool> mask = maskOf(x, 3, 1);
  EXPECT_EQ(maskOf(x, 3, 1), mask) << "the same draws repeat";
  EXPECT_NE(maskOf(x, 4, 1), mask) << "the next step draws anew";
  EXPECT_NE(maskOf(x, 3, 2), mask) << "another seed draws anew";

  // The first rows of a batch get the first elements of the whole mask.
  Tensor rows(dtypeOf<TypeParam>(), {3, 16});
  std::copy_n(x.template data<TypeParam>(), 48,
              rows.template data<TypeParam>());
  std::vector<bool> prefix = maskOf(rows, 3, 1);
  EXPECT_EQ(prefix, std::vector<bool>(mask.begin(), mask.begin() + 48));

  // A trainer's shard of rows [5, 8) draws what those rows of the whole
  // batch draw, given where it begins.
  Tensor shard(dtypeOf<TypeParam>(), {3, 16});
  std::copy_n(x.template data<TypeParam>() + 5 * 16, 48,
              shard.template data<TypeParam>());
  Tensor shardOut = this->output();
  ASSERT_TRUE(kernels::dropout(shard, stepTensor(3), /*firstRow=*/5,
                               {0.5, 1, false}, shardOut)
                  .isOk());
  std::vector<bool> shardMask;
  for (double value : valuesOf(shardOut))
    shardMask.push_back(value != 0);
  EXPECT_EQ(shardMask, std::vector<bool>(mask.begin() + 80, mask.end()));

  // The gradient applies the same mask.
  Tensor ones(dtypeOf<TypeParam>(), {8, 16});
  std::fill_n(ones.template data<TypeParam>(), 128, TypeParam(1));
  Tensor dx = this->output();
  ASSERT_TRUE(kernels::dropoutGrad(ones, stepTensor(3), /*firstRow=*/0,
                                   {0.5, 1, false}, dx)
                  .isOk());
  Values grads = valuesOf(dx);
  for (size_t i = 0; i < mask.size(); ++i)
    EXPECT_EQ(grads[i], mask[i] ? 1.0 : 0.0) << "element " << i;
}

TYPED_TEST(SamplingKernelsTest, DropoutAtProbabilityZeroAndOne) {
  Tensor x = this->random({4, 5});
  for (bool upscale : {false, true}) {
    Tensor out = this->output();
    ASSERT_TRUE(kernels::dropout(x, stepTensor(0), /*firstRow=*/0,
                                 {0.0, 3, upscale}, out)
                    .isOk());
    this->expectNear(out, x.shape(), valuesOf(x));
    ASSERT_TRUE(kernels::dropout(x, stepTensor(0), /*firstRow=*/0,
                                 {1.0, 3, upscale}, out)
                    .isOk());
    this->expectNear(out, x.shape(), Values(20, 0.0));
  }
  Tensor out = this->output();
  EXPECT_EQ(
      kernels::dropout(x, stepTensor(0), /*firstRow=*/0, {1.5, 3, false}, out)
          .message(),
      "dropout: dropout_prob 1.5 is outside [0, 1]");
  EXPECT_EQ(kernels::dropout(x, this->random({}), /*firstRow=*/0,
                             {0.5, 3, false}, out)
                .message(),
            fmt::format("dropout: step has element type {}, expected i64",
                        dtypeName(dtypeOf<TypeParam>())));
}

//===----------------------------------------------------------------------===//
// Class samplers
//===----------------------------------------------------------------------===//

TEST(ClassSamplerTest, DrawsWithTheProbabilitiesItReports) {
  constexpr int64_t kClasses = 20;
  constexpr int64_t kDraws = 200000;
  for (ClassSampler::Kind kind :
       {ClassSampler::Kind::Uniform, ClassSampler::Kind::LogUniform}) {
    SCOPED_TRACE(kind == ClassSampler::Kind::Uniform ? "uniform"
                                                     : "log-uniform");
    ClassSampler sampler(kind, kClasses, 42);
    std::vector<int64_t> counts(kClasses, 0);
    for (int64_t draw = 0; draw < kDraws; ++draw) {
      int64_t id = sampler.sample(draw, 7);
      ASSERT_GE(id, 0);
      ASSERT_LT(id, kClasses);
      ++counts[id];
    }
    double total = 0;
    for (int64_t id = 0; id < kClasses; ++id) {
      double p = sampler.probability(id);
      total += p;
      // Within five binomial standard deviations.
      double sigma = std::sqrt(kDraws * p * (1 - p));
      EXPECT_NEAR(counts[id], kDraws * p, 5 * sigma) << "class " << id;
    }
    EXPECT_NEAR(total, 1.0, 1e-12);
  }
  // Log-uniform favours the small (frequent) ids.
  ClassSampler zipf(ClassSampler::Kind::LogUniform, kClasses, 1);
  EXPECT_GT(zipf.probability(0), 5 * zipf.probability(kClasses - 1));
  // A draw is a pure function of the seed, the counter and the stream.
  EXPECT_EQ(zipf.sample(12, 3), zipf.sample(12, 3));
}

//===----------------------------------------------------------------------===//
// Noise-contrastive estimation
//===----------------------------------------------------------------------===//

/// Paddle's nce cost, evaluated as written, over the draws `sampler` makes
/// for row i and negative j at counter i * numNeg + j of stream `step`.
Values referenceNce(const Values &input, const std::vector<int64_t> &labels,
                    int64_t numTrue, const Values &weight, const Values &bias,
                    int64_t width, int64_t numNeg, const ClassSampler &sampler,
                    uint64_t step) {
  int64_t batch = input.size() / width;
  Values costs(batch, 0.0);
  for (int64_t row = 0; row < batch; ++row) {
    for (int64_t j = 0; j < numTrue + numNeg; ++j) {
      bool isTrue = j < numTrue;
      int64_t cls = isTrue ? labels[row * numTrue + j]
                           : sampler.sample(row * numNeg + j - numTrue, step);
      double z = bias[cls];
      for (int64_t k = 0; k < width; ++k)
        z += input[row * width + k] * weight[cls * width + k];
      double o = 1 / (1 + std::exp(-z));
      double b = sampler.probability(cls) * numNeg;
      costs[row] += isTrue ? -std::log(o / (o + b)) : -std::log(b / (o + b));
    }
  }
  return costs;
}

TYPED_TEST(SamplingKernelsTest, NceMatchesPaddlesFormula) {
  constexpr int64_t kClasses = 50, kWidth = 6, kNeg = 5;
  Tensor weight = this->random({kClasses, kWidth}, -1, 1);
  Tensor bias = this->random({kClasses}, -1, 1);
  for (ClassSampler::Kind kind :
       {ClassSampler::Kind::Uniform, ClassSampler::Kind::LogUniform}) {
    for (int64_t numTrue : {1, 3}) {
      SCOPED_TRACE(fmt::format("sampler {} true classes {}",
                               static_cast<int>(kind), numTrue));
      Tensor input = this->random({4, kWidth}, -1, 1);
      std::vector<int64_t> labels;
      for (int64_t i = 0; i < 4 * numTrue; ++i)
        labels.push_back(this->rng() % kClasses);
      Tensor labelsTensor =
          numTrue == 1 ? idTensor({4}, labels) : idTensor({4, numTrue}, labels);
      kernels::NceSampling sampling{kNeg, kind, 17};
      Tensor cost = this->output();
      ASSERT_TRUE(kernels::nce(input, labelsTensor, weight, bias, stepTensor(8),
                               /*firstRow=*/0, sampling, cost)
                      .isOk());
      ClassSampler sampler(kind, kClasses, 17);
      this->expectNear(cost, {4},
                       referenceNce(valuesOf(input), labels, numTrue,
                                    valuesOf(weight), valuesOf(bias), kWidth,
                                    kNeg, sampler, 8));
    }
  }
}

TYPED_TEST(SamplingKernelsTest, NceShardsDrawTheNegativesOfTheWholeBatch) {
  Tensor weight = this->random({40, 3}, -1, 1);
  Tensor bias = this->random({40}, -1, 1);
  Tensor input = this->random({6, 3}, -1, 1);
  std::vector<int64_t> labels = {1, 7, 3, 39, 0, 12};
  kernels::NceSampling sampling{4, ClassSampler::Kind::LogUniform, 5};
  Tensor whole = this->output();
  ASSERT_TRUE(kernels::nce(input, idTensor({6}, labels), weight, bias,
                           stepTensor(2), /*firstRow=*/0, sampling, whole)
                  .isOk());
  // Rows [2, 6) as a trainer's shard.
  Tensor rows(dtypeOf<TypeParam>(), {4, 3});
  std::copy_n(input.template data<TypeParam>() + 2 * 3, 12,
              rows.template data<TypeParam>());
  Tensor shard = this->output();
  ASSERT_TRUE(kernels::nce(rows, idTensor({4}, {3, 39, 0, 12}), weight, bias,
                           stepTensor(2), /*firstRow=*/2, sampling, shard)
                  .isOk());
  Values wholeCosts = valuesOf(whole);
  EXPECT_EQ(valuesOf(shard), Values(wholeCosts.begin() + 2, wholeCosts.end()));
  EXPECT_FALSE(kernels::nce(rows, idTensor({4}, {3, 39, 0, 12}), weight, bias,
                            stepTensor(2), /*firstRow=*/-1, sampling, shard)
                   .isOk());
}

TYPED_TEST(SamplingKernelsTest, NceStaysFiniteForLargeLogitsAndDrawsPerStep) {
  Tensor weight = this->random({1000, 4}, -1, 1);
  Tensor bias = this->random({1000});
  // Logits in the hundreds: exp(-z) overflows in Paddle's form.
  Tensor input = this->random({8, 4}, -200, 200);
  Tensor labels = idTensor({8}, {1, 5, 9, 13, 500, 999, 0, 7});
  kernels::NceSampling sampling{10, ClassSampler::Kind::Uniform, 3};
  Tensor cost = this->output(), next = this->output();
  ASSERT_TRUE(kernels::nce(input, labels, weight, bias, stepTensor(1),
                           /*firstRow=*/0, sampling, cost)
                  .isOk());
  for (double value : valuesOf(cost)) {
    EXPECT_TRUE(std::isfinite(value));
    EXPECT_GE(value, 0);
  }
  ASSERT_TRUE(kernels::nce(input, labels, weight, bias, stepTensor(2),
                           /*firstRow=*/0, sampling, next)
                  .isOk());
  EXPECT_NE(valuesOf(cost), valuesOf(next)) << "new negatives each step";
}

TYPED_TEST(SamplingKernelsTest, NceErrors) {
  Tensor input = this->random({2, 3});
  Tensor weight = this->random({5, 3});
  Tensor bias = this->random({5});
  Tensor cost = this->output();
  kernels::NceSampling sampling{2, ClassSampler::Kind::Uniform, 0};
  auto run = [&](const Tensor &labels, const Tensor &w,
                 const kernels::NceSampling &s) {
    return kernels::nce(input, labels, w, bias, stepTensor(0), /*firstRow=*/0,
                        s, cost)
        .message();
  };
  EXPECT_EQ(run(idTensor({2}, {1, 5}), weight, sampling),
            "nce: label 5 at position 1 is outside [0, 5)");
  EXPECT_EQ(run(idTensor({3}, {1, 2, 3}), weight, sampling),
            "nce: labels have shape [3], expected [2] or [2, T]");
  EXPECT_EQ(run(idTensor({2}, {1, 2}), this->random({5, 4}), sampling),
            "nce: weight has shape [5, 4], expected [V, 3]");
  EXPECT_EQ(
      run(idTensor({2}, {1, 2}), weight, {0, ClassSampler::Kind::Uniform, 0}),
      "nce: num_neg_samples must be at least 1, got 0");
  EXPECT_EQ(run(idTensor({2}, {1, 2}), weight,
                {int64_t(1) << 62, ClassSampler::Kind::Uniform, 0}),
            "nce: 2 rows of 1 true classes and 4611686018427387904 negatives "
            "are too many samples");
}

} // namespace
