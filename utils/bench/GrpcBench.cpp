//===- GrpcBench.cpp - The gRPC transport against raw loopback TCP --------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Measures the gRPC transport between two processes of this host next to
// the direct way to move the same bytes between two processes, in the same
// run, so that utils/bench-grpc.sh can turn the pairs into ratios:
//
// * blocks: a push of one f32 block of 1 to 64 MiB through the gRPC
//   transport and its flush (which returns once the server has taken it),
//   and a pull of the block, to an async server in another process whose
//   update only takes the pushed buffer; against the same bytes written to
//   a loopback TCP socket whose other end, another process, reads them
//   into a buffer and answers with one byte (for a pull: a 16-byte request
//   answered with the bytes);
// * small blocks: a push of a 64 B to 4 KiB block and its flush (one round
//   trip each), and batches of kBatch pushes with one flush (a step's
//   pushes), through the gRPC transport, through the in-process transport
//   to a server of the same job in this process (batches only) and as the
//   same writes to the TCP socket;
// * tables: a prefetch (pullRows) of a batch of 4096 or 16384 distinct
//   ascending rows of a table block of 1,000,000 rows of 16 or 64 f32
//   elements, and a push of their row-sparse gradient (pushRows), which the
//   server minimizes with Adagrad, and its flush, through the gRPC transport
//   and through the in-process transport to the server of the same job in
//   this process. The batches follow one another through the whole table, as
//   a job's steps do.
//
// Before anything of gRPC exists in it, the benchmark forks its two peers:
// the server process, which publishes the server of a hand-built job on a
// free loopback port and serves until the trainer (this process) completes,
// and the TCP peer. Both die with the benchmark. Like openks-run's role
// processes, all three keep the memory they free for their next
// allocations; every path is warmed up before the benchmarks run.
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"

#include "openks/Runtime/GrpcCluster.h"
#include "openks/Runtime/InProcessTransport.h"
#include "openks/Runtime/ServerInstance.h"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <malloc.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <memory>
#include <numeric>
#include <thread>
#include <vector>

using namespace openks;
using namespace openks::runtime;
using namespace openks::bench;

