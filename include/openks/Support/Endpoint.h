//===- Endpoint.h - host:port endpoints -------------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Parameter servers are named by "host:port" endpoints, as in Paddle's
// PADDLE_PSERVERS_IP_PORT_LIST. IPv6 hosts are written in brackets
// ("[::1]:6170").
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_ENDPOINT_H
#define OPENKS_SUPPORT_ENDPOINT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include <cstdint>
#include <string>

namespace openks {

/// A parsed "host:port" endpoint.
struct Endpoint {
  /// Host name or address, without IPv6 brackets.
  std::string host;
  /// TCP port, 1 to 65535.
  uint16_t port = 0;
};

/// Parses "host:port". Fails with a message naming `text` when the host is
/// missing or malformed or the port is not a number in [1, 65535].
llvm::Expected<Endpoint> parseEndpoint(llvm::StringRef text);

/// Checks a list of endpoints: non-empty, each well formed, none repeated.
/// `what` names the list in messages (e.g. "pserver endpoints").
llvm::Error verifyEndpointList(llvm::ArrayRef<std::string> endpoints,
                               llvm::StringRef what);

} // namespace openks

#endif // OPENKS_SUPPORT_ENDPOINT_H
