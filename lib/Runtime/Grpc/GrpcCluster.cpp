//===- GrpcCluster.cpp - Roles of one job meeting over gRPC ---------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/GrpcCluster.h"

#include "Frame.h"
#include "GrpcTransport.h"
#include "ParameterService.h"
#include "Protocol.h"

#include "openks/Support/Thread.h"

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>
#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <fstream>
#include <sstream>
#include <thread>

using namespace openks;
using namespace openks::runtime;
using namespace openks::runtime::grpc_wire;

namespace {
/// The PEM contents of a job's TLS files.
struct TlsKeys {
  std::string certificate, privateKey, rootCertificates;
};

/// A job's cluster over gRPC, as one process sees it: the servers it
/// publishes, and the servers its trainer connects to.
class GrpcCluster : public Cluster {
public:
  GrpcCluster(GrpcClusterOptions options, std::optional<TlsKeys> keys)
      : options_(std::move(options)), keys_(std::move(keys)),
        barrier_(std::make_shared<WorkerBarrier>()) {}
  ~GrpcCluster() override;

  Status publish(std::shared_ptr<ServerInstance> server) override;
  StatusOr<std::unique_ptr<Transport>> connect(const JobSpec &job, int trainer,
                                               Deadline deadline) override;
  Status workerBarrier(int worker, int workers, Deadline deadline) override;
  void abort(const Status &status) override;

private:
  /// Returns a channel to `endpoint`.
  std::shared_ptr<grpc::Channel> makeChannel(const std::string &endpoint) const;

  /// A server this process serves.
  struct Published {
    std::shared_ptr<ServerInstance> instance;
    std::unique_ptr<ParameterService> service;
    std::unique_ptr<grpc::Server> server;
  };

  GrpcClusterOptions options_;
  std::optional<TlsKeys> keys_;
  std::shared_ptr<WorkerBarrier> barrier_;

  std::mutex mutex_;
  Status failure_ = Status::ok();
  std::vector<Published> published_;
  /// The link to server 0, which keeps the worker barrier (a trainer's).
  std::unique_ptr<ServerLink> barrierLink_;
};
} // namespace

/// Returns the contents of the file `path`, named `what` in messages.
static StatusOr<std::string> readPem(const std::string &path,
                                     const char *what) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream contents;
  if (file)
    contents << file.rdbuf();
  if (!file || contents.str().empty())
    return Status::error(StatusCode::NotFound,
                         "cannot read the TLS {} file '{}'", what, path);
  return contents.str();
}

StatusOr<std::shared_ptr<Cluster>>
openks::runtime::createGrpcCluster(const GrpcClusterOptions &options) {
  if (options.token.empty())
    return Status::invalidArgument(
        "a job over gRPC needs a token: set OPENKS_JOB_TOKEN to the same "
        "secret for every role (openks-launch makes one)");
  if (options.liveness.count() <= 0 || options.drain.count() < 0)
    return Status::invalidArgument(
        "the liveness window must be positive and the drain time not "
        "negative");
  std::optional<TlsKeys> keys;
  if (options.tls) {
    StatusOr<std::string> certificate =
        readPem(options.tls->certificate, "certificate");
    if (!certificate)
      return certificate.status();
    StatusOr<std::string> key = readPem(options.tls->privateKey, "key");
    if (!key)
      return key.status();
    StatusOr<std::string> roots =
        readPem(options.tls->rootCertificates, "root certificate");
    if (!roots)
      return roots.status();
    keys = TlsKeys{std::move(*certificate), std::move(*key), std::move(*roots)};
  }
  return std::shared_ptr<Cluster>(new GrpcCluster(options, std::move(keys)));
}

GrpcCluster::~GrpcCluster() {
  std::vector<Published> published;
  Status failure = Status::ok();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    published = std::move(published_);
    failure = failure_;
  }
  barrierLink_.reset();
  if (published.empty())
    return;
  // A failed server keeps answering a while, so that its trainers hear why
  // rather than find it gone; then every server lets its calls under way
  // finish within the drain time.
  if (!failure.isOk())
    std::this_thread::sleep_for(options_.drain);
  auto deadline = std::chrono::system_clock::now() + options_.drain;
  for (Published &server : published) {
    server.service->beginShutdown();
    server.server->Shutdown(deadline);
  }
  for (Published &server : published)
    server.server->Wait();
}

std::shared_ptr<grpc::Channel>
GrpcCluster::makeChannel(const std::string &endpoint) const {
  grpc::ChannelArguments arguments;
  for (const auto &[name, value] : channelArguments(options_.liveness))
    arguments.SetInt(name, value);
  // Servers that start late are found quickly. (The minimum backoff stays
  // gRPC's: it is also the time a connection attempt is given, TLS
  // handshake included.)
  arguments.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
  arguments.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
  std::shared_ptr<grpc::ChannelCredentials> credentials;
  if (keys_) {
    grpc::SslCredentialsOptions ssl;
    ssl.pem_root_certs = keys_->rootCertificates;
    ssl.pem_private_key = keys_->privateKey;
    ssl.pem_cert_chain = keys_->certificate;
    credentials = grpc::SslCredentials(ssl);
  } else {
    credentials = grpc::InsecureChannelCredentials();
  }
  return grpc::CreateCustomChannel(endpoint, credentials, arguments);
}

