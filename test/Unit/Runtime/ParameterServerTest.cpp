//===- ParameterServerTest.cpp - Tests of the server protocol -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Runs servers with a fake program (an update subtracts what it receives)
// and trainers as threads talking through the in-process transport: sync
// steps sum every trainer's gradient before the update, async updates apply
// on arrival one at a time per block, a finished trainer no longer holds the
// others back, and a missing or failing trainer ends every wait with an
// error that names it.
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/ParameterServer.h"
#include "openks/Runtime/InProcessTransport.h"

#include "gtest/gtest.h"

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using namespace std::chrono_literals;

namespace {

/// Blocks of f64 values; an update subtracts the received value (from the
/// rows it names, when the blocks take rows) and records it.
class FakeProgram : public ServerProgram {
public:
  FakeProgram(int numBlocks, int64_t width, MessageKind kind,
              bool takesRows = false)
      : kind_(kind), shape_{width}, takesRows_(takesRows) {
    for (int i = 0; i < numBlocks; ++i) {
      values_.emplace_back(DType::F64, shape_);
      locks_.push_back(std::make_unique<std::mutex>());
    }
  }

  int numBlocks() const override { return static_cast<int>(values_.size()); }
  std::string_view blockName(int) const override { return "w"; }
  MessageKind updateKind(int) const override { return kind_; }
  DType dtype(int) const override { return DType::F64; }
  const Shape &shape(int) const override { return shape_; }
  bool takesRows(int) const override { return takesRows_; }

  Status update(int block, Tensor &received, Tensor *rowIds) override {
    if (updating_.fetch_add(1) != 0)
      overlapped_ = true;
    {
      std::lock_guard<std::mutex> lock(*locks_[block]);
      double *value = values_[block].data<double>();
      for (int64_t i = 0; i < received.numel(); ++i)
        value[rowIds ? rowIds->data<int64_t>()[i] : i] -=
            received.data<double>()[i];
      ++updates_;
      lastReceived_ = received.data<double>()[0];
      lastUpdater_ = std::this_thread::get_id();
    }
    updating_.fetch_sub(1);
    return failNext_ ? Status::internal("kernel failed") : Status::ok();
  }

  Status read(int block, Tensor &out) override {
    std::lock_guard<std::mutex> lock(*locks_[block]);
    out.copyFrom(values_[block]);
    return Status::ok();
  }

  Status readRows(int block, const Tensor &rowIds, Tensor &out) override {
    std::lock_guard<std::mutex> lock(*locks_[block]);
    out.resize(Shape{rowIds.numel()});
    for (int64_t row = 0; row < rowIds.numel(); ++row)
      out.data<double>()[row] =
          values_[block].data<double>()[rowIds.data<int64_t>()[row]];
    return Status::ok();
  }

