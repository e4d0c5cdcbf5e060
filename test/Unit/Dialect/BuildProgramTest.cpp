//===- BuildProgramTest.cpp - Building train/ps IR from C++ ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Checks the C++ builder surface other components rely on: creating a
// program with the generated builders, inferring result types, verifying,
// and reading (parameter, gradient) pairs through the optimizer interface.
//
//===----------------------------------------------------------------------===//

#include "openks/Dialect/PS/IR/PSOps.h"
#include "openks/Dialect/Train/IR/TrainOps.h"
#include "openks/InitAllDialects.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "gtest/gtest.h"

using namespace mlir;
using namespace openks;

namespace {

class BuildProgramTest : public ::testing::Test {
protected:
  BuildProgramTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  MLIRContext context;
};

TEST_F(BuildProgramTest, BuildsAndVerifiesALinearModel) {
  OpBuilder builder(&context);
  Location loc = builder.getUnknownLoc();
  OwningOpRef<ModuleOp> module = ModuleOp::create(loc);
  builder.setInsertionPointToEnd(module->getBody());

  auto program = train::ProgramOp::create(builder, loc, "linear");
  builder.setInsertionPointToEnd(&program.getBody().front());
  Type f32 = builder.getF32Type();
  auto weightType = RankedTensorType::get({4, 2}, f32);
  auto scalarType = RankedTensorType::get({}, f32);
  auto batchType = RankedTensorType::get({ShapedType::kDynamic, 4}, f32);
  train::ParamOp::create(builder, loc, "w", weightType,
                         train::XavierInitAttr::get(&context, 1),
                         /*frozen=*/false);
  train::ParamOp::create(
      builder, loc, "lr", scalarType,
      train::ConstantInitAttr::get(&context, llvm::APFloat(0.1)),
      /*frozen=*/true);

  auto step = train::StepOp::create(
      builder, loc, "step", builder.getFunctionType({batchType}, {scalarType}));
  builder.setInsertionPointToEnd(&step.getBody().front());
  Value x = step.getBody().getArgument(0);
  Value w = train::ReadOp::create(builder, loc, weightType, "w");
  // Result types are inferred from the operands.
  auto matmul = train::MatmulOp::create(builder, loc, x, w);
  auto loss = train::MeanOp::create(builder, loc, matmul.getOut());
  EXPECT_EQ(matmul.getOut().getType(),
            RankedTensorType::get({ShapedType::kDynamic, 2}, f32));
  EXPECT_EQ(loss.getOut().getType(), scalarType);

  auto grads = train::MatmulGradOp::create(
      builder, loc, x, w,
      train::MeanGradOp::create(builder, loc, matmul.getOut(), loss.getOut())
          .getDx());
  Value lr = train::ReadOp::create(builder, loc, scalarType, "lr");
  auto sgd = train::SgdOp::create(builder, loc, "w", grads.getDb(), lr);
  train::YieldOp::create(builder, loc, ValueRange{loss.getOut()});

  ASSERT_TRUE(succeeded(verify(*module)));

  auto optimizer = cast<train::OptimizerOpInterface>(sgd.getOperation());
  EXPECT_EQ(optimizer.getParamAttr().getValue(), "w");
  EXPECT_EQ(optimizer.getGrad(), grads.getDb());
  EXPECT_TRUE(optimizer.getElementwiseState().empty());
}

TEST_F(BuildProgramTest, OptimizerInterfaceListsTheState) {
  const char *source = R"mlir(
    train.program @p {
      train.param @w : tensor<3xf32> init #train.constant<0.0>
      train.param @m1 : tensor<3xf32> init #train.constant<0.0> frozen
      train.param @m2 : tensor<3xf32> init #train.constant<0.0> frozen
      train.param @b1 : tensor<f32> init #train.constant<0.9> frozen
      train.param @b2 : tensor<f32> init #train.constant<0.999> frozen
      train.step @step(%g: tensor<3xf32>, %lr: tensor<f32>) {
        train.adam @w, %g, %lr moments(@m1, @m2) beta_pows(@b1, @b2)
            : tensor<3xf32>, tensor<f32>
        train.yield
      }
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  train::OptimizerOpInterface adam;
  module->walk([&](train::OptimizerOpInterface op) { adam = op; });
  ASSERT_TRUE(adam);
  SmallVector<FlatSymbolRefAttr> elementwise = adam.getElementwiseState();
  SmallVector<FlatSymbolRefAttr> scalar = adam.getScalarState();
  ASSERT_EQ(elementwise.size(), 2u);
  ASSERT_EQ(scalar.size(), 2u);
  EXPECT_EQ(elementwise[0].getValue(), "m1");
  EXPECT_EQ(elementwise[1].getValue(), "m2");
  EXPECT_EQ(scalar[0].getValue(), "b1");
  EXPECT_EQ(scalar[1].getValue(), "b2");
}

TEST_F(BuildProgramTest, ServerBlocksActAsParameters) {
  const char *source = R"mlir(
    ps.server @ps0 endpoint "127.0.0.1:6170" fan_in 2 mode sync {
      ps.block @w.block1 : tensor<2x3xf32> of @w : tensor<4x3xf32> rows [2, 4)
          init #train.xavier<seed = 1>
      ps.update @w.block1 on grad (%g: tensor<2x3xf32>) {
        train.write %g to @w.block1 : tensor<2x3xf32>
      }
    }
  )mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &context);
  ASSERT_TRUE(module);
  ps::BlockOp block;
  module->walk([&](ps::BlockOp op) { block = op; });
  ASSERT_TRUE(block);
  auto param = cast<train::ParameterOpInterface>(block.getOperation());
  EXPECT_EQ(param.getParameterType().getShape(), ArrayRef<int64_t>({2, 3}));
  EXPECT_TRUE(param.isTrainable());
  EXPECT_TRUE(isa<train::XavierInitAttr>(param.getInitializerAttr()));
  EXPECT_EQ(*block.getRowBegin(), 2);
  EXPECT_EQ(*block.getRowEnd(), 4);
}

} // namespace
