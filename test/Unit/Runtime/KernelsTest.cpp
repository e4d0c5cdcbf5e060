//===- KernelsTest.cpp - Tests of the forward CPU kernels -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks every forward kernel, in f32 and f64, against a naive reference
// written here with plain loops over doubles, on random inputs from a fixed
// seed; and checks that bad data comes back as an error Status.
//
//===----------------------------------------------------------------------===//

#include "Runtime/KernelTesting.h"

#include <fmt/format.h>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

/// Returns the row-major multi-index of element `index` of `shape`.
std::vector<int64_t> unflatten(int64_t index, const Shape &shape) {
  std::vector<int64_t> position(shape.rank());
  for (int dim = shape.rank() - 1; dim >= 0; --dim) {
    position[dim] = index % shape[dim];
    index /= shape[dim];
  }
  return position;
}

/// Returns the row-major index of `position` in `shape`.
int64_t flatten(const std::vector<int64_t> &position, const Shape &shape) {
  int64_t index = 0;
  for (int dim = 0; dim < shape.rank(); ++dim)
    index = index * shape[dim] + position[dim];
  return index;
}

//===----------------------------------------------------------------------===//
// Naive references
//===----------------------------------------------------------------------===//

Values referenceMatmul(const Values &a, const Values &b, int64_t m, int64_t k,
                       int64_t n) {
  Values out(m * n, 0.0);
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j)
      for (int64_t p = 0; p < k; ++p)
        out[i * n + j] += a[i * k + p] * b[p * n + j];
  return out;
}

/// Softmax of each row of `width` elements.
Values referenceSoftmax(const Values &x, int64_t width) {
  Values out(x.size());
  for (size_t begin = 0; begin < x.size(); begin += width) {
    double max = x[begin];
    for (int64_t j = 1; j < width; ++j)
      max = std::max(max, x[begin + j]);
    double sum = 0;
    for (int64_t j = 0; j < width; ++j)
      sum += std::exp(x[begin + j] - max);
    for (int64_t j = 0; j < width; ++j)
      out[begin + j] = std::exp(x[begin + j] - max) / sum;
  }
  return out;
}

/// Sums `x` of `shape` over `dims` (all when empty), setting `outShape`.
Values referenceReduceSum(const Values &x, const Shape &shape,
                          const std::vector<int64_t> &dims, bool keepDims,
                          Shape &outShape) {
  std::vector<bool> reduced(shape.rank(), dims.empty());
  for (int64_t dim : dims)
    reduced[dim] = true;
  Shape kept;
  for (int dim = 0; dim < shape.rank(); ++dim) {
    kept.push_back(reduced[dim] ? 1 : shape[dim]);
    if (!reduced[dim] || keepDims)
      outShape.push_back(kept[dim]);
  }
  Values out(kept.numel(), 0.0);
  for (size_t i = 0; i < x.size(); ++i) {
    std::vector<int64_t> position = unflatten(i, shape);
    for (int dim = 0; dim < shape.rank(); ++dim)
      if (reduced[dim])
        position[dim] = 0;
    out[flatten(position, kept)] += x[i];
  }
  return out;
}

/// Concatenates `inputs` of `shapes` along `axis` into `outShape`.
Values referenceConcat(const std::vector<Values> &inputs,
                       const std::vector<Shape> &shapes, int axis,
                       const Shape &outShape) {
  Values out(outShape.numel());
  for (int64_t i = 0; i < outShape.numel(); ++i) {
    std::vector<int64_t> position = unflatten(i, outShape);
    size_t input = 0;
    while (position[axis] >= shapes[input][axis])
      position[axis] -= shapes[input++][axis];
    out[i] = inputs[input][flatten(position, shapes[input])];
  }
  return out;
}

//===----------------------------------------------------------------------===//
// Fixture
//===----------------------------------------------------------------------===//