  double value(int block, int64_t element = 0) {
    std::lock_guard<std::mutex> lock(*locks_[block]);
    return values_[block].data<double>()[element];
  }
  int updates() const { return updates_; }
  double lastReceived() const { return lastReceived_; }
  /// Returns the thread that ran the last update.
  std::thread::id lastUpdater() const { return lastUpdater_; }
  bool overlapped() const { return overlapped_; }
  void failNextUpdate() { failNext_ = true; }

private:
  MessageKind kind_;
  Shape shape_;
  bool takesRows_;
  std::vector<Tensor> values_;
  std::vector<std::unique_ptr<std::mutex>> locks_;
  std::atomic<int> updating_{0};
  std::atomic<bool> overlapped_{false};
  std::atomic<bool> failNext_{false};
  // Shared by the updates of all blocks.
  std::atomic<int> updates_{0};
  std::atomic<double> lastReceived_{0};
  std::atomic<std::thread::id> lastUpdater_;
};

/// Returns a tensor of `width` copies of `value`.
Tensor filled(int64_t width, double value) {
  Tensor tensor(DType::F64, Shape{width});
  for (int64_t i = 0; i < width; ++i)
    tensor.data<double>()[i] = value;
  return tensor;
}

Deadline soon() { return Deadline::after(5s); }

ServerConfig config(SyncMode mode, int trainers,
                    std::chrono::milliseconds timeout = 5s) {
  return ServerConfig{"@ps0 (127.0.0.1:6170)", mode, trainers, timeout};
}

/// One sync step of `trainer`: push `gradient`, barrier, pull, barrier;
/// returns the pulled value.
double syncStep(Transport &transport, int trainer, double gradient) {
  Tensor grad = filled(4, gradient);
  EXPECT_TRUE(
      transport.push(0, 0, MessageKind::Grad, grad, trainer, soon()).isOk());
  EXPECT_TRUE(transport.sendBarrier(0, trainer, soon()).isOk());
  Tensor pulled;
  Status status = transport.pull(0, 0, pulled, trainer, soon());
  EXPECT_TRUE(status.isOk()) << status.message();
  EXPECT_TRUE(transport.fetchBarrier(0, trainer, soon()).isOk());
  return pulled.numel() ? pulled.data<double>()[0] : -1;
}

/// The startup of `trainer`: pull, fetch barrier.
void startup(Transport &transport, int trainer) {
  Tensor pulled;
  EXPECT_TRUE(transport.pull(0, 0, pulled, trainer, soon()).isOk());
  EXPECT_TRUE(transport.fetchBarrier(0, trainer, soon()).isOk());
}

TEST(ParameterServerTest, SyncUpdatesOnTheSumOfEveryTrainersGradient) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 3), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });

  std::vector<std::vector<double>> seen(3);
  std::vector<std::thread> trainers;
  for (int t = 0; t < 3; ++t)
    trainers.emplace_back([&, t] {
      startup(transport, t);
      for (int step = 1; step <= 5; ++step)
        seen[t].push_back(syncStep(transport, t, step * (t + 1)));
      EXPECT_TRUE(transport.complete(0, t, soon()).isOk());
    });
  for (std::thread &trainer : trainers)
    trainer.join();
  serving.join();

  // Step s receives s * (1 + 2 + 3) = 6s; every trainer sees every step.
  double expected = 0;
  for (int step = 1; step <= 5; ++step) {
    expected -= 6.0 * step;
    for (int t = 0; t < 3; ++t)
      EXPECT_EQ(seen[t][step - 1], expected) << "trainer " << t;
  }
  EXPECT_EQ(program.updates(), 5);
  EXPECT_EQ(server.stats().steps, 5);
  EXPECT_EQ(server.stats().bytesPushed, 3 * 5 * 4 * 8);
}

TEST(ParameterServerTest, SyncOnlyTrainerInTheProcessRunsTheUpdates) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 1), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });
  startup(transport, 0);
  // Until serve() runs, its thread applies the steps it finds; from then on
  // the trainer's thread applies every step, and pulls what it applied.
  double expected = 0;
  int step = 1;
  for (Deadline until = soon();
       program.lastUpdater() != std::this_thread::get_id() && !until.passed();
       ++step) {
    expected -= step;
    EXPECT_EQ(syncStep(transport, 0, step), expected);
  }
  ASSERT_EQ(program.lastUpdater(), std::this_thread::get_id());
  for (int last = step + 3; step < last; ++step) {
    expected -= step;
    EXPECT_EQ(syncStep(transport, 0, step), expected);
    EXPECT_EQ(program.lastUpdater(), std::this_thread::get_id());
  }
  EXPECT_TRUE(transport.complete(0, 0, soon()).isOk());
  serving.join();
  EXPECT_EQ(server.stats().steps, step - 1);
}

TEST(ParameterServerTest, SyncAddsGradientsInTrainerOrderWhateverTheArrival) {
  // Float addition does not associate: (a + b) + c = 0 but (a + c) + b = 1.
  const double a = 1e16, b = 1, c = -1e16;
  ASSERT_NE((a + b) + c, (a + c) + b);
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 3), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });

  // One thread plays the three trainers, so the order of arrival is fixed:
  // trainer 0, then 2, then 1.
  for (int t = 0; t < 3; ++t)
    startup(transport, t);
  for (auto [trainer, gradient] :
       std::initializer_list<std::pair<int, double>>{{0, a}, {2, c}, {1, b}}) {
    Tensor grad = filled(4, gradient);
    ASSERT_TRUE(
        transport.push(0, 0, MessageKind::Grad, grad, trainer, soon()).isOk());
  }
  for (int t = 0; t < 3; ++t)
    ASSERT_TRUE(transport.sendBarrier(0, t, soon()).isOk());
  Tensor pulled;
  ASSERT_TRUE(transport.pull(0, 0, pulled, 0, soon()).isOk());
  EXPECT_EQ(pulled.data<double>()[0], -((a + b) + c));
  for (int t = 0; t < 3; ++t)
    EXPECT_TRUE(transport.complete(0, t, soon()).isOk());
  serving.join();
}

