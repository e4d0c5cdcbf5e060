//===- GrpcClusterTest.cpp - Roles of a job meeting over gRPC -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The roles of a job meet over real gRPC on free loopback ports, each with
// a cluster of its own, as separate processes would: a call without the
// job's token is refused and logged by the server, invalid cluster options
// are refused, mutual TLS trains exactly like the in-process job and keeps
// plaintext trainers out, a taken endpoint and absent servers are named,
// a server that loses a trainer fails naming it well before the job's
// timeout, a barrier, which the trainer does not wait for, reports its
// failure with the trainer's next call, and a step that outlasts the push
// stream a fetch barrier opened still pushes.
//
//===----------------------------------------------------------------------===//

#include "ApiJobTesting.h"
#include "Frame.h"
#include "Protocol.h"

#include "openks/Fleet/LocalRoleMaker.h"
#include "openks/Fleet/TranspilerFleet.h"
#include "openks/Runtime/GrpcCluster.h"
#include "openks/Runtime/InProcessCluster.h"

#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/impl/client_unary_call.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/support/sync_stream.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>
#include <thread>

using namespace mlir;
using namespace openks;
using namespace openks::fleet;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;
using namespace openks::testing;

namespace {

/// The token of the test job.
constexpr const char kToken[] = "a test job";

/// Returns the options of a role's fleet.
FleetOptions fleetOptions(std::chrono::milliseconds timeout = kTimeout) {
  FleetOptions options;
  options.timeout = timeout;
  options.maxBatch = kBatch;
  return options;
}

/// Returns the options of a cluster of the test job, over TLS when `tls` is
/// given; a failed server drains briefly, so that tests end quickly.
GrpcClusterOptions clusterOptions(std::optional<TlsFiles> tls = {}) {
  GrpcClusterOptions options;
  options.token = kToken;
  options.tls = std::move(tls);
  options.drain = std::chrono::milliseconds(200);
  return options;
}

/// Returns a new gRPC cluster of `options`, or null (a test failure) when it
/// cannot be made.
std::shared_ptr<Cluster> makeCluster(const GrpcClusterOptions &options) {
  StatusOr<std::shared_ptr<Cluster>> cluster = createGrpcCluster(options);
  EXPECT_TRUE(cluster) << cluster.status().message();
  return cluster ? *cluster : nullptr;
}

/// Returns "deadline exceeded: <message>", for failure messages.
std::string describe(const Status &status) {
  return fmt::format("{}: {}", statusCodeName(status.code()), status.message());
}

/// Expects `status` to have `code` and a message that contains `part`.
void expectError(const Status &status, StatusCode code,
                 const std::string &part) {
  EXPECT_EQ(status.code(), code) << describe(status);
  EXPECT_NE(status.message().find(part), std::string::npos)
      << "no '" << part << "' in: " << status.message();
}

/// Returns whether a line of `text` contains every one of `parts`.
bool hasLine(const std::string &text, const std::vector<std::string> &parts) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);)
    if (std::all_of(parts.begin(), parts.end(), [&](const std::string &part) {
          return line.find(part) != std::string::npos;
        }))
      return true;
  return false;
}

/// Server 0 of a job of the one server at an endpoint, serving (runServer)
/// in a thread of its own with a gRPC cluster of its own, as a server
/// process would. At the end it is aborted, if still serving, and waited
/// for.
class ServingRole {
public:
  ~ServingRole() { (void)stop(); }

  /// Sets up the server at `endpoint` of a job of `workers` workers and
  /// starts runServer, with a cluster of `grpcOptions` and a fleet of
  /// `options`.
  Status start(const std::string &endpoint, int workers,
               const GrpcClusterOptions &grpcOptions,
               const FleetOptions &options = fleetOptions()) {
    StatusOr<std::shared_ptr<Cluster>> made = createGrpcCluster(grpcOptions);
    if (!made)
      return made.status();
    cluster_ = std::move(*made);
    fleet_ = std::make_unique<TranspilerFleet>(cluster_, options);
    OPENKS_RETURN_IF_ERROR(
        setUpRole(*fleet_, program_, Role::Server, 0, {endpoint}, workers));
    OPENKS_RETURN_IF_ERROR(fleet_->initServer());
    thread_ = std::thread([this] { served_ = fleet_->runServer(); });
    return Status::ok();
  }