template <typename T> class KernelsTest : public TypedKernelTest<T> {};
TYPED_TEST_SUITE(KernelsTest, FloatTypes, ElementTypeNames);

/// The signature of kernels that combine two tensors.
using BinaryKernel = Status (*)(const Tensor &, const Tensor &, Tensor &);
/// The signature of kernels that map one tensor to another.
using UnaryKernel = Status (*)(const Tensor &, Tensor &);

//===----------------------------------------------------------------------===//
// Linear kernels
//===----------------------------------------------------------------------===//

TYPED_TEST(KernelsTest, MatmulMatchesReferenceForEachBatchSize) {
  Tensor w = this->random({6, 5});
  Tensor out = this->output();
  out.reserve(32 * 5);
  const void *buffer = out.rawData();
  for (int64_t batch : {32, 1, 7, 0, 32}) {
    Tensor x = this->random({batch, 6});
    ASSERT_TRUE(kernels::matmul(x, w, out).isOk());
    this->expectNear(out, {batch, 5},
                     referenceMatmul(valuesOf(x), valuesOf(w), batch, 6, 5));
    // Smaller batches reuse the buffer: no allocation in steady state.
    EXPECT_EQ(out.rawData(), buffer);
  }
}

TYPED_TEST(KernelsTest, BroadcastingOpsMatchReferenceWithAndWithoutBias) {
  struct Case {
    BinaryKernel kernel;
    std::function<double(double, double)> combine;
  };
  for (const Case &op : {Case{kernels::add, std::plus<double>()},
                         Case{kernels::sub, std::minus<double>()},
                         Case{kernels::mul, std::multiplies<double>()},
                         Case{kernels::div, std::divides<double>()}}) {
    for (const Shape &xShape : {Shape{5, 6}, Shape{2, 3, 6}, Shape{6}}) {
      for (bool bias : {false, true}) {
        Tensor x = this->random(xShape);
        Tensor y = this->random(bias ? Shape{6} : xShape);
        Tensor out = this->output();
        ASSERT_TRUE(op.kernel(x, y, out).isOk());
        Values xs = valuesOf(x), ys = valuesOf(y), expected(xs.size());
        for (size_t i = 0; i < xs.size(); ++i)
          expected[i] = op.combine(xs[i], ys[bias ? i % 6 : i]);
        this->expectNear(out, xShape, expected);
      }
    }
  }
}

TYPED_TEST(KernelsTest, FillAndScaleMatchReference) {
  Tensor out(dtypeOf<TypeParam>(), {3, 4});
  ASSERT_TRUE(kernels::fill(1.5, out).isOk());
  this->expectNear(out, {3, 4}, Values(12, 1.5));

  Tensor x = this->random({3, 4});
  ASSERT_TRUE(kernels::scale(x, -0.25, out).isOk());
  Values expected = valuesOf(x);
  for (double &value : expected)
    value *= -0.25;
  this->expectNear(out, {3, 4}, expected);

  Tensor counter(DType::I64, Shape{});
  ASSERT_TRUE(kernels::fill(7, counter).isOk());
  EXPECT_EQ(*counter.data<int64_t>(), 7);
}

//===----------------------------------------------------------------------===//
// Activations and losses
//===----------------------------------------------------------------------===//

TYPED_TEST(KernelsTest, ActivationsMatchReference) {
  struct Case {
    UnaryKernel kernel;
    std::function<double(double)> reference;
  };
  for (const Case &op :
       {Case{kernels::relu, [](double x) { return std::max(x, 0.0); }},
        Case{kernels::sigmoid, [](double x) { return 1 / (1 + std::exp(-x)); }},
        Case{kernels::tanh, [](double x) { return std::tanh(x); }}}) {
    Tensor x = this->random({4, 7, 3}, -8, 8);
    Tensor out = this->output();
    ASSERT_TRUE(op.kernel(x, out).isOk());
    Values expected = valuesOf(x);
    for (double &value : expected)
      value = op.reference(value);
    this->expectNear(out, x.shape(), expected);
  }
}

