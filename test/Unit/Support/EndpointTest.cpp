//===- EndpointTest.cpp - Tests of host:port parsing ----------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Support/Endpoint.h"

#include "gtest/gtest.h"

using namespace openks;

namespace {

/// Returns the error message of a failed parse, or "" on success.
std::string parseError(llvm::StringRef text) {
  llvm::Expected<Endpoint> parsed = parseEndpoint(text);
  if (parsed)
    return "";
  return llvm::toString(parsed.takeError());
}

TEST(EndpointTest, ParsesHostAndPort) {
  llvm::Expected<Endpoint> parsed = parseEndpoint("127.0.0.1:6170");
  ASSERT_TRUE(static_cast<bool>(parsed));
  EXPECT_EQ(parsed->host, "127.0.0.1");
  EXPECT_EQ(parsed->port, 6170);

  parsed = parseEndpoint("pserver-0.local:65535");
  ASSERT_TRUE(static_cast<bool>(parsed));
  EXPECT_EQ(parsed->host, "pserver-0.local");
  EXPECT_EQ(parsed->port, 65535);
}

TEST(EndpointTest, ParsesBracketedIPv6) {
  llvm::Expected<Endpoint> parsed = parseEndpoint("[::1]:8080");
  ASSERT_TRUE(static_cast<bool>(parsed));
  EXPECT_EQ(parsed->host, "::1");
  EXPECT_EQ(parsed->port, 8080);
}

TEST(EndpointTest, RejectsMalformedEndpoints) {
  EXPECT_NE(parseError("127.0.0.1").find("must have the form host:port"),
            std::string::npos);
  EXPECT_NE(parseError(":6170").find("invalid host ''"), std::string::npos);
  EXPECT_NE(parseError("a b:6170").find("invalid host"), std::string::npos);
  EXPECT_NE(parseError("[::1:6170").find("unclosed '['"), std::string::npos);
  EXPECT_NE(parseError("[::1]6170").find("needs ':port'"), std::string::npos);
  EXPECT_NE(parseError("[host]:1").find("invalid host"), std::string::npos);
  for (const char *port : {"0", "65536", "", "-1", "61x", "+80"})
    EXPECT_NE(parseError(std::string("h:") + port).find("invalid port"),
              std::string::npos)
        << "port '" << port << "'";
}

TEST(EndpointTest, ChecksEndpointLists) {
  EXPECT_FALSE(static_cast<bool>(
      verifyEndpointList({"127.0.0.1:1", "127.0.0.1:2"}, "servers")));

  llvm::Error empty = verifyEndpointList({}, "servers");
  ASSERT_TRUE(static_cast<bool>(empty));
  EXPECT_EQ(llvm::toString(std::move(empty)), "servers must not be empty");

  llvm::Error twice =
      verifyEndpointList({"127.0.0.1:1", "127.0.0.1:1"}, "servers");
  ASSERT_TRUE(static_cast<bool>(twice));
  EXPECT_EQ(llvm::toString(std::move(twice)),
            "servers list '127.0.0.1:1' twice");

  llvm::Error malformed = verifyEndpointList({"127.0.0.1"}, "servers");
  ASSERT_TRUE(static_cast<bool>(malformed));
  llvm::consumeError(std::move(malformed));
}

} // namespace
