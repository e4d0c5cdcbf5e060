//===- StrictJson.h - JSON read strictly, errors with paths -----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads the JSON of TF_CONFIG with nlohmann-json, refusing what the library
// lets through: an object with a key twice (RFC 8259 leaves its meaning
// open; nlohmann keeps the last) and nesting deeper than a bound. A syntax
// error gives its line and column, any other error the path of the value.
// Paths name a member of the top-level value by its key and deeper values
// as "cluster.ps[1]". Private to the Fleet library.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_FLEET_CONFIG_STRICTJSON_H
#define OPENKS_LIB_FLEET_CONFIG_STRICTJSON_H

#include "openks/Support/Status.h"

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <string_view>

namespace openks::fleet::json {

/// A parsed JSON text, with the spelling of the numbers its values lose.
struct Document {
  nlohmann::json root;
  /// The text of every number read as a floating-point value (one with a
  /// fraction or an exponent, or an integer beyond 64 bits), by path.
  std::map<std::string, std::string> floatLiterals;

  /// Returns `value`, found at `path`, as the text spells it.
  std::string spelling(const std::string &path,
                       const nlohmann::json &value) const;
};

/// Returns the path of member `key` of the value at `parent`; "" is the
/// path of the top-level value.
std::string memberPath(const std::string &parent, std::string_view key);
/// Returns the path of element `index` of the array at `parent`.
std::string elementPath(const std::string &parent, size_t index);

/// Returns "null", "a boolean", "a number", "a string", "an array" or "an
/// object", for messages.
const char *describeType(const nlohmann::json &value);

/// Parses `text`, which must hold exactly one JSON value (RFC 8259: no
/// comments, no trailing commas, no NaN) with whitespace around it, no
/// object with a key twice, and arrays and objects nested at most
/// `maxDepth` deep. Messages call the top-level value `rootName`.
StatusOr<Document> parse(std::string_view text, std::string_view rootName,
                         int maxDepth = 64);

} // namespace openks::fleet::json

#endif // OPENKS_LIB_FLEET_CONFIG_STRICTJSON_H