TYPED_TEST(KernelsTest, SoftmaxMatchesReferenceForLargeLogits) {
  for (const Shape &shape : {Shape{6, 10}, Shape{2, 3, 4}}) {
    // Logits near 1000 overflow exp unless the row maximum is subtracted.
    Tensor x = this->random(shape, 995, 1005);
    Tensor out = this->output();
    ASSERT_TRUE(kernels::softmax(x, out).isOk());
    this->expectNear(out, shape,
                     referenceSoftmax(valuesOf(x), shape[shape.rank() - 1]));
  }
}

TYPED_TEST(KernelsTest, SoftmaxCrossEntropyMatchesReference) {
  for (int64_t batch : {8, 3}) {
    Tensor logits = this->random({batch, 10}, -50, 50);
    std::vector<int64_t> ids(batch);
    for (int64_t &id : ids)
      id = this->rng() % 10;
    Tensor labels = idTensor({batch}, ids);
    Tensor out = this->output();
    ASSERT_TRUE(kernels::softmaxCrossEntropy(logits, labels, out).isOk());
    Values probs = referenceSoftmax(valuesOf(logits), 10);
    Values expected(batch);
    for (int64_t row = 0; row < batch; ++row)
      expected[row] = -std::log(probs[row * 10 + ids[row]]);
    this->expectNear(out, {batch}, expected);
  }
}

TYPED_TEST(KernelsTest, SigmoidCrossEntropyMatchesReference) {
  Tensor logits = this->random({16, 3}, -30, 30);
  Tensor labels = this->random({16, 3}, 0, 1);
  for (int64_t i = 0; i < labels.numel(); ++i)
    labels.data<TypeParam>()[i] = std::round(labels.data<TypeParam>()[i]);
  Tensor out = this->output();
  ASSERT_TRUE(kernels::sigmoidCrossEntropy(logits, labels, out).isOk());
  // -z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x)).
  Values xs = valuesOf(logits), zs = valuesOf(labels), expected(xs.size());
  for (size_t i = 0; i < xs.size(); ++i)
    expected[i] = zs[i] * std::log1p(std::exp(-xs[i])) +
                  (1 - zs[i]) * std::log1p(std::exp(xs[i]));
  this->expectNear(out, {16, 3}, expected);
}

TYPED_TEST(KernelsTest, MeanMatchesReference) {
  Tensor x = this->random({7, 3});
  Tensor out = this->output();
  ASSERT_TRUE(kernels::mean(x, out).isOk());
  Values xs = valuesOf(x);
  double sum = 0;
  for (double value : xs)
    sum += value;
  this->expectNear(out, {}, {sum / xs.size()});
}

//===----------------------------------------------------------------------===//
// Shape kernels
//===----------------------------------------------------------------------===//

TYPED_TEST(KernelsTest, ReduceSumMatchesReferenceOverEachDimensionSet) {
  const std::vector<std::vector<int64_t>> dimSets = {
      {}, {0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}, {2, 0}, {0, 1, 2}};
  for (const Shape &shape : {Shape{3, 4, 5}, Shape{4, 1, 3}}) {
    Tensor x = this->random(shape);
    for (const std::vector<int64_t> &dims : dimSets) {
      for (bool keepDims : {false, true}) {
        SCOPED_TRACE(fmt::format("{} dims [{}] keep_dims {}", shape.str(),
                                 fmt::join(dims, ", "), keepDims));
        Shape expectedShape;
        Values expected = referenceReduceSum(valuesOf(x), shape, dims, keepDims,
                                             expectedShape);
        Tensor out = this->output();
        ASSERT_TRUE(kernels::reduceSum(x, dims, keepDims, out).isOk());
        this->expectNear(out, expectedShape, expected);
      }
    }
  }
  Tensor x = this->random({3, 4});
  Tensor out = this->output();
  EXPECT_EQ(kernels::reduceSum(x, {2}, false, out).message(),
            "reduce_sum: dimension 2 is out of range for shape [3, 4]");
  EXPECT_EQ(kernels::reduceSum(x, {1, 1}, false, out).message(),
            "reduce_sum: dimension 1 is listed twice");
}

