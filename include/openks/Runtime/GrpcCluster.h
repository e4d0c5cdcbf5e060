//===- GrpcCluster.h - Roles of one job meeting over gRPC -------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cluster of a job whose roles are processes, on one host or many: a
// server publishes itself by serving gRPC on its endpoint (and only there);
// a trainer connects to every server's endpoint, waiting for those not yet
// up until its deadline, and gets a transport whose calls are gRPC calls.
// The worker barrier meets at server 0. Aborting the cluster tells every
// server it reaches.
//
// Every call carries the job's token and is refused (and logged by the
// server) without it. A trainer's first call to a server compares their
// jobs' fingerprints and is refused when they differ. Each trainer keeps a
// session with each server that says it is alive; a server that loses a
// session of a trainer that has not finished fails naming that trainer
// within the liveness window, whatever the job's timeout. Tensor values go
// as chunks of at most 4 MiB, so that no value is too large to send.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_GRPCCLUSTER_H
#define OPENKS_RUNTIME_GRPCCLUSTER_H

#include "openks/Runtime/Cluster.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace openks::runtime {

/// The files of a TLS set-up: every role presents `certificate` (with its
/// `privateKey`) and trusts the peers `rootCertificates` sign.
struct TlsFiles {
  std::string certificate;
  std::string privateKey;
  std::string rootCertificates;
};

/// How the roles of a job meet over gRPC.
struct GrpcClusterOptions {
  /// The secret every role of the job shares (OPENKS_JOB_TOKEN); required.
  std::string token;
  /// Mutual TLS instead of plain TCP, when given.
  std::optional<TlsFiles> tls;
  /// How long a peer may be silent (no heartbeat, no connection) before it
  /// counts as lost.
  std::chrono::milliseconds liveness{5000};
  /// How long a server that has ended keeps answering, so that its
  /// trainers get its last replies (or its failure).
  std::chrono::milliseconds drain{2000};
};

/// Returns a cluster that meets the job's other processes over gRPC;
/// fails when `options` are invalid (no token, unreadable TLS files).
StatusOr<std::shared_ptr<Cluster>>
createGrpcCluster(const GrpcClusterOptions &options);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_GRPCCLUSTER_H
