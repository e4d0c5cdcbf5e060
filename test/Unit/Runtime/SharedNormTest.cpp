//===- SharedNormTest.cpp - Tests of norms servers compute together -------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs sync servers whose update clips by a norm the servers share, with a
// fake program (a block's update subtracts its clipped gradient), and
// trainers as threads talking through the in-process transport: each
// server offers the squares of its step's summed gradient, every trainer
// adds the shares and gives the norm back, and the updates finish clipped
// by it; trainers that disagree, or one that never gives the norm, fail
// the server with an error that says so.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/InProcessTransport.h"
#include "openks/Runtime/ParameterServer.h"

#include "gtest/gtest.h"

#include <cmath>
#include <future>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using namespace std::chrono_literals;

namespace {

constexpr double kMaxNorm = 1.0;

/// One f64 block of `width` elements whose update clips by the server's one
/// norm: value -= received * kMaxNorm / max(norm, kMaxNorm).
class ClippingProgram : public ServerProgram {
public:
  explicit ClippingProgram(int64_t width)
      : shape_{width}, value_(DType::F64, shape_),
        pending_(DType::F64, shape_) {
    for (int64_t i = 0; i < width; ++i)
      value_.data<double>()[i] = 0;
  }

  int numBlocks() const override { return 1; }
  std::string_view blockName(int) const override { return "w"; }
  MessageKind updateKind(int) const override { return MessageKind::Grad; }
  DType dtype(int) const override { return DType::F64; }
  const Shape &shape(int) const override { return shape_; }
  Status update(int, Tensor &, Tensor *) override {
    return Status::internal("the clipped update ran in one part");
  }
  Status readRows(int, const Tensor &, Tensor &) override {
    return Status::internal("the test prefetches no rows");
  }
  Status read(int, Tensor &out) override {
    std::lock_guard<std::mutex> lock(mutex_);
    out.copyFrom(value_);
    return Status::ok();
  }

  int numNorms() const override { return 1; }
  std::string_view normName(int) const override { return "@GLOBAL_NORM@"; }
  std::optional<int> clipNorm(int) const override { return 0; }
  Status beginUpdate(int, Tensor &received, Tensor *,
                     double &squares) override {
    pending_.copyFrom(received);
    squares = 0;
    for (int64_t i = 0; i < received.numel(); ++i)
      squares += received.data<double>()[i] * received.data<double>()[i];
    return Status::ok();
  }
  Status endUpdate(int, double norm) override {
    std::lock_guard<std::mutex> lock(mutex_);
    double factor = kMaxNorm / std::max(norm, kMaxNorm);
    for (int64_t i = 0; i < pending_.numel(); ++i)
      value_.data<double>()[i] -= pending_.data<double>()[i] * factor;
    return Status::ok();
  }

private:
  Shape shape_;
  std::mutex mutex_;
  Tensor value_, pending_;
};

Tensor filled(int64_t width, double value) {
  Tensor tensor(DType::F64, Shape{width});
  for (int64_t i = 0; i < width; ++i)
    tensor.data<double>()[i] = value;
  return tensor;
}

Deadline soon() { return Deadline::after(5s); }

/// Two sync servers of one clipping block each, for `trainers` trainers.
struct TwoServers {
  explicit TwoServers(int trainers, std::chrono::milliseconds timeout = 5s)
      : first(4), second(2),
        servers{
            ParameterServer({"@ps0", SyncMode::Sync, trainers, timeout}, first),
            ParameterServer({"@ps1", SyncMode::Sync, trainers, timeout},
                            second)},
        transport({&servers[0], &servers[1]}) {}

  /// Starts both servers; the futures end with their results.
  void serve() {
    for (ParameterServer &server : servers)
      results.push_back(
          std::async(std::launch::async, [&server] { return server.serve(); }));
  }

