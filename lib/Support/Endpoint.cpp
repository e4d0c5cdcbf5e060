//===- Endpoint.cpp - host:port endpoints ---------------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Endpoint.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include <fmt/format.h>

using namespace openks;

static llvm::Error makeError(std::string message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// Accepts host names and IPv4 addresses: letters, digits, '-', '.', '_'.
static bool isHostName(llvm::StringRef host) {
  return !host.empty() && llvm::all_of(host, [](char c) {
    return llvm::isAlnum(c) || c == '-' || c == '.' || c == '_';
  });
}

/// Accepts the characters of an IPv6 address (inside brackets).
static bool isIPv6Address(llvm::StringRef host) {
  return host.contains(':') && llvm::all_of(host, [](char c) {
           return llvm::isHexDigit(c) || c == ':' || c == '.';
         });
}

llvm::Expected<Endpoint> openks::parseEndpoint(llvm::StringRef text) {
  llvm::StringRef host, port;
  bool bracketed = text.starts_with("[");
  if (bracketed) {
    size_t close = text.find(']');
    if (close == llvm::StringRef::npos)
      return makeError(fmt::format("endpoint '{}' has an unclosed '['",
                                   text.str()));
    host = text.slice(1, close);
    llvm::StringRef rest = text.drop_front(close + 1);
    if (!rest.consume_front(":"))
      return makeError(
          fmt::format("endpoint '{}' needs ':port' after the address",
                      text.str()));
    port = rest;
  } else {
    size_t colon = text.rfind(':');
    if (colon == llvm::StringRef::npos)
      return makeError(fmt::format(
          "endpoint '{}' must have the form host:port", text.str()));
    host = text.take_front(colon);
    port = text.drop_front(colon + 1);
  }
  if (bracketed ? !isIPv6Address(host) : !isHostName(host))
    return makeError(fmt::format("endpoint '{}' has an invalid host '{}'",
                                 text.str(), host.str()));
  unsigned value = 0;
  if (port.empty() || !llvm::all_of(port, llvm::isDigit) ||
      port.getAsInteger(10, value) || value == 0 || value > 65535)
    return makeError(fmt::format(
        "endpoint '{}' has an invalid port '{}' (expected 1 to 65535)",
        text.str(), port.str()));
  return Endpoint{host.str(), static_cast<uint16_t>(value)};
}

llvm::Error openks::verifyEndpointList(llvm::ArrayRef<std::string> endpoints,
                                       llvm::StringRef what) {
  if (endpoints.empty())
    return makeError(fmt::format("{} must not be empty", what.str()));
  llvm::StringSet<> seen;
  for (const std::string &endpoint : endpoints) {
    if (llvm::Expected<Endpoint> parsed = parseEndpoint(endpoint); !parsed)
      return parsed.takeError();
    if (!seen.insert(endpoint).second)
      return makeError(fmt::format("{} list '{}' twice", what.str(), endpoint));
  }
  return llvm::Error::success();
}
