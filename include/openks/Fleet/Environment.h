//===- Environment.h - Where role makers read variables ---------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Role makers read their cluster description from environment variables set
// by a scheduler (PaddleCloud, Kubeflow, Slurm). They read them through an
// Environment, so that tests give them a map and never touch the process
// environment.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_FLEET_ENVIRONMENT_H
#define OPENKS_FLEET_ENVIRONMENT_H

#include "openks/Support/Status.h"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>

namespace openks::fleet {

/// A read-only view of environment variables.
class Environment {
public:
  /// Returns the value of a variable, or nothing when it is not set.
  using Lookup = std::function<std::optional<std::string>(const std::string &)>;

  explicit Environment(Lookup lookup) : lookup_(std::move(lookup)) {}

  /// Returns the environment of this process (getenv).
  static Environment process();
  /// Returns an environment holding exactly `variables`.
  static Environment fromMap(std::map<std::string, std::string> variables);

  /// Returns the value of `name`, or nothing when it is not set.
  std::optional<std::string> get(const std::string &name) const {
    return lookup_(name);
  }
  /// Returns whether `name` is set (possibly to "").
  bool has(const std::string &name) const { return get(name).has_value(); }

  /// Returns the value of `name`; fails naming the variable when it is not
  /// set or empty.
  StatusOr<std::string> require(const std::string &name) const;

  /// Returns the value of `name` as a decimal integer in [min, max]; fails
  /// naming the variable when it is not set, not a decimal integer (see
  /// parseInteger) or out of range.
  StatusOr<int64_t> requireInteger(const std::string &name, int64_t min,
                                   int64_t max) const;

private:
  Lookup lookup_;
};

/// Parses `text` as a decimal integer in [min, max] (digits only, with an
/// optional leading '-'); fails with a message naming `what`.
StatusOr<int64_t> parseInteger(const std::string &text, int64_t min,
                               int64_t max, const std::string &what);

} // namespace openks::fleet

#endif // OPENKS_FLEET_ENVIRONMENT_H