Status GrpcCluster::publish(std::shared_ptr<ServerInstance> server) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!failure_.isOk())
    return failure_;
  const std::string &endpoint = server->endpoint();
  std::shared_ptr<grpc::ServerCredentials> credentials;
  if (keys_) {
    grpc::SslServerCredentialsOptions ssl(
        GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
    ssl.pem_root_certs = keys_->rootCertificates;
    ssl.pem_key_cert_pairs.push_back({keys_->privateKey, keys_->certificate});
    credentials = grpc::SslServerCredentials(ssl);
  } else {
    credentials = grpc::InsecureServerCredentials();
  }
  Published published;
  published.instance = server;
  published.service = std::make_unique<ParameterService>(
      server, options_.token, server->index() == 0 ? barrier_ : nullptr);
  grpc::ServerBuilder builder;
  int port = 0;
  builder.AddListeningPort(endpoint, credentials, &port);
  builder.RegisterService(published.service.get());
  for (const auto &[name, value] : channelArguments(options_.liveness))
    builder.AddChannelArgument(name, value);
  // One server per endpoint: another process's bind must fail.
  builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
  builder.SetMaxReceiveMessageSize(kMaxMessageBytes);
  // Calls wait in the server (barriers, sync pulls) and sessions last as
  // long as their trainers: threads that stay, rather than one made and
  // ended for each call that finds every poller busy.
  builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::NUM_CQS,
                              1);
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 4);
  builder.SetSyncServerOption(
      grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 64);
  published.server = builder.BuildAndStart();
  if (!published.server || port == 0)
    return Status::error(StatusCode::FailedPrecondition,
                         "{}: cannot listen at {}: the port is taken, or the "
                         "address is not one of this host's",
                         server->server().config().name, endpoint);
  published_.push_back(std::move(published));
  return Status::ok();
}

StatusOr<std::unique_ptr<Transport>>
GrpcCluster::connect(const JobSpec &job, int trainer, Deadline deadline) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.isOk())
      return failure_;
  }
  int servers = static_cast<int>(job.servers.size());
  std::vector<std::shared_ptr<grpc::Channel>> channels;
  std::vector<std::unique_ptr<ServerLink>> links;
  for (int server = 0; server < servers; ++server) {
    const std::string &endpoint = job.servers[server].endpoint;
    channels.push_back(makeChannel(endpoint));
    links.push_back(std::make_unique<ServerLink>(
        server, endpoint, channels.back(), options_.token));
  }
  // Every server is waited for at once.
  std::vector<Status> opened(servers, Status::ok());
  std::vector<Thread> threads;
  for (int server = 0; server < servers; ++server) {
    StatusOr<Thread> thread = Thread::start(
        fmt::format("connecting to {}", links[server]->peer()), [&, server] {
          opened[server] =
              links[server]->open(trainer, job.fingerprint, deadline);
        });
    if (!thread) {
      opened[server] = thread.status();
      continue;
    }
    threads.push_back(std::move(*thread));
  }
  for (Thread &thread : threads)
    thread.join();
  std::vector<std::string> absent;
  for (int server = 0; server < servers; ++server) {
    if (opened[server].code() == StatusCode::DeadlineExceeded)
      absent.push_back(job.servers[server].endpoint);
    else if (!opened[server].isOk())
      return opened[server];
  }
  if (!absent.empty())
    return Status::error(StatusCode::DeadlineExceeded,
                         "no server came at {} within {} ms (is it started, "
                         "and with the same TLS settings as this process?)",
                         fmt::join(absent, ", "), deadline.timeout().count());
  // The worker barrier is called through a link of its own, over the same
  // connection, so that it does not wait behind the trainer's pushes.
  auto barrierLink = std::make_unique<ServerLink>(
      0, job.servers[0].endpoint, channels.front(), options_.token);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    barrierLink_ = std::move(barrierLink);
  }
  return std::unique_ptr<Transport>(new GrpcTransport(std::move(links)));
}

Status GrpcCluster::workerBarrier(int worker, int workers, Deadline deadline) {
  ServerLink *link = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.isOk())
      return failure_;
    link = barrierLink_.get();
  }
  if (!link)
    return Status::error(StatusCode::FailedPrecondition,
                         "the worker barrier needs a connected trainer");
  wire::Control call;
  call.set_kind(wire::Control::WORKER_BARRIER);
  call.set_trainer(worker);
  call.set_workers(workers);
  return link->controlNow(call, deadline);
}

void GrpcCluster::abort(const Status &status) {
  std::vector<std::shared_ptr<ServerInstance>> servers;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_.isOk())
      return;
    failure_ = status;
    for (Published &published : published_)
      servers.push_back(published.instance);
  }
  barrier_->abort(status);
  for (const std::shared_ptr<ServerInstance> &server : servers)
    server->server().cancel(status);
}