TYPED_TEST(KernelsTest, ReshapeResolvesMinusOne) {
  Tensor x = this->random({4, 2, 6});
  for (const auto &[shape, resolved] :
       {std::pair<Shape, Shape>{{-1, 12}, {4, 12}},
        {{8, -1}, {8, 6}},
        {{2, -1, 3}, {2, 8, 3}},
        {{48}, {48}}}) {
    Tensor out = this->output();
    ASSERT_TRUE(kernels::reshape(x, shape, out).isOk());
    this->expectNear(out, resolved, valuesOf(x));
  }
  Tensor out = this->output();
  EXPECT_FALSE(kernels::reshape(x, {-1, -1}, out).isOk());
  EXPECT_FALSE(kernels::reshape(x, {5, -1}, out).isOk());
  EXPECT_EQ(kernels::reshape(x, {7, 7}, out).message(),
            "reshape: cannot view 48 elements of shape [4, 2, 6] as [7, 7]");
}

TYPED_TEST(KernelsTest, ConcatMatchesReferenceOnEachAxis) {
  const std::vector<std::pair<int, std::vector<Shape>>> cases = {
      {0, {{2, 3}, {1, 3}, {4, 3}}},
      {1, {{2, 1}, {2, 3}, {2, 2}}},
      {1, {{2, 2, 3}, {2, 1, 3}}},
      {2, {{2, 2, 3}, {2, 2, 1}}}};
  for (const auto &[axis, shapes] : cases) {
    std::vector<Tensor> inputs;
    std::vector<Values> values;
    std::vector<const Tensor *> pointers;
    Shape outShape = shapes.front();
    outShape[axis] = 0;
    for (const Shape &shape : shapes) {
      inputs.push_back(this->random(shape));
      values.push_back(valuesOf(inputs.back()));
      outShape[axis] += shape[axis];
    }
    for (const Tensor &input : inputs)
      pointers.push_back(&input);
    Tensor out = this->output();
    ASSERT_TRUE(kernels::concat(pointers, axis, out).isOk());
    this->expectNear(out, outShape,
                     referenceConcat(values, shapes, axis, outShape));
  }
}

TYPED_TEST(KernelsTest, SplitRowsInvertsConcat) {
  Tensor x = this->random({9, 2, 3});
  std::vector<int64_t> rows = {2, 0, 7};
  std::vector<Tensor> parts;
  for (size_t i = 0; i < rows.size(); ++i)
    parts.push_back(this->output());
  std::vector<Tensor *> outs = {&parts[0], &parts[1], &parts[2]};
  ASSERT_TRUE(kernels::splitRows(x, rows, outs).isOk());
  Values xs = valuesOf(x);
  int64_t begin = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    this->expectNear(
        parts[i], {rows[i], 2, 3},
        Values(xs.begin() + begin * 6, xs.begin() + (begin + rows[i]) * 6));
    begin += rows[i];
  }
  Tensor out = this->output();
  ASSERT_TRUE(
      kernels::concat({&parts[0], &parts[1], &parts[2]}, 0, out).isOk());
  this->expectNear(out, x.shape(), xs);
  EXPECT_FALSE(kernels::splitRows(x, {2, 6}, {&parts[0], &parts[1]}).isOk());
}