  ClippingProgram first, second;
  ParameterServer servers[2];
  InProcessTransport transport;
  std::vector<std::future<Status>> results;
};

/// Passes the fetch barrier of both servers' startup, pushes `gradient` to
/// both and passes their send barriers.
void sendStep(Transport &transport, int trainer, double gradient) {
  for (int server = 0; server < 2; ++server)
    ASSERT_TRUE(transport.fetchBarrier(server, trainer, soon()).isOk());
  for (int server = 0; server < 2; ++server) {
    Tensor grad = filled(server == 0 ? 4 : 2, gradient);
    ASSERT_TRUE(
        transport.push(server, 0, MessageKind::Grad, grad, trainer, soon())
            .isOk());
    ASSERT_TRUE(transport.sendBarrier(server, trainer, soon()).isOk());
  }
}

/// Takes both servers' shares and returns their sum.
double gatherShares(Transport &transport, int trainer) {
  double squares = 0;
  for (int server = 0; server < 2; ++server) {
    double share = -1;
    Status status = transport.normShare(server, 0, share, trainer, soon());
    EXPECT_TRUE(status.isOk()) << status.message();
    squares += share;
  }
  return squares;
}

/// Gives both servers `norm`, pulls both blocks and passes the fetch
/// barriers; returns the first element of each block.
std::pair<double, double> finishStep(Transport &transport, int trainer,
                                     double norm) {
  for (int server = 0; server < 2; ++server)
    EXPECT_TRUE(transport.giveNorm(server, 0, norm, trainer, soon()).isOk());
  double values[2];
  for (int server = 0; server < 2; ++server) {
    Tensor pulled;
    EXPECT_TRUE(transport.pull(server, 0, pulled, trainer, soon()).isOk());
    values[server] = pulled.data<double>()[0];
    EXPECT_TRUE(transport.fetchBarrier(server, trainer, soon()).isOk());
  }
  for (int server = 0; server < 2; ++server)
    EXPECT_TRUE(transport.complete(server, trainer, soon()).isOk());
  return {values[0], values[1]};
}

TEST(SharedNormTest, ClipsEveryBlockByTheNormOfTheSummedGradients) {
  TwoServers job(/*trainers=*/2);
  job.serve();
  // Trainers push 1 and 2 to blocks of 4 and 2 elements: the servers sum
  // them to 3, so the shares are 4 * 9 and 2 * 9, and the norm is sqrt(54).
  auto trainer = [&](int index) {
    sendStep(job.transport, index, 1.0 + index);
    double squares = gatherShares(job.transport, index);
    EXPECT_DOUBLE_EQ(squares, 54.0);
    return finishStep(job.transport, index, std::sqrt(squares));
  };
  auto other = std::async(std::launch::async, trainer, 1);
  auto [first, second] = trainer(0);
  auto [otherFirst, otherSecond] = other.get();
  double clipped = -3.0 * kMaxNorm / std::sqrt(54.0);
  EXPECT_DOUBLE_EQ(first, clipped);
  EXPECT_DOUBLE_EQ(second, clipped);
  EXPECT_EQ(otherFirst, first);
  EXPECT_EQ(otherSecond, second);
  for (std::future<Status> &result : job.results)
    EXPECT_TRUE(result.get().isOk());
}

TEST(SharedNormTest, TrainersThatDisagreeFailTheServer) {
  TwoServers job(/*trainers=*/2);
  job.serve();
  auto trainer = [&](int index) {
    sendStep(job.transport, index, 1.0);
    gatherShares(job.transport, index);
    // Trainer 1 computes another norm than trainer 0.
    Status status = Status::ok();
    for (int server = 0; server < 2 && status.isOk(); ++server)
      status = job.transport.giveNorm(server, 0, 2.0 + index, index, soon());
    if (status.isOk()) {
      Tensor pulled;
      status = job.transport.pull(0, 0, pulled, index, soon());
    }
    // As a worker does, a trainer that fails tells every server.
    if (!status.isOk())
      for (int server = 0; server < 2; ++server)
        job.transport.abort(server, index, status);
    return status;
  };
  auto other = std::async(std::launch::async, trainer, 1);
  Status mine = trainer(0);
  Status theirs = other.get();
  // The first server to hear both fails; its error reaches the trainers.
  Status failed = mine.isOk() ? theirs : mine;
  ASSERT_FALSE(failed.isOk());
  EXPECT_NE(failed.message().find("trainers disagree on the norm "
                                  "@GLOBAL_NORM@ of step 1"),
            std::string::npos)
      << failed.message();
  for (std::future<Status> &result : job.results)
    EXPECT_FALSE(result.get().isOk());
}

TEST(SharedNormTest, ATrainerThatNeverGivesTheNormIsNamed) {
  TwoServers job(/*trainers=*/2, /*timeout=*/300ms);
  job.serve();
  auto silent = std::async(std::launch::async, [&] {
    sendStep(job.transport, 1, 1.0);
    gatherShares(job.transport, 1);
  });
  sendStep(job.transport, 0, 1.0);
  double squares = gatherShares(job.transport, 0);
  for (int server = 0; server < 2; ++server)
    EXPECT_TRUE(job.transport.giveNorm(server, 0, std::sqrt(squares), 0, soon())
                    .isOk());
  silent.get();
  Tensor pulled;
  Status status = job.transport.pull(0, 0, pulled, 0, soon());
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("trainer 1 did not give the norms of step 1"),
            std::string::npos)
      << status.message();
  for (std::future<Status> &result : job.results)
    EXPECT_FALSE(result.get().isOk());
}

TEST(SharedNormTest, AFinishedTrainerIsNotWaitedFor) {
  TwoServers job(/*trainers=*/2);
  job.serve();
  for (int server = 0; server < 2; ++server)
    ASSERT_TRUE(job.transport.complete(server, 1, soon()).isOk());
  sendStep(job.transport, 0, 2.0);
  // The sum is trainer 0's gradient scaled to the two trainers' average:
  // 2 * 2 = 4 in every element, so the shares are 4 * 16 and 2 * 16.
  double squares = gatherShares(job.transport, 0);
  EXPECT_DOUBLE_EQ(squares, 96.0);
  auto [first, second] = finishStep(job.transport, 0, std::sqrt(squares));
  EXPECT_DOUBLE_EQ(first, -4.0 / std::sqrt(96.0));
  EXPECT_DOUBLE_EQ(second, first);
  for (std::future<Status> &result : job.results)
    EXPECT_TRUE(result.get().isOk());
}

TEST(SharedNormTest, OnlySyncServersShareNorms) {
  ClippingProgram program(2);
  ParameterServer server({"@ps0", SyncMode::Async, 1, 5s}, program);
  double share = 0;
  Status status = server.normShare(0, share, 0, soon());
  ASSERT_FALSE(status.isOk());
  EXPECT_NE(status.message().find("only sync servers share"), std::string::npos)
      << status.message();
}

} // namespace
