//===- LaunchPlan.cpp - The processes of a launched job -------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "LaunchPlan.h"

#include "openks/Support/Endpoint.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <optional>
#include <string_view>
#include <unistd.h>

using namespace openks;
using namespace openks::launch;

/// The variables a process's role is read from. Each process gets those of
/// its role and none of the others, whatever the launcher inherited.
static constexpr std::array<std::string_view, 10> kRoleVariables = {
    "TRAINING_ROLE",
    "PADDLE_PSERVERS_IP_PORT_LIST",
    "PADDLE_TRAINERS_NUM",
    "PADDLE_TRAINER_ENDPOINTS",
    "PADDLE_CURRENT_ENDPOINT",
    "PADDLE_TRAINER_ID",
    "POD_IP",
    "PADDLE_PORT",
    "OPENKS_ROLE_MAKER",
    "OPENKS_JOB_TOKEN"};

/// Proxy settings, which would send the roles' calls to each other through
/// a proxy (gRPC reads grpc_proxy, https_proxy and http_proxy).
static constexpr std::array<std::string_view, 5> kProxyVariables = {
    "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "grpc_proxy"};

static constexpr std::string_view kTokenVariable = "OPENKS_JOB_TOKEN";

/// The highest TCP port.
static constexpr int64_t kMaxPort = 65535;
/// The longest --timeout-s and --grace-s, so that deadlines cannot overflow.
static constexpr double kMaxSeconds = 1e6;

const char *openks::launch::roleKindName(RoleKind kind) {
  return kind == RoleKind::Server ? "server" : "trainer";
}

std::string RolePlan::name() const {
  return fmt::format("{} {}", roleKindName(kind), index);
}

/// Returns the name of a "NAME=value" entry.
static std::string_view variableName(std::string_view entry) {
  return entry.substr(0, entry.find('='));
}

/// Returns the value of `name` in `environment` ("NAME=value" each), if
/// it is there.
static std::optional<std::string_view>
findVariable(const std::vector<std::string> &environment,
             std::string_view name) {
  for (const std::string &entry : environment)
    if (entry.find('=') == name.size() && variableName(entry) == name)
      return std::string_view(entry).substr(name.size() + 1);
  return std::nullopt;
}

StatusOr<std::string>
openks::launch::jobToken(const std::vector<std::string> &environment) {
  if (std::optional<std::string_view> token =
          findVariable(environment, kTokenVariable)) {
    if (token->empty())
      return Status::invalidArgument(
          "environment variable {} is empty; unset it to have a token "
          "generated",
          kTokenVariable);
    return std::string(*token);
  }
  std::array<unsigned char, 16> bytes;
  int fd = ::open("/dev/urandom", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return Status::error(StatusCode::IOError, "cannot open /dev/urandom: {}",
                         std::strerror(errno));
  size_t filled = 0;
  while (filled < bytes.size()) {
    ssize_t got = ::read(fd, bytes.data() + filled, bytes.size() - filled);
    if (got < 0 && errno == EINTR)
      continue;
    if (got <= 0) {
      int error = got < 0 ? errno : EIO;
      ::close(fd);
      return Status::error(StatusCode::IOError, "cannot read /dev/urandom: {}",
                           std::strerror(error));
    }
    filled += static_cast<size_t>(got);
  }
  ::close(fd);
  std::string token;
  for (unsigned char byte : bytes)
    token += fmt::format("{:02x}", byte);
  return token;
}

/// Checks that `seconds`, the value of `option`, is a usable duration.
static Status checkSeconds(double seconds, std::string_view option) {
  if (std::isfinite(seconds) && seconds > 0 && seconds <= kMaxSeconds)
    return Status::ok();
  return Status::outOfRange(
      "{} must be more than 0 and at most {} seconds, not {}", option,
      kMaxSeconds, seconds);
}

/// Checks the options that do not depend on the host.
static Status checkOptions(const LaunchOptions &options) {
  if (options.command.empty())
    return Status::invalidArgument(
        "no command to run; give it after '--': openks-launch --servers M "
        "--trainers N -- COMMAND [ARGS...]");
  if (options.command.front().empty())
    return Status::invalidArgument("the command to run is an empty string");
  if (options.servers < 1 || options.trainers < 1)
    return Status::outOfRange("{} must be at least 1, not {}",
                              options.servers < 1 ? "--servers" : "--trainers",
                              options.servers < 1 ? options.servers
                                                  : options.trainers);
  if (options.startPort < 1 || options.startPort > kMaxPort)
    return Status::outOfRange("--start-port must be in [1, {}], not {}",
                              kMaxPort, options.startPort);
  // Each count is at most kMaxPort when the sum is taken: no overflow.
  if (options.servers > kMaxPort || options.trainers > kMaxPort ||
      options.startPort + options.servers + options.trainers - 1 > kMaxPort)
    return Status::outOfRange(
        "--servers {} and --trainers {} from --start-port {} need ports past "
        "{}",
        options.servers, options.trainers, options.startPort, kMaxPort);
  if (options.logDir.empty())
    return Status::invalidArgument("--log-dir is empty");
  OPENKS_RETURN_IF_ERROR(checkSeconds(options.timeoutSeconds, "--timeout-s"));
  return checkSeconds(options.graceSeconds, "--grace-s");
}

/// Parses --host with the first port; an IPv6 address may come without
/// brackets.
static StatusOr<Endpoint> parseHost(const LaunchOptions &options) {
  std::string host = options.host;
  if (host.find(':') != std::string::npos && host.front() != '[')
    host = "[" + host + "]";
  StatusOr<Endpoint> endpoint =
      parseEndpoint(fmt::format("{}:{}", host, options.startPort));
  if (!endpoint)
    return endpoint.status().withContext(
        fmt::format("--host '{}'", options.host));
  return endpoint;
}

/// Returns the canonical endpoints of `count` processes from `port` on.
static std::vector<std::string> endpointsFrom(Endpoint endpoint, int64_t port,
                                              int64_t count) {
  std::vector<std::string> endpoints;
  for (int64_t i = 0; i < count; ++i) {
    endpoint.port = static_cast<uint16_t>(port + i);
    endpoints.push_back(endpoint.str());
  }
  return endpoints;
}

StatusOr<LaunchPlan>
openks::launch::planLaunch(const LaunchOptions &options,
                           const std::vector<std::string> &environment,
                           const std::string &token) {
  OPENKS_RETURN_IF_ERROR(checkOptions(options));
  StatusOr<Endpoint> host = parseHost(options);
  if (!host)
    return host.status();
  std::vector<std::string> servers =
      endpointsFrom(*host, options.startPort, options.servers);
  std::vector<std::string> trainers = endpointsFrom(
      *host, options.startPort + options.servers, options.trainers);

  // What every process inherits: the launcher's environment without the
  // proxies and without any role variable of an enclosing job.
  std::vector<std::string> inherited;
  for (const std::string &entry : environment) {
    std::string_view name = variableName(entry);
    auto listed = [&](const auto &names) {
      return std::find(names.begin(), names.end(), name) != names.end();
    };
    if (!listed(kRoleVariables) && !listed(kProxyVariables))
      inherited.push_back(entry);
  }
  std::string serverList = fmt::format("{}", fmt::join(servers, ","));
  std::string trainerList = fmt::format("{}", fmt::join(trainers, ","));

  LaunchPlan plan;
  plan.options = options;
  for (RoleKind kind : {RoleKind::Server, RoleKind::Trainer}) {
    bool isServer = kind == RoleKind::Server;
    const std::vector<std::string> &endpoints = isServer ? servers : trainers;
    for (size_t index = 0; index < endpoints.size(); ++index) {
      RolePlan role;
      role.kind = kind;
      role.index = static_cast<int64_t>(index);
      role.endpoint = endpoints[index];
      role.logPath =
          (std::filesystem::path(options.logDir) /
           fmt::format("{}log.{}", isServer ? "server" : "worker", index))
              .string();
      role.environment = inherited;
      auto set = [&](std::string_view name, const std::string &value) {
        role.environment.push_back(fmt::format("{}={}", name, value));
      };
      set("TRAINING_ROLE", isServer ? "PSERVER" : "TRAINER");
      set("PADDLE_PSERVERS_IP_PORT_LIST", serverList);
      set("PADDLE_TRAINER_ENDPOINTS", trainerList);
      set("PADDLE_TRAINERS_NUM", std::to_string(options.trainers));
      set("PADDLE_CURRENT_ENDPOINT", role.endpoint);
      if (isServer) {
        set("POD_IP", host->host);
        set("PADDLE_PORT", std::to_string(options.startPort + role.index));
      } else {
        set("PADDLE_TRAINER_ID", std::to_string(index));
      }
      set("OPENKS_ROLE_MAKER", "paddlecloud");
      set(kTokenVariable, token);
      plan.roles.push_back(std::move(role));
    }
  }
  return plan;
}

Status openks::launch::createLogDirectory(const std::string &path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (!error && !std::filesystem::is_directory(path, error))
    error = std::make_error_code(std::errc::not_a_directory);
  if (error)
    return Status::error(StatusCode::IOError,
                         "cannot create the log directory '{}': {}", path,
                         error.message());
  return Status::ok();
}