namespace {

/// How long the server waits for word from its trainer, which leaves it
/// alone while the other benchmarks run.
constexpr std::chrono::milliseconds kServerTimeout{600000};

/// The job's token and fingerprint, the same in both processes.
const char *const kToken = "openks-bench-grpc";
constexpr uint64_t kFingerprint = 0x6f70656e6b73;

/// The server's blocks, numbered in this order: first those of the
/// bandwidth benchmarks, 1 to 64 MiB, then the small ones, 64 B to 4 KiB;
/// the table blocks follow.
constexpr int64_t kBlocks[] = {1 << 20, 4 << 20, 16 << 20, 64 << 20,
                               64,      256,     1024,     4096};
constexpr int kNumLargeBlocks = 4;
constexpr int64_t kLargestBlock = 64 << 20;

/// The pushes of one batch of small blocks.
constexpr int kBatch = 64;

/// Returns the server's block of `bytes` bytes.
int blockOf(int64_t bytes) {
  return static_cast<int>(
      std::find(std::begin(kBlocks), std::end(kBlocks), bytes) -
      std::begin(kBlocks));
}

/// Returns the server's table block of dimension `dim`.
int tableBlockOf(int64_t dim) {
  return static_cast<int>(
      std::size(kBlocks) +
      (std::find(std::begin(kTableDims), std::end(kTableDims), dim) -
       std::begin(kTableDims)));
}

/// Returns a job of one trainer and one async server at `endpoint`, which
/// holds one block of each size of kBlocks, whose update only takes the
/// pushed buffer, and one table block of each dimension of kTableDims
/// (addAdagradTable) on row-sparse gradients.
StatusOr<std::shared_ptr<JobSpec>> makeJob(const std::string &endpoint) {
  auto job = std::make_shared<JobSpec>();
  job->mode = SyncMode::Async;
  job->fingerprint = kFingerprint;
  ServerSpec &spec = job->servers.emplace_back();
  spec.name = "@ps0";
  spec.endpoint = endpoint;
  spec.mode = SyncMode::Async;
  ServerProgramSpec &program = spec.program.emplace();
  for (int64_t bytes : kBlocks)
    OPENKS_RETURN_IF_ERROR(addBlock(program, fmt::format("w{}", bytes),
                                    floatsIn(bytes), takeOnlyPlan));
  for (int64_t dim : kTableDims)
    OPENKS_RETURN_IF_ERROR(addAdagradTable(program, fmt::format("emb{}", dim),
                                           dim, Gradient::Rows));
  return job;
}

/// Returns a socket listening at 127.0.0.1 on a port the system chose,
/// which it stores in `port`; -1 on failure.
int listenLoopback(int &port) {
  int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  if (fd < 0 ||
      ::bind(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) ||
      ::listen(fd, 1) ||
      ::getsockname(fd, reinterpret_cast<sockaddr *>(&address), &length)) {
    if (fd >= 0)
      ::close(fd);
    return -1;
  }
  port = ntohs(address.sin_port);
  return fd;
}

/// Sends segments as soon as they are written, as gRPC's sockets do.
void setNoDelay(int fd) {
  int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

/// Writes the `size` bytes at `data` to `fd`; returns whether all went.
bool writeAll(int fd, const void *data, size_t size) {
  const auto *bytes = static_cast<const char *>(data);
  while (size > 0) {
    ssize_t written = ::write(fd, bytes, size);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0)
      return false;
    bytes += written;
    size -= written;
  }
  return true;
}

/// Reads `size` bytes from `fd` into `data`; returns whether all came.
bool readAll(int fd, void *data, size_t size) {
  auto *bytes = static_cast<char *>(data);
  while (size > 0) {
    ssize_t read = ::read(fd, bytes, size);
    if (read < 0 && errno == EINTR)
      continue;
    if (read <= 0)
      return false;
    bytes += read;
    size -= read;
  }
  return true;
}

/// What the TCP peer is asked: to read `count` messages of `bytes` bytes
/// and answer with one byte (Push), or to write `bytes` bytes (Pull).
struct TcpCommand {
  enum Op : uint32_t { Push, Pull } op;
  uint32_t count;
  uint64_t bytes;
};

/// Writes `count` messages of the `bytes` bytes at `data` to the TCP peer
/// at `fd` and waits for its answer; returns whether it came.
bool tcpPush(int fd, const char *data, int64_t bytes, int count) {
  TcpCommand command{TcpCommand::Push, static_cast<uint32_t>(count),
                     static_cast<uint64_t>(bytes)};
  bool ok = writeAll(fd, &command, sizeof command);
  for (int message = 0; message < count && ok; ++message)
    ok = writeAll(fd, data, bytes);
  char done;
  return ok && readAll(fd, &done, 1);
}

/// Asks the TCP peer at `fd` for `bytes` bytes and reads them into `data`;
/// returns whether they came.
bool tcpPull(int fd, char *data, int64_t bytes) {
  TcpCommand command{TcpCommand::Pull, 1, static_cast<uint64_t>(bytes)};
  return writeAll(fd, &command, sizeof command) && readAll(fd, data, bytes);
}

/// The TCP peer's process: reports the port it listens at through
/// `report`, takes one connection and answers its commands until it closes.
int serveTcp(int report) {
  int port = 0;
  int listener = listenLoopback(port);
  if (listener < 0 || !writeAll(report, &port, sizeof port))
    return 1;
  ::close(report);
  pollfd waiting{listener, POLLIN, 0};
  if (::poll(&waiting, 1, static_cast<int>(kTimeout.count())) != 1)
    return 1;
  int fd = ::accept(listener, nullptr, nullptr);
  ::close(listener);
  if (fd < 0)
    return 1;
  setNoDelay(fd);
  std::vector<char> buffer(kLargestBlock, 1);
  TcpCommand command;
  while (readAll(fd, &command, sizeof command)) {
    if (command.bytes > buffer.size())
      return 1;
    if (command.op == TcpCommand::Pull) {
      if (!writeAll(fd, buffer.data(), command.bytes))
        return 1;
      continue;
    }
    for (uint32_t message = 0; message < command.count; ++message)
      if (!readAll(fd, buffer.data(), command.bytes))
        return 1;
    char done = 1;
    if (!writeAll(fd, &done, 1))
      return 1;
  }
  return 0;
}

/// Prints `status` as the server process's failure and returns 1.
int serverFailed(const Status &status) {
  std::fprintf(stderr, "openks-bench-grpc: server: %s\n",
               status.message().c_str());
  return 1;
}

/// The gRPC server's process: publishes the server of makeJob() on a free
/// loopback port, reports the port through `report` and serves until the
/// trainer completes.
int serveGrpc(int report) {
  int port = 0;
  int probe = listenLoopback(port);
  if (probe < 0)
    return serverFailed(Status::internal("no free loopback port"));
  ::close(probe);
  StatusOr<std::shared_ptr<JobSpec>> job =
      makeJob(fmt::format("127.0.0.1:{}", port));
  if (!job)
    return serverFailed(job.status());
  GrpcClusterOptions options;
  options.token = kToken;
  StatusOr<std::shared_ptr<Cluster>> cluster = createGrpcCluster(options);
  if (!cluster)
    return serverFailed(cluster.status());
  StatusOr<std::shared_ptr<ServerInstance>> server =
      ServerInstance::create(*job, /*index=*/0, kServerTimeout);
  if (!server)
    return serverFailed(server.status());
  Status status = (*server)->role().initialize();
  if (status.isOk())
    status = (*cluster)->publish(*server);
  if (!status.isOk())
    return serverFailed(status);
  if (!writeAll(report, &port, sizeof port))
    return 1;
  ::close(report);
  status = (*server)->server().serve();
  return status.isOk() ? 0 : serverFailed(status);
}

/// A process forked to run `body`, and the port it reported.
struct PeerProcess {
  pid_t pid = -1;
  int port = 0;
};

/// Forks a process that runs `body` with the write end of a pipe, on which
/// it reports its port, and that dies with this process; returns it once
/// the port came.
StatusOr<PeerProcess> startPeer(const char *what, int (*body)(int report)) {
  int pipe[2];
  if (::pipe2(pipe, O_CLOEXEC))
    return Status::internal("cannot make a pipe: {}", std::strerror(errno));
  pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0)
    return Status::internal("cannot fork the {}: {}", what,
                            std::strerror(errno));
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent)
      ::_exit(1);
    ::close(pipe[0]);
    ::_exit(body(pipe[1]));
  }
  ::close(pipe[1]);
  PeerProcess peer{pid, 0};
  pollfd waiting{pipe[0], POLLIN, 0};
  bool reported =
      ::poll(&waiting, 1, static_cast<int>(kTimeout.count())) == 1 &&
      readAll(pipe[0], &peer.port, sizeof peer.port);
  ::close(pipe[0]);
  if (!reported) {
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    return Status::internal("the {} did not start", what);
  }
  return peer;
}