  /// Waits until runServer returns and returns its status.
  Status wait() {
    if (thread_.joinable())
      thread_.join();
    return served_;
  }

  /// Aborts the server's cluster ("the test is over"), then waits until
  /// runServer returns and returns its status.
  Status stop() {
    if (cluster_)
      cluster_->abort(Status::error(StatusCode::Cancelled, "the test is over"));
    return wait();
  }

  TranspilerFleet &fleet() { return *fleet_; }

private:
  /// The program outlives the fleet; the thread ends before either goes.
  RoleProgram program_;
  std::shared_ptr<Cluster> cluster_;
  std::unique_ptr<TranspilerFleet> fleet_;
  std::thread thread_;
  Status served_ = Status::ok();
};

/// Server 0 of a one-trainer job serving at a free loopback endpoint, and
/// trainer 0's transport to it, from a gRPC cluster of its own, as a
/// trainer process would connect.
struct ServedTrainer {
  /// Starts the server and connects the trainer.
  Status start() {
    std::vector<std::string> endpoints = freeLoopbackEndpoints(1);
    if (endpoints.size() != 1)
      return Status::error(StatusCode::ResourceExhausted,
                           "no free loopback port");
    OPENKS_RETURN_IF_ERROR(server.start(endpoints[0], 1, clusterOptions()));
    StatusOr<std::shared_ptr<Cluster>> made =
        createGrpcCluster(clusterOptions());
    if (!made)
      return made.status();
    cluster = std::move(*made);
    StatusOr<std::unique_ptr<Transport>> connected = cluster->connect(
        *server.fleet().job(), /*trainer=*/0, Deadline::after(kTimeout));
    if (!connected)
      return connected.status();
    transport = std::move(*connected);
    return Status::ok();
  }

  ServingRole server;
  std::shared_ptr<Cluster> cluster;
  std::unique_ptr<Transport> transport;
};

/// Returns a plaintext channel to `endpoint`.
std::shared_ptr<grpc::Channel> plainChannel(const std::string &endpoint) {
  return grpc::CreateChannel(endpoint, grpc::InsecureChannelCredentials());
}

/// Returns a context for a raw call, which waits for the server (it may
/// still be starting) for a few seconds and carries `token` when given.
std::unique_ptr<grpc::ClientContext>
rawContext(const std::optional<std::string> &token) {
  auto context = std::make_unique<grpc::ClientContext>();
  context->set_wait_for_ready(true);
  context->set_deadline(std::chrono::system_clock::now() +
                        std::chrono::seconds(10));
  if (token)
    context->AddMetadata(kTokenKey, *token);
  return context;
}

/// Calls Control on the server at `endpoint` as trainer 0 would reach the
/// worker barrier of a job of one worker (which passes at once), over
/// plaintext and with `token` when given, and returns gRPC's status.
grpc::Status callWorkerBarrier(const std::string &endpoint,
                               const std::optional<std::string> &token) {
  wire::Control call;
  call.set_kind(wire::Control::WORKER_BARRIER);
  call.set_trainer(0);
  call.set_workers(1);
  std::unique_ptr<grpc::ClientContext> context = rawContext(token);
  grpc::ByteBuffer reply;
  return grpc::internal::BlockingUnaryCall<grpc::ByteBuffer, grpc::ByteBuffer>(
      plainChannel(endpoint).get(), rpcMethod(Method::Control), context.get(),
      encodeFrame(call), &reply);
}

/// A socket listening at a loopback port the kernel chose, closed at the
/// end.
class ListeningSocket {
public:
  ListeningSocket() {
    socket_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t size = sizeof(address);
    auto *name = reinterpret_cast<sockaddr *>(&address);
    if (socket_ < 0 || ::bind(socket_, name, size) != 0 ||
        ::listen(socket_, 1) != 0 || ::getsockname(socket_, name, &size) != 0)
      return;
    endpoint_ = fmt::format("127.0.0.1:{}", ntohs(address.sin_port));
  }
  ~ListeningSocket() {
    if (socket_ >= 0)
      ::close(socket_);
  }
  ListeningSocket(const ListeningSocket &) = delete;
  ListeningSocket &operator=(const ListeningSocket &) = delete;

  /// Returns "127.0.0.1:<port>", or "" when the socket could not listen.
  const std::string &endpoint() const { return endpoint_; }

private:
  int socket_ = -1;
  std::string endpoint_;
};