TEST(ParameterServerTest, SyncAveragesOverTheTrainersThatAreLeft) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 2), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });
  std::thread early([&] {
    startup(transport, 1);
    syncStep(transport, 1, 10);
    // Out of data after one step: it says so and the other goes on.
    EXPECT_TRUE(transport.complete(0, 1, soon()).isOk());
  });
  startup(transport, 0);
  EXPECT_EQ(syncStep(transport, 0, 2), -12);
  early.join();
  // Alone now: the sum is scaled by fan_in / contributors = 2, so that an
  // update averaging over fan_in trainers averages over the one left.
  EXPECT_EQ(syncStep(transport, 0, 3), -18);
  EXPECT_EQ(program.lastReceived(), 6);
  EXPECT_TRUE(transport.complete(0, 0, soon()).isOk());
  serving.join();
}

TEST(ParameterServerTest, SyncNamesTheTrainerThatNeverArrives) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 2, 200ms), program);
  InProcessTransport transport({&server});
  Status served;
  std::thread serving([&] { served = server.serve(); });
  std::thread silent([&] { startup(transport, 1); });
  startup(transport, 0);
  silent.join();
  // Trainer 1 hangs after the startup step; trainer 0's pull ends.
  Tensor grad = filled(4, 1);
  ASSERT_TRUE(transport.push(0, 0, MessageKind::Grad, grad, 0, soon()).isOk());
  ASSERT_TRUE(transport.sendBarrier(0, 0, soon()).isOk());
  Tensor pulled;
  Status status = transport.pull(0, 0, pulled, 0, soon());
  serving.join();
  EXPECT_EQ(served.code(), StatusCode::DeadlineExceeded);
  EXPECT_EQ(served.message(),
            "@ps0 (127.0.0.1:6170): trainer 1 did not reach the send barrier "
            "of step 1 within 200 ms");
  EXPECT_EQ(status.message(), served.message());
}

TEST(ParameterServerTest, AFailingTrainerEndsEveryWait) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 2), program);
  InProcessTransport transport({&server});
  Status served;
  std::thread serving([&] { served = server.serve(); });
  Status waited;
  std::promise<void> atBarrier;
  std::thread waiting([&] {
    startup(transport, 0);
    Tensor grad = filled(4, 1);
    EXPECT_TRUE(
        transport.push(0, 0, MessageKind::Grad, grad, 0, soon()).isOk());
    EXPECT_TRUE(transport.sendBarrier(0, 0, soon()).isOk());
    atBarrier.set_value();
    Tensor pulled;
    waited = transport.pull(0, 0, pulled, 0, soon());
  });
  startup(transport, 1);
  // Trainer 0 waits for trainer 1's gradient when trainer 1 fails.
  atBarrier.get_future().wait();
  transport.abort(0, 1, Status::outOfRange("label 7 is outside [0, 5)"));
  waiting.join();
  serving.join();
  EXPECT_EQ(waited.code(), StatusCode::PeerLost);
  EXPECT_EQ(waited.message(), "@ps0 (127.0.0.1:6170): trainer 1 failed: "
                              "label 7 is outside [0, 5)");
  EXPECT_EQ(served.message(), waited.message());
}