/// Waits at most kTimeout for `peer` to exit, then kills it; returns an
/// error unless it exited by itself with status 0.
Status stopPeer(const PeerProcess &peer, const char *what) {
  auto end = std::chrono::steady_clock::now() + kTimeout;
  int status = 0;
  while (::waitpid(peer.pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      ::kill(peer.pid, SIGKILL);
      ::waitpid(peer.pid, nullptr, 0);
      return Status::internal("the {} did not exit", what);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return Status::internal("the {} failed", what);
  return Status::ok();
}

/// What the benchmarks talk to: the gRPC server's and the TCP peer's
/// processes, and a server of the same job in this process.
class Peers {
public:
  /// Starts the peer processes (before anything of gRPC exists in this
  /// one) and connects to them.
  Status start() {
    StatusOr<PeerProcess> tcp = startPeer("TCP peer", serveTcp);
    if (!tcp)
      return tcp.status();
    tcpProcess_ = *tcp;
    StatusOr<PeerProcess> server = startPeer("gRPC server", serveGrpc);
    if (!server)
      return server.status();
    serverProcess_ = *server;

    tcp_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons(tcpProcess_.port);
    if (tcp_ < 0 ||
        ::connect(tcp_, reinterpret_cast<sockaddr *>(&address), sizeof address))
      return Status::internal("cannot connect to the TCP peer: {}",
                              std::strerror(errno));
    setNoDelay(tcp_);

    StatusOr<std::shared_ptr<JobSpec>> job =
        makeJob(fmt::format("127.0.0.1:{}", serverProcess_.port));
    if (!job)
      return job.status();
    GrpcClusterOptions options;
    options.token = kToken;
    StatusOr<std::shared_ptr<Cluster>> cluster = createGrpcCluster(options);
    if (!cluster)
      return cluster.status();
    cluster_ = std::move(*cluster);
    StatusOr<std::unique_ptr<Transport>> transport =
        cluster_->connect(**job, /*trainer=*/0, deadline());
    if (!transport)
      return transport.status();
    grpc_ = std::move(*transport);

    StatusOr<std::shared_ptr<ServerInstance>> local =
        ServerInstance::create(*job, /*index=*/0, kServerTimeout);
    if (!local)
      return local.status();
    local_ = std::move(*local);
    OPENKS_RETURN_IF_ERROR(local_->role().initialize());
    inProcess_ = std::make_unique<InProcessTransport>(
        std::vector<ParameterServer *>{&local_->server()});
    return warmUp();
  }

  /// Completes the trainer, ends the connections and waits for the peer
  /// processes to exit; returns the first failure.
  Status stop() {
    Status status = Status::ok();
    if (grpc_)
      status = grpc_->complete(/*server=*/0, /*trainer=*/0, deadline());
    grpc_.reset();
    cluster_.reset();
    if (tcp_ >= 0)
      ::close(tcp_);
    for (auto [peer, what] : {std::pair(tcpProcess_, "TCP peer"),
                              std::pair(serverProcess_, "gRPC server")})
      if (peer.pid > 0)
        if (Status stopped = stopPeer(peer, what);
            !stopped.isOk() && status.isOk())
          status = stopped;
    return status;
  }

  int tcp() const { return tcp_; }
  Transport &grpc() { return *grpc_; }
  Transport &inProcess() { return *inProcess_; }

private:
  /// Pushes and pulls every block twice through the gRPC transport (of a
  /// table, the first kMaxBatchRows rows), and the largest both ways over
  /// TCP: the benchmarks measure the steady state of a job's steps, whose
  /// buffers (spare ones in the transport, the sockets') exist and whose
  /// pages are in memory, not its first step.
  Status warmUp() {
    for (int64_t bytes : kBlocks) {
      Tensor value(DType::F32, Shape{floatsIn(bytes)});
      for (int round = 0; round < 2; ++round) {
        OPENKS_RETURN_IF_ERROR(grpc_->push(/*server=*/0, blockOf(bytes),
                                           MessageKind::Grad, value,
                                           /*trainer=*/0, deadline()));
        OPENKS_RETURN_IF_ERROR(grpc_->flush(/*trainer=*/0, deadline()));
        OPENKS_RETURN_IF_ERROR(grpc_->pull(/*server=*/0, blockOf(bytes), value,
                                           /*trainer=*/0, deadline()));
      }
    }
    Tensor firstRows(DType::I64, Shape{kMaxBatchRows});
    std::iota(firstRows.data<int64_t>(),
              firstRows.data<int64_t>() + kMaxBatchRows, 0);
    for (int64_t dim : kTableDims) {
      Tensor ids(DType::I64, Shape{kMaxBatchRows});
      Tensor rows(DType::F32, Shape{kMaxBatchRows, dim});
      for (int round = 0; round < 2; ++round) {
        ids.copyFrom(firstRows);
        rows.resize(Shape{kMaxBatchRows, dim});
        OPENKS_RETURN_IF_ERROR(grpc_->pushRows(
            /*server=*/0, tableBlockOf(dim), MessageKind::Grad, ids, rows,
            /*trainer=*/0, deadline()));
        OPENKS_RETURN_IF_ERROR(grpc_->flush(/*trainer=*/0, deadline()));
        OPENKS_RETURN_IF_ERROR(grpc_->pullRows(/*server=*/0, tableBlockOf(dim),
                                               firstRows, rows, /*trainer=*/0,
                                               deadline()));
      }
    }
    std::vector<char> buffer(kLargestBlock, 1);
    if (!tcpPush(tcp_, buffer.data(), kLargestBlock, 1) ||
        !tcpPull(tcp_, buffer.data(), kLargestBlock))
      return Status::internal("the TCP peer is gone");
    return Status::ok();
  }

  PeerProcess tcpProcess_, serverProcess_;
  int tcp_ = -1;
  std::shared_ptr<Cluster> cluster_;
  std::unique_ptr<Transport> grpc_;
  std::shared_ptr<ServerInstance> local_;
  std::unique_ptr<InProcessTransport> inProcess_;
};

/// Returns the peers of this process's benchmarks.
Peers &peers() {
  static Peers instance;
  return instance;
}

/// Reports GB/s and blocks/s given the blocks of `bytes` of one iteration.
void setRates(benchmark::State &state, int64_t bytes, int64_t blocks) {
  setBandwidth(state, bytes * blocks);
  state.counters["blocks/s"] =
      benchmark::Counter(static_cast<double>(blocks),
                         benchmark::Counter::kIsIterationInvariantRate);
}

/// Returns a buffer of `bytes` bytes, every page touched.
std::vector<char> touchedBuffer(int64_t bytes) {
  return std::vector<char>(bytes, 1);
}

/// Each iteration: `count` pushes of `range(0)` bytes through `transport`
/// to the server's block of that size, then a flush.
void pushBlocks(benchmark::State &state, Transport &transport, int count) {
  int64_t bytes = state.range(0);
  int block = blockOf(bytes);
  // The transport hands back a buffer of the same capacity, whose contents
  // serve as the next gradient.
  Tensor grad(DType::F32, Shape{floatsIn(bytes)});
  for (auto _ : state) {
    Status status = Status::ok();
    for (int push = 0; push < count && status.isOk(); ++push) {
      grad.resize(Shape{floatsIn(bytes)});
      status = transport.push(/*server=*/0, block, MessageKind::Grad, grad,
                              /*trainer=*/0, deadline());
    }
    if (status.isOk())
      status = transport.flush(/*trainer=*/0, deadline());
    if (failed(state, status))
      break;
  }
  setRates(state, bytes, count);
}

/// Each iteration: `count` writes of `range(0)` bytes to the TCP peer,
/// which reads them and answers with one byte.
void pushTcp(benchmark::State &state, int count) {
  int64_t bytes = state.range(0);
  std::vector<char> buffer = touchedBuffer(bytes);
  for (auto _ : state)
    if (!tcpPush(peers().tcp(), buffer.data(), bytes, count)) {
      state.SkipWithError("the TCP peer is gone");
      break;
    }
  setRates(state, bytes, count);
}

/// A push of a block through the gRPC transport and its flush.
void BM_GrpcPush(benchmark::State &state) {
  pushBlocks(state, peers().grpc(), 1);
}

/// The same bytes written to the TCP peer, and its answer.
void BM_TcpPush(benchmark::State &state) { pushTcp(state, 1); }

/// kBatch pushes of a small block through the gRPC transport and a flush.
void BM_GrpcPushBatch(benchmark::State &state) {
  pushBlocks(state, peers().grpc(), kBatch);
}

/// kBatch pushes of a small block through the in-process transport to the
/// same server in this process.
void BM_InProcessPushBatch(benchmark::State &state) {
  pushBlocks(state, peers().inProcess(), kBatch);
}

/// kBatch writes of the same bytes to the TCP peer, and its answer.
void BM_TcpPushBatch(benchmark::State &state) { pushTcp(state, kBatch); }

/// A pull of a block through the gRPC transport.
void BM_GrpcPull(benchmark::State &state) {
  int64_t bytes = state.range(0);
  int block = blockOf(bytes);
  Tensor value(DType::F32, Shape{floatsIn(bytes)});
  Transport &transport = peers().grpc();
  for (auto _ : state) {
    Status status =
        transport.pull(/*server=*/0, block, value, /*trainer=*/0, deadline());
    benchmark::DoNotOptimize(value.rawData());
    if (failed(state, status))
      break;
  }
  setRates(state, bytes, 1);
}

/// A 16-byte request to the TCP peer, answered with the block's bytes.
void BM_TcpPull(benchmark::State &state) {
  int64_t bytes = state.range(0);
  std::vector<char> buffer = touchedBuffer(bytes);
  for (auto _ : state) {
    if (!tcpPull(peers().tcp(), buffer.data(), bytes)) {
      state.SkipWithError("the TCP peer is gone");
      break;
    }
    benchmark::DoNotOptimize(buffer.data());
  }
  setRates(state, bytes, 1);
}

/// Each iteration: a push through `transport` of the row-sparse gradient of
/// a batch of `range(1)` rows of the table block of dimension `range(0)`,
/// which the server minimizes with Adagrad, then a flush.
void pushTableRows(benchmark::State &state, Transport &transport) {
  int64_t dim = state.range(0), count = state.range(1);
  int block = tableBlockOf(dim);
  Tensor ids(DType::I64, Shape{count});
  Tensor grad(DType::F32, Shape{count, dim});
  RowBatches batches(count);
  for (auto _ : state) {
    Status status =
        pushRowGradient(transport, block, batches.next(), ids, grad, dim);
    if (status.isOk())
      status = transport.flush(/*trainer=*/0, deadline());
    if (failed(state, status))
      break;
  }
  setRowRates(state, count, dim);
}

/// A prefetch of rows of a table block through the gRPC transport.
void BM_GrpcPullRows(benchmark::State &state) {
  pullTableRows(state, peers().grpc(), tableBlockOf(state.range(0)));
}

/// The same prefetch through the in-process transport to the same server
/// in this process.
void BM_InProcessPullRows(benchmark::State &state) {
  pullTableRows(state, peers().inProcess(), tableBlockOf(state.range(0)));
}

/// A push of the gradient of rows of a table block through the gRPC
/// transport, and its flush.
void BM_GrpcPushRows(benchmark::State &state) {
  pushTableRows(state, peers().grpc());
}

/// The same push through the in-process transport to the same server in
/// this process.
void BM_InProcessPushRows(benchmark::State &state) {
  pushTableRows(state, peers().inProcess());
}

/// The blocks of the bandwidth benchmarks.
void largeBlocks(benchmark::internal::Benchmark *benchmark) {
  for (int block = 0; block < kNumLargeBlocks; ++block)
    benchmark->Arg(kBlocks[block]);
}

/// The small blocks.
void smallBlocks(benchmark::internal::Benchmark *benchmark) {
  for (size_t block = kNumLargeBlocks; block < std::size(kBlocks); ++block)
    benchmark->Arg(kBlocks[block]);
}

/// Every benchmark crosses processes or threads: it is timed by the wall
/// clock.
void wallClock(benchmark::internal::Benchmark *benchmark) {
  benchmark->UseRealTime()->Unit(benchmark::kMicrosecond);
}

} // namespace

BENCHMARK(BM_TcpPush)->Apply(largeBlocks)->Apply(smallBlocks)->Apply(wallClock);
BENCHMARK(BM_GrpcPush)
    ->Apply(largeBlocks)
    ->Apply(smallBlocks)
    ->Apply(wallClock);
BENCHMARK(BM_TcpPull)->Apply(largeBlocks)->Apply(wallClock);
BENCHMARK(BM_GrpcPull)->Apply(largeBlocks)->Apply(wallClock);
BENCHMARK(BM_TcpPushBatch)->Apply(smallBlocks)->Apply(wallClock);
BENCHMARK(BM_GrpcPushBatch)->Apply(smallBlocks)->Apply(wallClock);
BENCHMARK(BM_InProcessPushBatch)->Apply(smallBlocks)->Apply(wallClock);
BENCHMARK(BM_GrpcPullRows)->Apply(tableShapes)->Apply(wallClock);
BENCHMARK(BM_InProcessPullRows)->Apply(tableShapes)->Apply(wallClock);
BENCHMARK(BM_GrpcPushRows)->Apply(tableShapes)->Apply(wallClock);
BENCHMARK(BM_InProcessPushRows)->Apply(tableShapes)->Apply(wallClock);

int main(int argc, char **argv) {
  // A peer that is gone fails the write, not the process.
  std::signal(SIGPIPE, SIG_IGN);
  // Freed memory is kept for the next allocation, in this process and the
  // peers it forks, as openks-run keeps it in a role's process.
  mallopt(M_MMAP_THRESHOLD, 32 << 20);
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;
  Status status = peers().start();
  if (status.isOk())
    benchmark::RunSpecifiedBenchmarks();
  if (Status stopped = peers().stop(); status.isOk())
    status = stopped;
  benchmark::Shutdown();
  if (status.isOk())
    return 0;
  std::fprintf(stderr, "openks-bench-grpc: %s\n", status.message().c_str());
  return 1;
}