/// A folder of its own under the system's temporary folder, removed with
/// its contents at the end.
class ScratchDir {
public:
  ScratchDir() {
    std::string path =
        (std::filesystem::temp_directory_path() / "openks-grpc-cluster-XXXXXX")
            .string();
    if (mkdtemp(path.data()))
      path_ = path;
  }
  ~ScratchDir() {
    if (!path_.empty())
      std::filesystem::remove_all(path_);
  }
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;

  /// Returns the folder's path, or "" when it could not be made.
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

/// Returns whether the openssl command line is there.
bool hasOpenssl() {
  return std::system("openssl version > /dev/null 2>&1") == 0;
}

/// Makes in `dir`, with the openssl command line, a certificate authority
/// and a certificate it signs for IP 127.0.0.1 and the name localhost, for
/// both ends of a connection; returns the TLS files of a role that presents
/// that certificate and trusts that authority, or openssl's output when it
/// failed.
StatusOr<TlsFiles> makeTlsFiles(const std::string &dir) {
  const char *newKey =
      "-newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes";
  std::string log = dir + "/openssl.log";
  std::string command = fmt::format(
      "( cd '{0}' && "
      "openssl req -x509 {1} -keyout ca.key -out ca.pem -days 2 "
      "-subj '/CN=OpenKS test CA' "
      "-addext 'basicConstraints=critical,CA:TRUE' "
      "-addext 'keyUsage=critical,keyCertSign,cRLSign' && "
      "openssl req {1} -keyout role.key -out role.csr -subj '/CN=localhost' && "
      "printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\\n"
      "extendedKeyUsage=serverAuth,clientAuth\\n' > role.ext && "
      "openssl x509 -req -in role.csr -CA ca.pem -CAkey ca.key "
      "-CAcreateserial -days 2 -extfile role.ext -out role.pem ) > '{2}' 2>&1",
      dir, newKey, log);
  if (std::system(command.c_str()) != 0) {
    std::stringstream output;
    output << std::ifstream(log).rdbuf();
    return Status::error(StatusCode::Internal, "openssl failed:\n{}",
                         output.str());
  }
  return TlsFiles{dir + "/role.pem", dir + "/role.key", dir + "/ca.pem"};
}

class GrpcClusterTest : public JobTest {};

TEST_F(GrpcClusterTest, ACallWithoutTheJobsTokenIsRefusedAndLogged) {
  std::vector<std::string> endpoints = freeLoopbackEndpoints(1);
  ASSERT_EQ(endpoints.size(), 1u) << "no free loopback port";
  ServingRole server;
  Status started = server.start(endpoints[0], 1, clusterOptions());
  ASSERT_TRUE(started.isOk()) << describe(started);

  // With the token, the call is answered: the refusals below are the
  // token's doing, not the call's.
  grpc::Status admitted = callWorkerBarrier(endpoints[0], kToken);
  EXPECT_TRUE(admitted.ok()) << admitted.error_message();

  ::testing::internal::CaptureStderr();
  grpc::Status anonymous = callWorkerBarrier(endpoints[0], std::nullopt);
  grpc::Status stranger = callWorkerBarrier(endpoints[0], "another job");
  std::string log = ::testing::internal::GetCapturedStderr();

  EXPECT_EQ(anonymous.error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << anonymous.error_message();
  EXPECT_NE(anonymous.error_message().find("it carries no job token"),
            std::string::npos)
      << anonymous.error_message();
  EXPECT_NE(anonymous.error_message().find("OPENKS_JOB_TOKEN"),
            std::string::npos)
      << anonymous.error_message();
  EXPECT_EQ(stranger.error_code(), grpc::StatusCode::UNAUTHENTICATED)
      << stranger.error_message();
  EXPECT_NE(stranger.error_message().find("it carries another job's token"),
            std::string::npos)
      << stranger.error_message();
  // Each refusal is a line of the server's log, naming the server, the
  // method and why.
  for (const char *why :
       {"it carries no job token", "it carries another job's token"})
    EXPECT_TRUE(hasLine(log, {endpoints[0], "refused a call to Control", why}))
        << "no refusal '" << why << "' in the log:\n"
        << log;
  // The refused calls did not fail the server: it served until aborted.
  Status served = server.stop();
  expectError(served, StatusCode::PeerLost, "the test is over");
}

TEST_F(GrpcClusterTest, InvalidOptionsAreRefusedNamingWhatIsWrong) {
  GrpcClusterOptions noToken = clusterOptions();
  noToken.token.clear();
  expectError(createGrpcCluster(noToken).status(), StatusCode::InvalidArgument,
              "OPENKS_JOB_TOKEN");

  for (int64_t liveness : {0, -1000}) {
    GrpcClusterOptions options = clusterOptions();
    options.liveness = std::chrono::milliseconds(liveness);
    expectError(createGrpcCluster(options).status(),
                StatusCode::InvalidArgument,
                "liveness window must be positive");
  }

  // Each TLS file is read when the cluster is made; the first that cannot
  // be is named.
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty()) << "cannot make a temporary folder";
  std::string readable = scratch.path() + "/readable.pem";
  std::ofstream(readable) << "some bytes\n";
  std::string missing = scratch.path() + "/missing.pem";
  std::vector<std::pair<TlsFiles, std::string>> cases = {
      {{missing, readable, readable}, "certificate"},
      {{readable, missing, readable}, "key"},
      {{readable, readable, missing}, "root certificate"},
  };
  for (const auto &[files, what] : cases) {
    Status status = createGrpcCluster(clusterOptions(files)).status();
    expectError(status, StatusCode::NotFound, "'" + missing + "'");
    expectError(status, StatusCode::NotFound, fmt::format("TLS {} file", what));
  }
  // An empty file is no better than none.
  std::string empty = scratch.path() + "/empty.pem";
  std::ofstream(empty).flush();
  expectError(
      createGrpcCluster(clusterOptions(TlsFiles{readable, readable, empty}))
          .status(),
      StatusCode::NotFound, "'" + empty + "'");
}

TEST_F(GrpcClusterTest, MutualTlsTrainsExactlyLikeTheInProcessJob) {
  if (!hasOpenssl())
    GTEST_SKIP() << "no openssl command to make certificates with";
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty()) << "cannot make a temporary folder";
  StatusOr<TlsFiles> tls = makeTlsFiles(scratch.path());
  ASSERT_TRUE(tls) << tls.status().message();
  std::vector<std::string> endpoints = freeLoopbackEndpoints(1);
  ASSERT_EQ(endpoints.size(), 1u) << "no free loopback port";
  const int workers = 1, steps = 3;
  std::unique_ptr<ApiJob> overTls = runThroughApi(
      fleetOptions(), endpoints, workers, steps, "", doNothing, doNothing,
      [&] { return makeCluster(clusterOptions(*tls)); });
  std::unique_ptr<ApiJob> reference =
      runThroughApi(fleetOptions(), endpoints, workers, steps, "", doNothing,
                    doNothing, sharedInProcessCluster());
  const WorkerRole *tlsWorker = overTls->fleets[1]->worker();
  const WorkerRole *localWorker = reference->fleets[1]->worker();
  ASSERT_TRUE(tlsWorker && localWorker);
  StatusOr<std::vector<ParameterDifference>> differences =
      compareParameters(tlsWorker->store(), localWorker->store());
  ASSERT_TRUE(differences) << describe(differences.status());
  ASSERT_FALSE(differences->empty());
  for (const ParameterDifference &difference : *differences)
    EXPECT_EQ(difference.relative, 0) << difference.name;
  EXPECT_EQ(overTls->fleets[0]->server()->server().stats().steps, steps);
}

