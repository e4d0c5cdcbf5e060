//===- ServerRoleTest.cpp - Tests of a server's program over its blocks ---===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs a hand-built server program behind the in-process transport: a push
// hands the trainer's buffer to the block's update and gives the trainer
// the update's previous input buffer back, so no block is copied on the
// way; a pull copies the block's current value into the trainer's own
// buffer, or into the rows of a parameter it lands in; an update that fails
// names its block.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ServerRole.h"
#include "openks/Runtime/Communication.h"
#include "openks/Runtime/InProcessTransport.h"
#include "openks/Runtime/Kernels.h"

#include "gtest/gtest.h"
#include <algorithm>

using namespace openks;
using namespace openks::runtime;
using namespace std::chrono_literals;

namespace {

constexpr int64_t kWidth = 4;

/// Returns an f32 tensor of kWidth copies of `value`.
Tensor filled(float value) {
  Tensor tensor(DType::F32, Shape{kWidth});
  std::fill_n(tensor.data<float>(), kWidth, value);
  return tensor;
}

/// Returns the update of `parameter` that adds the received value to it,
/// or fails with `failure` when that is an error.
Plan addingUpdate(const ParameterStore &store, ParameterId parameter,
                  Status failure) {
  Plan::Builder builder(store);
  SlotId received = builder.addSlot(DType::F32, kWidth);
  builder.addInput(received, FeedSpec{DType::F32, Shape{kWidth}});
  builder.addInstruction(
      [=](const Frame &frame) -> BoundKernel {
        return [&param = frame.parameter(parameter),
                &received = frame.slot(received), failure] {
          if (!failure.isOk())
            return failure;
          return kernels::add(param, received, param);
        };
      },
      "adding", /*slots=*/{received}, /*reads=*/{}, /*writes=*/{parameter});
  return std::move(builder).build();
}

/// Sets up an async server of one trainer holding block `w` of kWidth
/// ones, whose update adds what it receives, behind the in-process
/// transport.
class ServerRoleTest : public ::testing::Test {
protected:
  /// Starts the server; its update fails with `failure` when that is an
  /// error.
  void start(Status failure = Status::ok()) {
    Parameter block;
    block.name = "w";
    block.initializer.value = 1;
    block.wholeShape = Shape{kWidth};
    block.value = Tensor(DType::F32, Shape{kWidth});
    ParameterId id = spec.store.add(std::move(block));
    spec.updates.push_back(addingUpdate(spec.store, id, failure));
    spec.blocks.push_back({id, MessageKind::Grad, /*update=*/0, /*norm=*/{}});
    StatusOr<std::unique_ptr<ServerRole>> created =
        ServerRole::create(spec, "@ps0");
    ASSERT_TRUE(created.isOk()) << created.status().message();
    role = std::move(*created);
    ASSERT_TRUE(role->initialize().isOk());
    server = std::make_unique<ParameterServer>(
        ServerConfig{"@ps0 (127.0.0.1:6170)", SyncMode::Async, 1, 5s}, *role);
    transport = std::make_unique<InProcessTransport>(
        std::vector<ParameterServer *>{server.get()});
  }

  /// Returns the block's value; no other thread touches it.
  const Tensor &value() const { return spec.store[0].value; }

  ServerProgramSpec spec;
  std::unique_ptr<ServerRole> role;
  std::unique_ptr<ParameterServer> server;
  std::unique_ptr<InProcessTransport> transport;
};

Deadline soon() { return Deadline::after(5s); }

TEST_F(ServerRoleTest, APushHandsItsBufferToTheUpdate) {
  ASSERT_NO_FATAL_FAILURE(start());
  Tensor gradient = filled(2);
  const void *pushed = gradient.rawData();
  ASSERT_TRUE(
      transport->push(0, 0, MessageKind::Grad, gradient, 0, soon()).isOk());
  EXPECT_EQ(value().data<float>()[0], 3);
  // The trainer now holds the update's previous input buffer, with room for
  // a gradient of the block.
  EXPECT_NE(gradient.rawData(), pushed);
  EXPECT_GE(gradient.capacity(), kWidth);

  // The next push hands that one over and gets the first one back: the two
  // buffers change hands, the block's bytes are never copied.
  gradient.resize(Shape{kWidth});
  std::fill_n(gradient.data<float>(), kWidth, 4.0f);
  ASSERT_TRUE(
      transport->push(0, 0, MessageKind::Grad, gradient, 0, soon()).isOk());
  EXPECT_EQ(value().data<float>()[0], 7);
  EXPECT_EQ(gradient.rawData(), pushed);
}

TEST_F(ServerRoleTest, APullCopiesTheCurrentValueIntoTheTrainersBuffer) {
  ASSERT_NO_FATAL_FAILURE(start());
  Tensor gradient = filled(2);
  ASSERT_TRUE(
      transport->push(0, 0, MessageKind::Grad, gradient, 0, soon()).isOk());
  Tensor pulled = filled(0);
  const void *own = pulled.rawData();
  ASSERT_TRUE(transport->pull(0, 0, pulled, 0, soon()).isOk());
  EXPECT_EQ(pulled.rawData(), own);
  EXPECT_NE(pulled.rawData(), value().rawData());
  EXPECT_EQ(pulled.shape(), Shape{kWidth});
  for (int64_t i = 0; i < kWidth; ++i)
    EXPECT_EQ(pulled.data<float>()[i], 3);
}

TEST_F(ServerRoleTest, AReceivedBlockLandsInItsRowsOfTheParameter) {
  ASSERT_NO_FATAL_FAILURE(start());
  Tensor gradient = filled(2);
  ASSERT_TRUE(
      transport->push(0, 0, MessageKind::Grad, gradient, 0, soon()).isOk());
  // The trainer's parameter has the block as its rows [4, 8) of 12.
  Tensor parameter(DType::F32, Shape{3 * kWidth});
  Tensor rows = Tensor::viewRows(parameter, kWidth, kWidth);
  CommunicationContext context;
  context.transport = transport.get();
  ASSERT_TRUE(kernels::recv(&context, {{0, 0}}, {&rows}).isOk());
  EXPECT_FALSE(rows.ownsBuffer());
  for (int64_t i = 0; i < 3 * kWidth; ++i)
    EXPECT_EQ(parameter.data<float>()[i], i / kWidth == 1 ? 3 : 0) << i;

  // A block that does not have the view's shape is an error, not a write
  // somewhere else, whether it would fit the view or not.
  for (int64_t count : {kWidth - 1, kWidth + 1}) {
    Tensor wrong = Tensor::viewRows(parameter, 0, count);
    Status status = kernels::recv(&context, {{0, 0}}, {&wrong});
    EXPECT_EQ(status.code(), StatusCode::DataLoss) << count;
    EXPECT_EQ(status.message(),
              fmt::format("block 0 of server 0 arrived as tensor<4xf32>, but "
                          "its rows of the parameter are tensor<{}xf32>",
                          count));
  }
}

TEST_F(ServerRoleTest, AFailingUpdateNamesItsBlock) {
  ASSERT_NO_FATAL_FAILURE(start(Status::internal("no room")));
  Tensor gradient = filled(2);
  Status status = transport->push(0, 0, MessageKind::Grad, gradient, 0, soon());
  EXPECT_EQ(status.message(),
            "@ps0 (127.0.0.1:6170): updating block w: adding: no room");
}

} // namespace
