//===- Endpoint.cpp - host:port endpoints ---------------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Endpoint.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <set>

using namespace openks;

static bool isDigit(char c) { return c >= '0' && c <= '9'; }

static bool isNameChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
}

/// Returns the canonical form of a host name or dotted IPv4 address, or an
/// empty string when `host` is neither.
static std::string canonicalHost(std::string_view host) {
  if (host.empty() || host.size() > 253)
    return {};
  if (std::all_of(host.begin(), host.end(),
                  [](char c) { return isDigit(c) || c == '.'; })) {
    // A dotted quad: each part 0 to 255 without leading zeros.
    in_addr address;
    char text[INET_ADDRSTRLEN];
    std::string copy(host);
    if (inet_pton(AF_INET, copy.c_str(), &address) != 1 ||
        !inet_ntop(AF_INET, &address, text, sizeof(text)))
      return {};
    return text;
  }
  std::string name;
  size_t labelStart = 0;
  for (size_t i = 0; i <= host.size(); ++i) {
    if (i == host.size() || host[i] == '.') {
      size_t length = i - labelStart;
      if (length == 0 || length > 63)
        return {};
      labelStart = i + 1;
    } else if (!isNameChar(host[i])) {
      return {};
    }
  }
  for (char c : host)
    name.push_back(
        static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return name;
}

/// Returns the canonical form of an IPv6 address, or "" when it is not one.
static std::string canonicalIPv6(std::string_view host) {
  in6_addr address;
  char text[INET6_ADDRSTRLEN];
  std::string copy(host);
  if (copy.empty() || inet_pton(AF_INET6, copy.c_str(), &address) != 1 ||
      !inet_ntop(AF_INET6, &address, text, sizeof(text)))
    return {};
  return text;
}

std::string Endpoint::str() const {
  return ipv6 ? fmt::format("[{}]:{}", host, port)
              : fmt::format("{}:{}", host, port);
}

StatusOr<Endpoint> openks::parseEndpoint(std::string_view text) {
  std::string_view host, port;
  bool bracketed = !text.empty() && text.front() == '[';
  if (bracketed) {
    size_t close = text.find(']');
    if (close == std::string_view::npos)
      return Status::invalidArgument("endpoint '{}' has an unclosed '['", text);
    host = text.substr(1, close - 1);
    std::string_view rest = text.substr(close + 1);
    if (rest.empty() || rest.front() != ':')
      return Status::invalidArgument(
          "endpoint '{}' needs ':port' after the address", text);
    port = rest.substr(1);
  } else {
    size_t colon = text.rfind(':');
    if (colon == std::string_view::npos)
      return Status::invalidArgument(
          "endpoint '{}' must have the form host:port", text);
    host = text.substr(0, colon);
    port = text.substr(colon + 1);
  }

  Endpoint endpoint;
  endpoint.ipv6 = bracketed;
  endpoint.host = bracketed ? canonicalIPv6(host) : canonicalHost(host);
  if (endpoint.host.empty())
    return Status::invalidArgument(
        "endpoint '{}' has an invalid host '{}'{}", text, host,
        bracketed ? " (expected an IPv6 address)" : "");

  // Digits only; leading zeros are dropped, the value must fit a port.
  uint32_t value = 0;
  bool valid = !port.empty() && port.size() <= 8 &&
               std::all_of(port.begin(), port.end(), isDigit);
  if (valid)
    for (char c : port)
      value = value * 10 + static_cast<uint32_t>(c - '0');
  if (!valid || value == 0 || value > 65535)
    return Status::invalidArgument(
        "endpoint '{}' has an invalid port '{}' (expected 1 to 65535)", text,
        port);
  endpoint.port = static_cast<uint16_t>(value);
  return endpoint;
}

StatusOr<std::vector<std::string>>
openks::canonicalEndpointList(const std::vector<std::string> &endpoints,
                              std::string_view what) {
  if (endpoints.empty())
    return Status::invalidArgument("{} must not be empty", what);
  std::vector<std::string> canonical;
  std::set<std::string> seen;
  for (const std::string &text : endpoints) {
    StatusOr<Endpoint> endpoint = parseEndpoint(text);
    if (!endpoint)
      return endpoint.status();
    std::string name = endpoint->str();
    if (!seen.insert(name).second)
      return Status::invalidArgument(
          "{} list '{}' twice{}", what, name,
          name == text ? "" : fmt::format(" (as '{}')", text));
    canonical.push_back(std::move(name));
  }
  return canonical;
}
