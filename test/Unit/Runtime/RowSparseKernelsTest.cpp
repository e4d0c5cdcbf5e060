//===- RowSparseKernelsTest.cpp - Tests of the row-sparse kernels ---------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks the row-sparse kernels against their dense forms and a naive
// reference: the row-sparse table gradients hold exactly the nonzero rows
// of the dense ones, merge_rows is the dense sum, and every optimizer given
// a row-sparse gradient changes exactly its rows, as the dense kernel
// changes them, and leaves the other rows and their state alone.
//
//===----------------------------------------------------------------------===//

#include "KernelTesting.h"

#include <functional>
#include <map>
#include <set>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::testing;

namespace {

/// Returns pointers to each of `tensors`.
std::vector<Tensor *> pointers(std::vector<Tensor> &tensors) {
  std::vector<Tensor *> result;
  for (Tensor &tensor : tensors)
    result.push_back(&tensor);
  return result;
}

/// Runs each test for one float element type T.
template <typename T> class RowSparseKernelsTest : public TypedKernelTest<T> {
protected:
  /// The table every test differentiates: 9 rows of 3.
  const Shape table{9, 3};

  /// Returns an i64 tensor of `count` ids drawn from [0, rows), with
  /// repeats.
  Tensor randomIds(int64_t count, int64_t rows) {
    std::uniform_int_distribution<int64_t> uniform(0, rows - 1);
    std::vector<int64_t> ids(count);
    for (int64_t &id : ids)
      id = uniform(this->rng);
    return idTensor(Shape{count}, ids);
  }

  /// Expects the row-sparse value (`rowIds`, `values`) to hold exactly the
  /// rows of `dense` at `expectedIds`, bit for bit, and `dense` to be zero
  /// elsewhere.
  void expectRowsOf(const Tensor &dense, const std::set<int64_t> &expectedIds,
                    const Tensor &rowIds, const Tensor &values) {
    std::vector<int64_t> ids = idsOf(rowIds);
    ASSERT_EQ(ids,
              std::vector<int64_t>(expectedIds.begin(), expectedIds.end()));
    int64_t width = dense.shape().rowWidth();
    ASSERT_EQ(values.numel(), static_cast<int64_t>(ids.size()) * width);
    const T *rows = values.data<T>(), *whole = dense.data<T>();
    for (int64_t row = 0; row < dense.dim(0); ++row) {
      auto found = std::find(ids.begin(), ids.end(), row);
      for (int64_t column = 0; column < width; ++column) {
        T expected = whole[row * width + column];
        if (found == ids.end())
          EXPECT_EQ(expected, T(0)) << "row " << row;
        else
          EXPECT_EQ(rows[(found - ids.begin()) * width + column], expected)
              << "row " << row << ", column " << column;
      }
    }
  }
};

TYPED_TEST_SUITE(RowSparseKernelsTest, FloatTypes, ElementTypeNames);

TYPED_TEST(RowSparseKernelsTest, EmbeddingGradRowsAreTheDenseGradientsRows) {
  using T = TypeParam;
  // Ids with repeats and the padding id 4, in a [5, 2] batch.
  Tensor ids = idTensor(Shape{5, 2}, {7, 2, 4, 7, 0, 2, 7, 8, 4, 0});
  Tensor dout = this->random(Shape{5, 2, 3});
  Tensor dense = this->output(), rowIds(DType::I64, Shape{}),
         values = this->output();
  ASSERT_TRUE(kernels::embeddingGrad(ids, dout, this->table, 4, dense).isOk());
  ASSERT_TRUE(
      kernels::embeddingGradRows(ids, dout, this->table, 4, rowIds, values)
          .isOk());
  this->expectRowsOf(dense, {0, 2, 7, 8}, rowIds, values);

  // A naive reference: row 7 sums positions 0, 3 and 6 in order.
  const T *up = dout.template data<T>();
  for (int column = 0; column < 3; ++column) {
    T expected =
        T(0) + up[0 * 3 + column] + up[3 * 3 + column] + up[6 * 3 + column];
    EXPECT_EQ(values.data<T>()[2 * 3 + column], expected);
  }
}

TYPED_TEST(RowSparseKernelsTest, RandomBatchesGiveTheDenseGradientsRows) {
  for (int trial = 0; trial < 20; ++trial) {
    Tensor ids = this->randomIds(1 + trial * 3, this->table[0]);
    Tensor dout = this->random(Shape{ids.numel(), 3});
    Tensor dense = this->output(), rowIds(DType::I64, Shape{}),
           values = this->output();
    ASSERT_TRUE(
        kernels::embeddingGrad(ids, dout, this->table, std::nullopt, dense)
            .isOk());
    ASSERT_TRUE(kernels::embeddingGradRows(ids, dout, this->table, std::nullopt,
                                           rowIds, values)
                    .isOk());
    std::vector<int64_t> all = idsOf(ids);
    this->expectRowsOf(dense, std::set<int64_t>(all.begin(), all.end()), rowIds,
                       values);
  }
}

TYPED_TEST(RowSparseKernelsTest,
           EmbeddingPoolGradRowsAreTheDenseGradientsRows) {
  Tensor ids = idTensor(Shape{7}, {3, 3, 0, 5, 1, 3, 0});
  Tensor lengths = idTensor(Shape{3}, {2, 0, 5});
  Tensor dout = this->random(Shape{3, 3});
  for (kernels::PoolType type :
       {kernels::PoolType::Sum, kernels::PoolType::Mean,
        kernels::PoolType::Sqrt}) {
    Tensor dense = this->output(), rowIds(DType::I64, Shape{}),
           values = this->output();
    ASSERT_TRUE(kernels::embeddingPoolGrad(ids, lengths, dout, this->table,
                                           type, 0, dense)
                    .isOk());
    ASSERT_TRUE(kernels::embeddingPoolGradRows(ids, lengths, dout, this->table,
                                               type, 0, rowIds, values)
                    .isOk());
    this->expectRowsOf(dense, {1, 3, 5}, rowIds, values);
  }
}

TYPED_TEST(RowSparseKernelsTest, MergeRowsIsTheDenseSum) {
  std::vector<Tensor> ids, values;
  Tensor sum = this->output();
  std::set<int64_t> present;
  for (int input = 0; input < 3; ++input) {
    Tensor lookups = this->randomIds(4, this->table[0]);
    Tensor dout = this->random(Shape{4, 3});
    ids.emplace_back(DType::I64, Shape{});
    values.push_back(this->output());
    ASSERT_TRUE(kernels::embeddingGradRows(lookups, dout, this->table,
                                           std::nullopt, ids.back(),
                                           values.back())
                    .isOk());
    for (int64_t id : idsOf(ids.back()))
      present.insert(id);
    // The dense sum, in input order, as autodiff would add dense gradients.
    Tensor dense = this->output();
    ASSERT_TRUE(
        kernels::rowsToDense(ids.back(), values.back(), this->table, dense)
            .isOk());
    if (input == 0)
      sum.copyFrom(dense);
    else
      ASSERT_TRUE(kernels::add(sum, dense, sum).isOk());
  }
  Tensor mergedIds(DType::I64, Shape{}), merged = this->output();
  ASSERT_TRUE(kernels::mergeRows({&ids[0], &ids[1], &ids[2]},
                                 {&values[0], &values[1], &values[2]},
                                 this->table, mergedIds, merged)
                  .isOk());
  this->expectRowsOf(sum, present, mergedIds, merged);
}

TYPED_TEST(RowSparseKernelsTest, RowsToDenseWritesTheRowsIntoZeros) {
  Tensor ids = idTensor(Shape{2}, {1, 6});
  Tensor values = this->random(Shape{2, 3});
  Tensor dense = this->output();
  ASSERT_TRUE(kernels::rowsToDense(ids, values, this->table, dense).isOk());
  Values expected(27, 0.0);
  Values rows = valuesOf(values);
  std::copy(rows.begin(), rows.begin() + 3, expected.begin() + 3);
  std::copy(rows.begin() + 3, rows.end(), expected.begin() + 18);
  this->expectNear(dense, this->table, expected);
}

TYPED_TEST(RowSparseKernelsTest, ChangedRowsAreTheRowsThatDiffer) {
  // A copy of a random table with some rows changed, in one element or in
  // all: the changed rows, and no other, come out as their difference.
  for (int trial = 0; trial < 20; ++trial) {
    Tensor old = this->random(this->table);
    Tensor local = this->output();
    ASSERT_TRUE(kernels::copy(old, local).isOk());
    Values before = valuesOf(old);
    std::set<int64_t> changed;
    std::uniform_int_distribution<int64_t> row(0, 8), column(0, 2);
    for (int change = 0; change < trial % 5; ++change) {
      int64_t at = row(this->rng);
      changed.insert(at);
      local.data<TypeParam>()[at * 3 + column(this->rng)] += TypeParam(0.5);
    }
    Tensor ids(DType::I64, Shape{}), values = this->output();
    ASSERT_TRUE(kernels::changedRows(local, old, ids, values).isOk());
    EXPECT_EQ(idsOf(ids), std::vector<int64_t>(changed.begin(), changed.end()));
    Values after = valuesOf(local), expected;
    for (int64_t at : changed)
      for (int64_t c = 0; c < 3; ++c)
        expected.push_back(after[at * 3 + c] - before[at * 3 + c]);
    this->expectNear(values, Shape{int64_t(changed.size()), 3}, expected);
  }
  Tensor other = this->random(Shape{9, 2});
  Tensor ids(DType::I64, Shape{}), values = this->output();
  EXPECT_EQ(kernels::changedRows(this->random(this->table), other, ids, values)
                .message(),
            "changed_rows: the right side has shape [9, 2], expected [9, 3]");
}

TYPED_TEST(RowSparseKernelsTest, ScatterRowsWritesOrAddsExactlyTheirRows) {
  Tensor ids = idTensor(Shape{2}, {0, 7});
  Tensor rows = this->random(Shape{2, 3});
  for (bool accumulate : {false, true}) {
    Tensor param = this->random(this->table);
    Values expected = valuesOf(param), given = valuesOf(rows);
    for (int64_t c = 0; c < 3; ++c) {
      expected[c] = (accumulate ? expected[c] : 0) + given[c];
      expected[21 + c] = (accumulate ? expected[21 + c] : 0) + given[3 + c];
    }
    ASSERT_TRUE(kernels::scatterRows(ids, rows, accumulate, param).isOk());
    this->expectNear(param, this->table, expected);
  }
  Tensor param = this->random(this->table);
  EXPECT_EQ(kernels::scatterRows(idTensor(Shape{2}, {3, 9}), rows, true, param)
                .message(),
            "scatter_rows: the value holds row 9, outside the table's 9 rows");
}

TYPED_TEST(RowSparseKernelsTest, SplittingRowsSplitsTheirDenseForm) {
  // Sections of 4, 1 and 4 rows: the dense form's split, section by
  // section, holds exactly the rows each section gets, at local ids.
  const std::vector<int64_t> sections = {4, 1, 4};
  for (int trial = 0; trial < 20; ++trial) {
    Tensor lookups = this->randomIds(trial % 7, this->table[0]);
    Tensor dout = this->random(Shape{trial % 7, 3});
    Tensor ids(DType::I64, Shape{}), values = this->output();
    ASSERT_TRUE(kernels::embeddingGradRows(lookups, dout, this->table,
                                           std::nullopt, ids, values)
                    .isOk());
    Tensor dense = this->output();
    ASSERT_TRUE(kernels::rowsToDense(ids, values, this->table, dense).isOk());
    std::vector<Tensor> denseParts, partIds, partValues;
    for (size_t section = 0; section < sections.size(); ++section) {
      denseParts.push_back(this->output());
      partIds.emplace_back(DType::I64, Shape{});
      partValues.push_back(this->output());
    }
    ASSERT_TRUE(
        kernels::splitRows(dense, sections, pointers(denseParts)).isOk());
    ASSERT_TRUE(kernels::splitRowSections(ids, values, sections,
                                          pointers(partIds),
                                          pointers(partValues))
                    .isOk());
    // Stacking the sections again gives back the value bit for bit.
    std::vector<const Tensor *> sectionIds, sectionValues;
    for (size_t section = 0; section < sections.size(); ++section) {
      sectionIds.push_back(&partIds[section]);
      sectionValues.push_back(&partValues[section]);
    }
    Tensor stackedIds(DType::I64, Shape{}), stackedValues = this->output();
    ASSERT_TRUE(kernels::concatRowSections(sectionIds, sectionValues, sections,
                                           stackedIds, stackedValues)
                    .isOk());
    EXPECT_EQ(idsOf(stackedIds), idsOf(ids));
    EXPECT_EQ(valuesOf(stackedValues), valuesOf(values));
    int64_t begin = 0;
    for (size_t section = 0; section < sections.size(); ++section) {
      std::set<int64_t> local;
      for (int64_t id : idsOf(ids))
        if (id >= begin && id < begin + sections[section])
          local.insert(id - begin);
      this->expectRowsOf(denseParts[section], local, partIds[section],
                         partValues[section]);
      begin += sections[section];
    }
  }
  Tensor bad = idTensor(Shape{1}, {9});
  Tensor row = this->random(Shape{1, 3});
  Tensor outIds(DType::I64, Shape{}), outValues = this->output();
  EXPECT_EQ(kernels::splitRowSections(bad, row, {9}, {&outIds}, {&outValues})
                .message(),
            "ps.split: the value holds row 9, outside the table's 9 rows");
}

TEST(RouteIdsTest, EachSectionGetsItsDistinctIdsAscendingAndLocal) {
  // Sections of 4, 1, 0 and 4 rows; ids drawn with repeats from three
  // tensors of any shape, checked against a naive reference.
  const std::vector<int64_t> sections = {4, 1, 0, 4};
  std::mt19937_64 rng(7);
  std::uniform_int_distribution<int64_t> uniform(0, 8);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<Tensor> inputs;
    std::set<int64_t> all;
    for (int input = 0; input < 3; ++input) {
      std::vector<int64_t> ids((trial + input) % 6);
      for (int64_t &id : ids)
        all.insert(id = uniform(rng));
      inputs.push_back(
          idTensor(Shape{static_cast<int64_t>(ids.size()), 1}, ids));
    }
    std::vector<const Tensor *> inputPointers;
    for (const Tensor &input : inputs)
      inputPointers.push_back(&input);
    std::vector<Tensor> outs;
    for (size_t section = 0; section < sections.size(); ++section)
      outs.emplace_back(DType::I64, Shape{});
    ASSERT_TRUE(
        kernels::routeIds(inputPointers, "t", sections, pointers(outs)).isOk());
    int64_t begin = 0;
    for (size_t section = 0; section < sections.size(); ++section) {
      std::vector<int64_t> expected;
      for (int64_t id : all)
        if (id >= begin && id < begin + sections[section])
          expected.push_back(id - begin);
      EXPECT_EQ(idsOf(outs[section]), expected)
          << "section " << section << ", trial " << trial;
      begin += sections[section];
    }
  }
}