TEST(ParameterServerTest, AFailingUpdateFailsTheServer) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Sync, 1), program);
  InProcessTransport transport({&server});
  Status served;
  std::thread serving([&] { served = server.serve(); });
  startup(transport, 0);
  program.failNextUpdate();
  Tensor grad = filled(4, 1);
  ASSERT_TRUE(transport.push(0, 0, MessageKind::Grad, grad, 0, soon()).isOk());
  ASSERT_TRUE(transport.sendBarrier(0, 0, soon()).isOk());
  Tensor pulled;
  Status status = transport.pull(0, 0, pulled, 0, soon());
  serving.join();
  EXPECT_EQ(status.code(), StatusCode::Internal);
  EXPECT_EQ(status.message(), "@ps0 (127.0.0.1:6170): kernel failed");
}

TEST(ParameterServerTest, AsyncAppliesEachGradientOnArrivalOneAtATime) {
  FakeProgram program(2, 64, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Async, 4), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });
  std::vector<std::thread> trainers;
  for (int t = 0; t < 4; ++t)
    trainers.emplace_back([&, t] {
      startup(transport, t);
      for (int i = 0; i < 200; ++i) {
        Tensor grad = filled(64, 1);
        EXPECT_TRUE(transport.push(0, i % 2, MessageKind::Grad, grad, t, soon())
                        .isOk());
        Tensor pulled;
        EXPECT_TRUE(transport.pull(0, i % 2, pulled, t, soon()).isOk());
      }
      EXPECT_TRUE(transport.complete(0, t, soon()).isOk());
    });
  for (std::thread &trainer : trainers)
    trainer.join();
  serving.join();
  EXPECT_EQ(program.value(0), -400);
  EXPECT_EQ(program.value(1), -400);
  EXPECT_EQ(program.updates(), 800);
}

TEST(ParameterServerTest, HalfAsyncTrainersReadTheirOwnUpdates) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::HalfAsync, 2), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });
  // Trainer 1 never takes a step, and trainer 0 does not wait for it.
  startup(transport, 0);
  startup(transport, 1);
  for (int step = 1; step <= 3; ++step) {
    Tensor grad = filled(4, 1);
    ASSERT_TRUE(
        transport.push(0, 0, MessageKind::Grad, grad, 0, soon()).isOk());
    ASSERT_TRUE(transport.sendBarrier(0, 0, soon()).isOk());
    Tensor pulled;
    ASSERT_TRUE(transport.pull(0, 0, pulled, 0, soon()).isOk());
    EXPECT_EQ(pulled.data<double>()[0], -step);
  }
  EXPECT_TRUE(transport.complete(0, 0, soon()).isOk());
  EXPECT_TRUE(transport.complete(0, 1, soon()).isOk());
  serving.join();
}

TEST(ParameterServerTest, AsyncNamesASilentTrainer) {
  FakeProgram program(1, 4, MessageKind::Delta);
  ParameterServer server(config(SyncMode::Geo, 2, 200ms), program);
  InProcessTransport transport({&server});
  startup(transport, 0);
  startup(transport, 1);
  EXPECT_TRUE(transport.complete(0, 0, soon()).isOk());
  Status served = server.serve();
  EXPECT_EQ(served.code(), StatusCode::DeadlineExceeded);
  EXPECT_EQ(served.message(),
            "@ps0 (127.0.0.1:6170): trainer 1 sent nothing for 200 ms");
}

/// Returns the ids and the values of rows of a rank-1 f64 block.
std::pair<Tensor, Tensor> rowsOf(std::vector<int64_t> ids,
                                 std::vector<double> values) {
  Tensor rowIds(DType::I64, Shape{static_cast<int64_t>(ids.size())});
  std::copy(ids.begin(), ids.end(), rowIds.data<int64_t>());
  Tensor rows(DType::F64, Shape{static_cast<int64_t>(values.size())});
  std::copy(values.begin(), values.end(), rows.data<double>());
  return {std::move(rowIds), std::move(rows)};
}

