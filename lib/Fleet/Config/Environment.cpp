//===- Environment.cpp - Where role makers read variables -----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Fleet/Environment.h"

#include <cstdlib>
#include <limits>

using namespace openks;
using namespace openks::fleet;

Environment Environment::process() {
  return Environment([](const std::string &name) -> std::optional<std::string> {
    if (const char *value = std::getenv(name.c_str()))
      return std::string(value);
    return std::nullopt;
  });
}

Environment Environment::fromMap(std::map<std::string, std::string> variables) {
  return Environment([variables = std::move(variables)](const std::string &name)
                         -> std::optional<std::string> {
    auto it = variables.find(name);
    if (it == variables.end())
      return std::nullopt;
    return it->second;
  });
}

StatusOr<std::string> Environment::require(const std::string &name) const {
  std::optional<std::string> value = get(name);
  if (!value)
    return Status::invalidArgument("environment variable {} is not set", name);
  if (value->empty())
    return Status::invalidArgument("environment variable {} is empty", name);
  return *value;
}

StatusOr<int64_t> Environment::requireInteger(const std::string &name,
                                              int64_t min, int64_t max) const {
  StatusOr<std::string> value = require(name);
  if (!value)
    return value.status();
  return parseInteger(*value, min, max, "environment variable " + name);
}

StatusOr<int64_t> fleet::parseInteger(const std::string &text, int64_t min,
                                      int64_t max, const std::string &what) {
  size_t start = !text.empty() && text.front() == '-' ? 1 : 0;
  bool digits = text.size() > start;
  for (size_t i = start; i < text.size(); ++i)
    digits = digits && text[i] >= '0' && text[i] <= '9';
  if (!digits)
    return Status::invalidArgument("{} is '{}', not a decimal integer", what,
                                   text);
  // Accumulate as a negative number, which has room for every int64_t.
  int64_t value = 0;
  bool overflow = false;
  for (size_t i = start; i < text.size(); ++i) {
    int digit = text[i] - '0';
    if (value < (std::numeric_limits<int64_t>::min() + digit) / 10) {
      overflow = true;
      break;
    }
    value = value * 10 - digit;
  }
  if (!overflow && start == 0) {
    overflow = value == std::numeric_limits<int64_t>::min();
    value = -value;
  }
  if (overflow || value < min || value > max)
    return Status::outOfRange("{} is {}, outside [{}, {}]", what, text, min,
                              max);
  return value;
}