TEST_F(GrpcClusterTest, APlaintextTrainerCannotJoinATlsServer) {
  if (!hasOpenssl())
    GTEST_SKIP() << "no openssl command to make certificates with";
  ScratchDir scratch;
  ASSERT_FALSE(scratch.path().empty()) << "cannot make a temporary folder";
  StatusOr<TlsFiles> tls = makeTlsFiles(scratch.path());
  ASSERT_TRUE(tls) << tls.status().message();
  std::vector<std::string> endpoints = freeLoopbackEndpoints(1);
  ASSERT_EQ(endpoints.size(), 1u) << "no free loopback port";
  ServingRole server;
  Status started = server.start(endpoints[0], 1, clusterOptions(*tls));
  ASSERT_TRUE(started.isOk()) << describe(started);

  RoleProgram program;
  TranspilerFleet worker(makeCluster(clusterOptions()),
                         fleetOptions(std::chrono::milliseconds(3000)));
  ASSERT_TRUE(setUpRole(worker, program, Role::Worker, 0, endpoints, 1).isOk());
  Status status = worker.initWorker();
  // The TLS server never completes a handshake with it: to the trainer, no
  // server came.
  expectError(status, StatusCode::DeadlineExceeded,
              fmt::format("no server came at {} within 3000 ms", endpoints[0]));
  // The server did not count it as a trainer: it served until aborted.
  expectError(server.stop(), StatusCode::PeerLost, "the test is over");
}