TEST(ParameterServerTest, SyncSumsTrainersRowsAsTheDenseSumWould) {
  FakeProgram program(1, 5, MessageKind::Grad, /*takesRows=*/true);
  ParameterServer server(config(SyncMode::Sync, 2), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });
  // Trainer 1 arrives first; the rows add in trainer order all the same:
  // (1e16 + 1) - 1e16 is 0 in f64, where (1e16 - 1e16) + 1 is 1.
  std::vector<std::pair<Tensor, Tensor>> pushed;
  pushed.push_back(rowsOf({0, 2}, {1e16, 3}));
  pushed.push_back(rowsOf({0, 3}, {1, 4}));
  std::vector<std::thread> trainers;
  startup(transport, 0);
  startup(transport, 1);
  for (int t : {1, 0}) {
    EXPECT_TRUE(transport
                    .pushRows(0, 0, MessageKind::Grad, pushed[t].first,
                              pushed[t].second, t, soon())
                    .isOk());
  }
  // A third push of trainer 0 in the same step is refused.
  auto again = rowsOf({1}, {1});
  EXPECT_EQ(transport
                .pushRows(0, 0, MessageKind::Grad, again.first, again.second, 0,
                          soon())
                .code(),
            StatusCode::FailedPrecondition);
  for (int t : {0, 1})
    trainers.emplace_back([&, t] {
      EXPECT_TRUE(transport.sendBarrier(0, t, soon()).isOk());
      Tensor pulled;
      EXPECT_TRUE(transport.pull(0, 0, pulled, t, soon()).isOk());
      EXPECT_TRUE(transport.fetchBarrier(0, t, soon()).isOk());
      EXPECT_TRUE(transport.complete(0, t, soon()).isOk());
    });
  for (std::thread &trainer : trainers)
    trainer.join();
  serving.join();
  double rowZero = 1e16;
  rowZero += 1;
  EXPECT_EQ(program.value(0, 0), -rowZero);
  EXPECT_EQ(program.value(0, 1), 0);
  EXPECT_EQ(program.value(0, 2), -3);
  EXPECT_EQ(program.value(0, 3), -4);
  EXPECT_EQ(program.value(0, 4), 0);
  EXPECT_EQ(program.updates(), 1);
  // Ids and rows: two rows of each trainer, 16 bytes each.
  EXPECT_EQ(server.stats().bytesPushed, 2 * 2 * 16);
}

TEST(ParameterServerTest, AsyncAppliesRowsOnArrival) {
  FakeProgram program(1, 4, MessageKind::Grad, /*takesRows=*/true);
  ParameterServer server(config(SyncMode::Async, 1), program);
  InProcessTransport transport({&server});
  auto [ids, rows] = rowsOf({1, 3}, {2, 5});
  ASSERT_TRUE(
      transport.pushRows(0, 0, MessageKind::Grad, ids, rows, 0, soon()).isOk());
  EXPECT_EQ(program.value(0, 1), -2);
  EXPECT_EQ(program.value(0, 3), -5);
  EXPECT_EQ(program.value(0, 0), 0);
  EXPECT_TRUE(server.complete(0).isOk());
  EXPECT_TRUE(server.serve().isOk());
}

TEST(ParameterServerTest, PrefetchReadsTheRowsThePreviousStepLeft) {
  FakeProgram program(1, 6, MessageKind::Grad, /*takesRows=*/true);
  ParameterServer server(config(SyncMode::Sync, 1), program);
  InProcessTransport transport({&server});
  std::thread serving([&] { EXPECT_TRUE(server.serve().isOk()); });
  Tensor pulled;
  EXPECT_TRUE(transport.fetchBarrier(0, 0, soon()).isOk());
  auto prefetch = [&](std::vector<int64_t> rows) {
    Tensor ids = rowsOf(std::move(rows), {}).first;
    Tensor out;
    Status status = transport.pullRows(0, 0, ids, out, 0, soon());
    EXPECT_TRUE(status.isOk()) << status.message();
    return std::vector<double>(out.data<double>(),
                               out.data<double>() + out.numel());
  };
  for (int step = 1; step <= 2; ++step) {
    // The step reads what the previous one left, before it sends.
    EXPECT_EQ(prefetch({1, 4}), (std::vector<double>{-(step - 1.0), 0}));
    auto [ids, rows] = rowsOf({1, 5}, {1, 2});
    EXPECT_TRUE(
        transport.pushRows(0, 0, MessageKind::Grad, ids, rows, 0, soon())
            .isOk());
    EXPECT_TRUE(transport.sendBarrier(0, 0, soon()).isOk());
    EXPECT_TRUE(transport.fetchBarrier(0, 0, soon()).isOk());
  }
  EXPECT_EQ(prefetch({5}), (std::vector<double>{-4}));
  // Only the rows and their ids travel: 2 + 2 + 1 rows of 16 bytes.
  EXPECT_EQ(server.stats().bytesPulled, 5 * 16);
  Tensor bad = rowsOf({6}, {}).first;
  EXPECT_EQ(transport.pullRows(0, 0, bad, pulled, 0, soon()).message(),
            "@ps0 (127.0.0.1:6170): trainer 0 sent row 6 of block w, which "
            "has 6 rows");
  EXPECT_TRUE(transport.complete(0, 0, soon()).isOk());
  serving.join();
}

