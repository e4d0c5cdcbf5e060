//===- Endpoint.h - host:port endpoints -------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parameter servers are named by "host:port" endpoints, as in Paddle's
// PADDLE_PSERVERS_IP_PORT_LIST. IPv6 hosts are written in brackets
// ("[::1]:6170"). Endpoints are compared in canonical form, so
// "127.0.0.1:06170" and "127.0.0.1:6170" are the same server. Needs neither
// MLIR nor LLVM: the runtime core and the dialect verifiers share it.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_ENDPOINT_H
#define OPENKS_SUPPORT_ENDPOINT_H

#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace openks {

/// A parsed "host:port" endpoint.
struct Endpoint {
  /// The host in canonical form, without IPv6 brackets: a lower-case name,
  /// or an address as inet_ntop writes it.
  std::string host;
  /// TCP port, 1 to 65535.
  uint16_t port = 0;
  /// Whether `host` is an IPv6 address.
  bool ipv6 = false;

  /// Returns the canonical text: "host:port" or "[address]:port".
  std::string str() const;
  bool operator==(const Endpoint &other) const {
    return host == other.host && port == other.port;
  }
};

/// Parses "host:port". The host is a name (letters, digits, '-', '_' and
/// '.'-separated labels of at most 63 characters, 253 in all), a dotted IPv4
/// address, or an IPv6 address in brackets; the port is a decimal number in
/// [1, 65535]. Fails with an InvalidArgument naming `text` and what is wrong.
StatusOr<Endpoint> parseEndpoint(std::string_view text);

/// Returns the canonical form of every endpoint in `endpoints`, or an error
/// when the list is empty, an endpoint is malformed, or two denote the same
/// server. `what` names the list in messages (e.g. "server endpoints").
StatusOr<std::vector<std::string>>
canonicalEndpointList(const std::vector<std::string> &endpoints,
                      std::string_view what);

} // namespace openks

#endif // OPENKS_SUPPORT_ENDPOINT_H