TEST_F(GrpcClusterTest, PublishingOnATakenEndpointFailsNamingIt) {
  ListeningSocket taken;
  ASSERT_FALSE(taken.endpoint().empty()) << "cannot listen at a loopback port";
  RoleProgram program;
  // Were the endpoint published after all, the server would fail within
  // its timeout for want of trainers.
  TranspilerFleet server(makeCluster(clusterOptions()),
                         fleetOptions(std::chrono::milliseconds(2000)));
  ASSERT_TRUE(setUpRole(server, program, Role::Server, 0, {taken.endpoint()}, 1)
                  .isOk());
  ASSERT_TRUE(server.initServer().isOk());
  expectError(
      server.runServer(), StatusCode::FailedPrecondition,
      fmt::format("cannot listen at {}: the port is taken", taken.endpoint()));
}

TEST_F(GrpcClusterTest, ATrainerWhoseServersNeverComeFailsAtItsDeadline) {
  std::vector<std::string> endpoints = freeLoopbackEndpoints(2);
  ASSERT_EQ(endpoints.size(), 2u) << "no free loopback ports";
  RoleProgram program;
  TranspilerFleet worker(makeCluster(clusterOptions()),
                         fleetOptions(std::chrono::milliseconds(500)));
  ASSERT_TRUE(setUpRole(worker, program, Role::Worker, 0, endpoints, 1).isOk());
  expectError(worker.initWorker(), StatusCode::DeadlineExceeded,
              fmt::format("no server came at {}, {} within 500 ms",
                          endpoints[0], endpoints[1]));
}

TEST_F(GrpcClusterTest,
       ASessionCutWithoutAGoodbyeFailsTheServerNamingTheTrainer) {
  std::vector<std::string> endpoints = freeLoopbackEndpoints(1);
  ASSERT_EQ(endpoints.size(), 1u) << "no free loopback port";
  ServingRole server;
  Status started = server.start(endpoints[0], 1, clusterOptions());
  ASSERT_TRUE(started.isOk()) << describe(started);

  // Trainer 0's session, opened as its link opens it, then cut as by the
  // end of its process.
  using Factory = grpc::internal::ClientReaderWriterFactory<grpc::ByteBuffer,
                                                            grpc::ByteBuffer>;
  std::shared_ptr<grpc::Channel> channel = plainChannel(endpoints[0]);
  std::unique_ptr<grpc::ClientContext> context = rawContext(kToken);
  std::unique_ptr<grpc::ClientReaderWriter<grpc::ByteBuffer, grpc::ByteBuffer>>
      session(Factory::Create(channel.get(), rpcMethod(Method::Session),
                              context.get()));
  wire::Hello hello;
  hello.set_trainer(0);
  hello.set_fingerprint(server.fleet().job()->fingerprint);
  hello.set_server(0);
  grpc::ByteBuffer reply;
  ASSERT_TRUE(session->Write(encodeFrame(hello)) && session->Read(&reply))
      << session->Finish().error_message();
  context->TryCancel();
  (void)session->Finish();
  expectError(server.wait(), StatusCode::PeerLost,
              "trainer 0 is lost: its connection closed without a goodbye");
}