TEST(RouteIdsTest, LargeBatchesAgreeWithANaiveSet) {
  // Batches large enough for the radix sort, of ids spanning one to five
  // bytes, with many repeats and none.
  std::mt19937_64 rng(11);
  for (int64_t tableRows : {int64_t(200), int64_t(70000), int64_t(1) << 36}) {
    const std::vector<int64_t> sections = {tableRows / 3,
                                           tableRows - tableRows / 3};
    for (int64_t count : {255, 256, 5000}) {
      std::uniform_int_distribution<int64_t> uniform(0, tableRows - 1);
      std::vector<int64_t> drawn(count);
      std::set<int64_t> all;
      for (int64_t &id : drawn)
        all.insert(id = uniform(rng));
      Tensor ids = idTensor(Shape{count}, drawn);
      Tensor low(DType::I64, Shape{}), high(DType::I64, Shape{});
      ASSERT_TRUE(
          kernels::routeIds({&ids}, "t", sections, {&low, &high}).isOk());
      std::vector<int64_t> expectedLow, expectedHigh;
      for (int64_t id : all)
        if (id < sections[0])
          expectedLow.push_back(id);
        else
          expectedHigh.push_back(id - sections[0]);
      EXPECT_EQ(idsOf(low), expectedLow) << tableRows << " rows, " << count;
      EXPECT_EQ(idsOf(high), expectedHigh) << tableRows << " rows, " << count;
    }
  }
}

