//===- EndpointTest.cpp - Tests of host:port parsing ----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Endpoint.h"

#include "gtest/gtest.h"

using namespace openks;

namespace {

/// Returns the error message of a failed parse, or "" on success.
std::string parseError(std::string_view text) {
  StatusOr<Endpoint> parsed = parseEndpoint(text);
  if (parsed)
    return "";
  EXPECT_EQ(parsed.status().code(), StatusCode::InvalidArgument);
  return parsed.status().message();
}

/// Returns the canonical form of `text`, or "error: ..." when it is invalid.
std::string canonical(std::string_view text) {
  StatusOr<Endpoint> parsed = parseEndpoint(text);
  return parsed ? parsed->str() : "error: " + parsed.status().message();
}

TEST(EndpointTest, ParsesHostAndPort) {
  StatusOr<Endpoint> parsed = parseEndpoint("127.0.0.1:6170");
  ASSERT_TRUE(parsed.isOk());
  EXPECT_EQ(parsed->host, "127.0.0.1");
  EXPECT_EQ(parsed->port, 6170);
  EXPECT_FALSE(parsed->ipv6);

  parsed = parseEndpoint("pserver-0.local:65535");
  ASSERT_TRUE(parsed.isOk());
  EXPECT_EQ(parsed->host, "pserver-0.local");
  EXPECT_EQ(parsed->port, 65535);
}

TEST(EndpointTest, ParsesBracketedIPv6) {
  StatusOr<Endpoint> parsed = parseEndpoint("[::1]:8080");
  ASSERT_TRUE(parsed.isOk());
  EXPECT_EQ(parsed->host, "::1");
  EXPECT_EQ(parsed->port, 8080);
  EXPECT_TRUE(parsed->ipv6);
  EXPECT_EQ(parsed->str(), "[::1]:8080");
}

TEST(EndpointTest, WritesTheCanonicalForm) {
  // The same server, however it is written.
  EXPECT_EQ(canonical("127.0.0.1:06170"), "127.0.0.1:6170");
  EXPECT_EQ(canonical("PServer-0.Local:80"), "pserver-0.local:80");
  EXPECT_EQ(canonical("[0:0:0:0:0:0:0:1]:1"), "[::1]:1");
  EXPECT_EQ(canonical("[2001:DB8::0001]:9"), "[2001:db8::1]:9");
  EXPECT_EQ(canonical("[::ffff:127.0.0.1]:9"), "[::ffff:127.0.0.1]:9");
}

TEST(EndpointTest, RejectsMalformedEndpoints) {
  EXPECT_NE(parseError("127.0.0.1").find("must have the form host:port"),
            std::string::npos);
  EXPECT_NE(parseError(":6170").find("invalid host ''"), std::string::npos);
  EXPECT_NE(parseError("a b:6170").find("invalid host"), std::string::npos);
  EXPECT_NE(parseError("[::1:6170").find("unclosed '['"), std::string::npos);
  EXPECT_NE(parseError("[::1]6170").find("needs ':port'"), std::string::npos);
  EXPECT_NE(parseError("[::1]").find("needs ':port'"), std::string::npos);
  for (const char *host :
       {"[host]:1", "[:]:6170", "[]:1", "[::1::2]:1", "[1.2.3.4]:1",
        "256.0.0.1:1", "127.0.0.01:1", "1.2.3:1", "a..b:1", ".a:1", "a.:1",
        "x:y:1", "h\xc3\xa9:1"})
    EXPECT_NE(parseError(host).find("invalid host"), std::string::npos)
        << "endpoint '" << host << "'";
  std::string longLabel(64, 'a');
  EXPECT_NE(parseError(longLabel + ":1").find("invalid host"),
            std::string::npos);
  EXPECT_EQ(parseError(std::string(63, 'a') + ":1"), "");
  for (const char *port :
       {"0", "00", "65536", "", "-1", "61x", "+80", " 80", "999999999999"})
    EXPECT_NE(parseError(std::string("h:") + port).find("invalid port"),
              std::string::npos)
        << "port '" << port << "'";
}

TEST(EndpointTest, ChecksEndpointListsInCanonicalForm) {
  StatusOr<std::vector<std::string>> list =
      canonicalEndpointList({"127.0.0.1:01", "127.0.0.1:2"}, "servers");
  ASSERT_TRUE(list.isOk());
  EXPECT_EQ(*list, (std::vector<std::string>{"127.0.0.1:1", "127.0.0.1:2"}));

  list = canonicalEndpointList({}, "servers");
  ASSERT_FALSE(list.isOk());
  EXPECT_EQ(list.status().message(), "servers must not be empty");

  list = canonicalEndpointList({"127.0.0.1:1", "127.0.0.1:1"}, "servers");
  ASSERT_FALSE(list.isOk());
  EXPECT_EQ(list.status().message(), "servers list '127.0.0.1:1' twice");

  // Two spellings of one server are one server.
  list =
      canonicalEndpointList({"127.0.0.1:6170", "127.0.0.1:06170"}, "servers");
  ASSERT_FALSE(list.isOk());
  EXPECT_EQ(list.status().message(),
            "servers list '127.0.0.1:6170' twice (as '127.0.0.1:06170')");

  list = canonicalEndpointList({"127.0.0.1"}, "servers");
  EXPECT_FALSE(list.isOk());
}

} // namespace