TYPED_TEST(KernelsTest, EmbeddingMatchesReferenceWithPadding) {
  Tensor table = this->random({10, 4});
  std::vector<int64_t> ids = {3, 2, 9, 0, 2, 3, 7, 2, 1, 5, 5, 6};
  Tensor idsTensor = idTensor({3, 4}, ids);
  for (std::optional<int64_t> padding :
       {std::optional<int64_t>(), std::optional<int64_t>(2)}) {
    Tensor out = this->output();
    ASSERT_TRUE(kernels::embedding(table, idsTensor, padding, out).isOk());
    Values rows = valuesOf(table), expected;
    for (int64_t id : ids)
      for (int64_t j = 0; j < 4; ++j)
        expected.push_back(padding == id ? 0.0 : rows[id * 4 + j]);
    this->expectNear(out, {3, 4, 4}, expected);
  }
}

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

TYPED_TEST(KernelsTest, LabelOutsideTheClassesIsAnError) {
  Tensor logits = this->random({5, 10});
  Tensor labels = idTensor({5}, {0, 9, 4, 12, 1});
  Tensor out = this->output();
  EXPECT_EQ(kernels::softmaxCrossEntropy(logits, labels, out).message(),
            "softmax_cross_entropy: label 12 at row 3 is outside [0, 10)");
  Tensor dloss = this->random({5});
  EXPECT_EQ(
      kernels::softmaxCrossEntropyGrad(logits, labels, dloss, out).message(),
      "softmax_cross_entropy_grad: label 12 at row 3 is outside [0, 10)");
  labels.data<int64_t>()[3] = -1;
  EXPECT_EQ(kernels::softmaxCrossEntropy(logits, labels, out).message(),
            "softmax_cross_entropy: label -1 at row 3 is outside [0, 10)");
}

TYPED_TEST(KernelsTest, IdOutsideTheTableIsAnError) {
  Tensor table = this->random({1000, 2});
  Tensor ids = idTensor({2, 3}, {0, 999, 4, 3, 7, 1000});
  Tensor out = this->output();
  EXPECT_EQ(kernels::embedding(table, ids, std::nullopt, out).message(),
            "embedding: id 1000 at position 5 is outside the table's 1000 "
            "rows");
  Tensor dout = this->random({2, 3, 2});
  EXPECT_EQ(kernels::embeddingGrad(ids, dout, table.shape(), std::nullopt, out)
                .message(),
            "embedding_grad: id 1000 at position 5 is outside the table's 1000 "
            "rows");
  // The padding id is not looked up, even when it is outside the table.
  EXPECT_TRUE(kernels::embedding(table, ids, 1000, out).isOk());
  ids.data<int64_t>()[1] = -3;
  EXPECT_EQ(kernels::embedding(table, ids, 1000, out).message(),
            "embedding: id -3 at position 1 is outside the table's 1000 rows");
}

TYPED_TEST(KernelsTest, BadShapesAndTypesAreErrors) {
  Tensor out = this->output();
  EXPECT_EQ(kernels::matmul(this->random({2, 3}), this->random({4, 5}), out)
                .message(),
            "matmul: cannot multiply [2, 3] by [4, 5]");
  EXPECT_EQ(
      kernels::add(this->random({2, 3}), this->random({2}), out).message(),
      "add: y has shape [2], expected [2, 3] or a bias over its last "
      "dimension");
  Tensor ids = idTensor({2, 3}, {0, 1, 2, 3, 4, 5});
  Tensor idsOut(DType::I64, Shape{});
  EXPECT_EQ(kernels::relu(ids, idsOut).message(),
            "relu: expected an f32 or f64 tensor, got i64");
  EXPECT_EQ(kernels::relu(ids, out).message(),
            fmt::format("relu: the result has element type {}, expected i64",
                        dtypeName(dtypeOf<TypeParam>())));
  Tensor counter(DType::I64, Shape{});
  EXPECT_EQ(kernels::fill(0.5, counter).message(),
            "fill: 0.5 is not an i64 value");
  EXPECT_FALSE(kernels::mean(this->random({0, 3}), out).isOk());
}

} // namespace