TEST(RouteIdsTest, IdsPastTwoToTheThirtyOneAreRoutedAndOutsideIdsRefused) {
  // A table of 2^32 + 8 rows in two sections: int64 ids throughout.
  const int64_t half = int64_t(1) << 31;
  const std::vector<int64_t> sections = {half, half + 8};
  Tensor ids = idTensor(Shape{4}, {half + 5, 3, half + 5, 2 * half + 7});
  Tensor low(DType::I64, Shape{}), high(DType::I64, Shape{});
  ASSERT_TRUE(kernels::routeIds({&ids}, "big", sections, {&low, &high}).isOk());
  EXPECT_EQ(idsOf(low), std::vector<int64_t>({3}));
  EXPECT_EQ(idsOf(high), std::vector<int64_t>({5, half + 7}));
  for (int64_t outside : {int64_t(-1), 2 * half + 8, INT64_MIN}) {
    Tensor bad = idTensor(Shape{2}, {0, outside});
    EXPECT_EQ(
        kernels::routeIds({&bad}, "big", sections, {&low, &high}).message(),
        fmt::format("ps.route_ids: id {} is outside the {} rows of "
                    "table @big",
                    outside, 2 * half + 8));
  }
}

TEST(FindRowsTest, EachIdFindsItsFetchedRow) {
  Tensor fetched = idTensor(Shape{4}, {1, 4, 5, 8});
  Tensor ids = idTensor(Shape{2, 3}, {8, 1, 1, 0, 5, 4});
  Tensor positions(DType::I64, Shape{});
  ASSERT_TRUE(
      kernels::findRows(fetched, ids, 9, /*paddingIdx=*/0, positions).isOk());
  EXPECT_EQ(positions.shape(), Shape({2, 3}));
  EXPECT_EQ(idsOf(positions), std::vector<int64_t>({3, 0, 0, -1, 2, 1}));
  EXPECT_EQ(
      kernels::findRows(fetched, ids, 9, std::nullopt, positions).message(),
      "embedding: id 0 at position 3 is not among the 4 rows fetched of the "
      "table");
  Tensor outside = idTensor(Shape{2}, {1, -3});
  EXPECT_EQ(
      kernels::findRows(fetched, outside, 9, std::nullopt, positions).message(),
      "embedding: id -3 at position 1 is outside the table's 9 rows");
}