TEST(ParameterServerTest, RejectsRowsTheBlockDoesNotHave) {
  FakeProgram program(1, 4, MessageKind::Grad, /*takesRows=*/true);
  ParameterServer server(config(SyncMode::Async, 1), program);
  auto push = [&](std::vector<int64_t> ids, std::vector<double> values) {
    auto [rowIds, rows] = rowsOf(std::move(ids), std::move(values));
    return server.pushRows(0, MessageKind::Grad, rowIds, rows, 0, soon())
        .message();
  };
  EXPECT_EQ(push({1, 4}, {1, 1}),
            "@ps0 (127.0.0.1:6170): trainer 0 sent row 4 of block w, which "
            "has 4 rows");
  EXPECT_EQ(push({-1}, {1}),
            "@ps0 (127.0.0.1:6170): trainer 0 sent row -1 of block w, which "
            "has 4 rows");
  EXPECT_EQ(push({int64_t(1) << 40}, {1}),
            "@ps0 (127.0.0.1:6170): trainer 0 sent row 1099511627776 of block "
            "w, which has 4 rows");
  EXPECT_EQ(push({2, 2}, {1, 1}),
            "@ps0 (127.0.0.1:6170): trainer 0 sent the rows of block w out of "
            "order: row 2 follows row 2");
  EXPECT_EQ(push({0, 1, 2, 3, 0}, {1, 1, 1, 1, 1}),
            "@ps0 (127.0.0.1:6170): trainer 0 sent rows of tensor<5xf64> for "
            "block w of f64 [4]");
  Tensor whole = filled(4, 1);
  EXPECT_EQ(server.push(0, MessageKind::Grad, whole, 0, soon()).message(),
            "@ps0 (127.0.0.1:6170): trainer 0 sent a whole value of block w, "
            "whose update takes rows");
  // Nothing was applied.
  for (int64_t row = 0; row < 4; ++row)
    EXPECT_EQ(program.value(0, row), 0);
  EXPECT_EQ(program.updates(), 0);
  EXPECT_TRUE(server.complete(0).isOk());
  EXPECT_TRUE(server.serve().isOk());
}

TEST(ParameterServerTest, RejectsWhatTheBlockDoesNotTake) {
  FakeProgram program(1, 4, MessageKind::Grad);
  ParameterServer server(config(SyncMode::Async, 1), program);
  Tensor delta = filled(4, 1);
  EXPECT_EQ(server.push(0, MessageKind::Delta, delta, 0, soon()).message(),
            "@ps0 (127.0.0.1:6170): trainer 0 sent a delta for block w, which "
            "is updated on gradients");
  Tensor wide = filled(5, 1);
  EXPECT_EQ(server.push(0, MessageKind::Grad, wide, 0, soon()).message(),
            "@ps0 (127.0.0.1:6170): trainer 0 sent tensor<5xf64> for block w "
            "of f64 [4]");
  Tensor grad = filled(4, 1);
  EXPECT_EQ(server.push(3, MessageKind::Grad, grad, 0, soon()).message(),
            "@ps0 (127.0.0.1:6170): there is no block 3 (it holds 1)");
  EXPECT_EQ(server.push(0, MessageKind::Grad, grad, 7, soon()).message(),
            "@ps0 (127.0.0.1:6170): there is no trainer 7 (the job has 1)");
  EXPECT_TRUE(server.complete(0).isOk());
  EXPECT_EQ(server.complete(0).code(), StatusCode::FailedPrecondition);
  EXPECT_TRUE(server.serve().isOk());
}

} // namespace