TEST_F(GrpcClusterTest, ATrainerGoneWithoutStopWorkerFailsTheServerNamingIt) {
  std::vector<std::string> endpoints = freeLoopbackEndpoints(1);
  ASSERT_EQ(endpoints.size(), 1u) << "no free loopback port";
  ServingRole server;
  Status started = server.start(endpoints[0], 1, clusterOptions());
  ASSERT_TRUE(started.isOk()) << describe(started);

  // The trainer takes a step, then its fleet, transport and cluster are
  // destroyed without stopWorker, as when its program returns early.
  RoleProgram program;
  auto worker = std::make_unique<TranspilerFleet>(makeCluster(clusterOptions()),
                                                  fleetOptions());
  ASSERT_TRUE(
      setUpRole(*worker, program, Role::Worker, 0, endpoints, 1).isOk());
  StatusOr<std::unique_ptr<DataSource>> data = worker->openData(kOddShapesData);
  ASSERT_TRUE(data) << describe(data.status());
  Status initialized = worker->initWorker();
  ASSERT_TRUE(initialized.isOk()) << describe(initialized);
  StatusOr<double> loss = worker->trainStep(**data, kBatch);
  ASSERT_TRUE(loss) << describe(loss.status());
  worker.reset();
  // The fleet's destructor aborts over gRPC: the server fails at once with
  // its message, not at the end of the liveness window ("trainer 0 is
  // lost") nor of the job's timeout (a DeadlineExceeded naming the send
  // barrier).
  expectError(server.wait(), StatusCode::PeerLost,
              "trainer 0 failed: local role maker (worker 0 of 1 servers and "
              "1 workers): its fleet was destroyed before Fleet::stopWorker");
}

TEST_F(GrpcClusterTest, ABarrierFailureComesWithTheTrainersNextCall) {
  ServedTrainer trainer;
  Status started = trainer.start();
  ASSERT_TRUE(started.isOk()) << describe(started);
  Transport &transport = *trainer.transport;

  // A send barrier before the trainer has fetched the initial parameters
  // waits on the server, but not in the trainer: the barrier is queued
  // after the trainer's pushes, and its failure (here its deadline passes
  // on the server) comes with the trainer's next call.
  Status posted = transport.sendBarrier(
      0, 0, Deadline::after(std::chrono::milliseconds(300)));
  EXPECT_TRUE(posted.isOk()) << describe(posted);
  // Either side may see the deadline first.
  Status flushed = transport.flush(0, Deadline::after(kTimeout));
  EXPECT_EQ(flushed.code(), StatusCode::DeadlineExceeded) << describe(flushed);
  // Reported once: the link goes on.
  Status completed = transport.complete(0, 0, Deadline::after(kTimeout));
  EXPECT_TRUE(completed.isOk()) << describe(completed);
  EXPECT_TRUE(trainer.server.wait().isOk());
}

TEST_F(GrpcClusterTest, AStepLongerThanAFetchBarriersDeadlineStillPushes) {
  ServedTrainer trainer;
  Status started = trainer.start();
  ASSERT_TRUE(started.isOk()) << describe(started);
  Transport &transport = *trainer.transport;
  const JobSpec &job = *trainer.server.fleet().job();

  // The fetch barrier of the initial parameters goes on a push stream that
  // the step's pushes would share; the step outlasts the barrier's
  // deadline, so its pushes need a stream of their own.
  Status fetched = transport.fetchBarrier(
      0, 0, Deadline::after(std::chrono::milliseconds(200)));
  ASSERT_TRUE(fetched.isOk()) << describe(fetched);
  std::this_thread::sleep_for(std::chrono::milliseconds(400));
  const ServerProgramSpec &program = *job.servers[0].program;
  int pushed = 0;
  for (size_t block = 0; block < program.blocks.size(); ++block) {
    if (program.blocks[block].updateKind != MessageKind::Grad)
      continue;
    const BlockLayout &layout = job.servers[0].layout[block];
    StatusOr<Tensor> gradient = Tensor::allocate(layout.dtype, layout.shape);
    ASSERT_TRUE(gradient) << describe(gradient.status());
    Status status =
        transport.push(0, static_cast<int>(block), MessageKind::Grad, *gradient,
                       0, Deadline::after(kTimeout));
    ASSERT_TRUE(status.isOk()) << describe(status);
    ++pushed;
  }
  ASSERT_GT(pushed, 0) << "the job's server updates no block";
  Status sent = transport.sendBarrier(0, 0, Deadline::after(kTimeout));
  ASSERT_TRUE(sent.isOk()) << describe(sent);
  Status flushed = transport.flush(0, Deadline::after(kTimeout));
  EXPECT_TRUE(flushed.isOk()) << describe(flushed);
  Status completed = transport.complete(0, 0, Deadline::after(kTimeout));
  EXPECT_TRUE(completed.isOk()) << describe(completed);
  EXPECT_TRUE(trainer.server.wait().isOk());
}

} // namespace