TYPED_TEST(RowSparseKernelsTest, MalformedRowsAreErrors) {
  Tensor values = this->random(Shape{2, 3});
  Tensor dense = this->output();
  EXPECT_EQ(kernels::rowsToDense(idTensor(Shape{2}, {6, 1}), values,
                                 this->table, dense)
                .message(),
            "rows_to_dense: the row ids of the value are not distinct and "
            "ascending: 1 follows 6");
  EXPECT_EQ(kernels::rowsToDense(idTensor(Shape{2}, {1, 1}), values,
                                 this->table, dense)
                .message(),
            "rows_to_dense: the row ids of the value are not distinct and "
            "ascending: 1 follows 1");
  EXPECT_EQ(kernels::rowsToDense(idTensor(Shape{2}, {1, 9}), values,
                                 this->table, dense)
                .message(),
            "rows_to_dense: the value holds row 9, outside the table's 9 rows");
  EXPECT_EQ(
      kernels::rowsToDense(idTensor(Shape{2}, {-1, 2}), values, this->table,
                           dense)
          .message(),
      "rows_to_dense: the value holds row -1, outside the table's 9 rows");
  EXPECT_EQ(kernels::rowsToDense(idTensor(Shape{3}, {0, 1, 2}), values,
                                 this->table, dense)
                .message(),
            "rows_to_dense: the value has shape [2, 3], expected [3, 3]");
  Tensor lookups = idTensor(Shape{2}, {1, 12});
  Tensor rowIds(DType::I64, Shape{});
  EXPECT_EQ(kernels::embeddingGradRows(lookups, values, this->table,
                                       std::nullopt, rowIds, dense)
                .message(),
            "embedding_grad: id 12 at position 1 is outside the table's 9 "
            "rows");
}

/// An optimizer under test: updates `param` and its element-wise `state`
/// (and any rank-0 state it keeps itself) from `grad`.
using Update = std::function<Status(Tensor &param, std::vector<Tensor> &state,
                                    const kernels::GradientRef &grad)>;

/// Names an optimizer, the number of its element-wise state tensors, and
/// its update with rank-0 state of its own.
struct Optimizer {
  std::string name;
  int numState;
  std::function<Update()> make;
};

/// Returns a rank-0 tensor of T holding `value`.
template <typename T> Tensor scalarOf(double value) {
  Tensor tensor(dtypeOf<T>(), Shape{});
  *tensor.data<T>() = static_cast<T>(value);
  return tensor;
}

/// Every optimizer kernel, with rank-0 state owned by the update.
template <typename T> std::vector<Optimizer> allOptimizers() {
  auto lr = std::make_shared<Tensor>(scalarOf<T>(0.05));
  auto withPowers = [](int count) {
    auto powers = std::make_shared<std::vector<Tensor>>();
    for (int i = 0; i < count; ++i)
      powers->push_back(scalarOf<T>(i == 0 ? 0.9 : 0.999));
    return powers;
  };
  return {
      {"sgd", 0,
       [=] {
         return [=](Tensor &p, std::vector<Tensor> &, const auto &g) {
           return kernels::sgd(p, g, *lr);
         };
       }},
      {"momentum", 1,
       [=] {
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::momentum(p, s[0], g, *lr, 0.9, true);
         };
       }},
      {"adam", 2,
       [=] {
         auto powers = withPowers(2);
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::adam(p, s[0], s[1], (*powers)[0], (*powers)[1], g,
                                *lr, 0.9, 0.999, 1e-8);
         };
       }},
      {"adagrad", 1,
       [=] {
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::adagrad(p, s[0], g, *lr, 1e-6);
         };
       }},
      {"rmsprop", 3,
       [=] {
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::centeredRmsprop(p, s[0], s[1], s[2], g, *lr, 0.9,
                                           1e-6, 0.5);
         };
       }},
      {"decayed_adagrad", 1,
       [=] {
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::decayedAdagrad(p, s[0], g, *lr, 0.9, 1e-6);
         };
       }},
      {"ftrl", 2,
       [=] {
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::ftrl(p, s[0], s[1], g, *lr, 0.01, 0.001, -0.5);
         };
       }},
      {"adamax", 2,
       [=] {
         auto powers = withPowers(1);
         return [=](Tensor &p, std::vector<Tensor> &s, const auto &g) {
           return kernels::adamax(p, s[0], s[1], (*powers)[0], g, *lr, 0.9,
                                  0.999, 1e-8);
         };
       }},
  };
}

TYPED_TEST(RowSparseKernelsTest, OptimizersUpdateExactlyTheRowsTheyAreGiven) {
  for (const Optimizer &optimizer : allOptimizers<TypeParam>()) {
    SCOPED_TRACE(optimizer.name);
    // The same parameter and state, updated from a row-sparse gradient and,
    // separately, from the dense gradient of the same rows.
    Tensor sparse = this->random(this->table), dense = this->output();
    dense.copyFrom(sparse);
    std::vector<Tensor> sparseState, denseState;
    for (int i = 0; i < optimizer.numState; ++i) {
      sparseState.push_back(this->random(this->table, 0.1, 1));
      denseState.push_back(this->output());
      denseState.back().copyFrom(sparseState.back());
    }
    Update sparseUpdate = optimizer.make(), denseUpdate = optimizer.make();
    Values untouchedBefore = valuesOf(sparse);
    for (int step = 0; step < 3; ++step) {
      Tensor ids = idTensor(Shape{3}, {0, 4, 8});
      Tensor rows = this->random(Shape{3, 3});
      Tensor whole = this->output();
      ASSERT_TRUE(kernels::rowsToDense(ids, rows, this->table, whole).isOk());
      ASSERT_TRUE(
          sparseUpdate(sparse, sparseState, kernels::GradientRef(ids, rows))
              .isOk());
      ASSERT_TRUE(denseUpdate(dense, denseState, whole).isOk());
    }
    Values after = valuesOf(sparse), denseAfter = valuesOf(dense);
    for (int64_t row = 0; row < this->table[0]; ++row)
      for (int64_t column = 0; column < 3; ++column) {
        int64_t i = row * 3 + column;
        if (row % 4 == 0)
          EXPECT_EQ(after[i], denseAfter[i]) << "row " << row;
        else
          EXPECT_EQ(after[i], untouchedBefore[i]) << "row " << row;
      }
  }
}

TYPED_TEST(RowSparseKernelsTest, AnOptimizerRefusesMalformedRows) {
  Tensor param = this->random(this->table);
  Values before = valuesOf(param);
  Tensor rows = this->random(Shape{2, 3});
  Tensor lr = scalarOf<TypeParam>(0.1);
  EXPECT_EQ(kernels::sgd(param,
                         kernels::GradientRef(idTensor(Shape{2}, {5, 3}), rows),
                         lr)
                .message(),
            "sgd: the row ids of grad are not distinct and ascending: 3 "
            "follows 5");
  Tensor moment = this->random(this->table);
  EXPECT_EQ(
      kernels::adagrad(param, moment,
                       kernels::GradientRef(idTensor(Shape{2}, {3, 20}), rows),
                       lr, 1e-6)
          .message(),
      "adagrad: grad holds row 20, outside the table's 9 rows");
  this->expectNear(param, this->table, before);
}

} // namespace
