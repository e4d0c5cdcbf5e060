//===- Json.h - A small strict JSON reader ----------------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Reads the JSON of TF_CONFIG without a new dependency: the grammar of
// RFC 8259 and nothing more (no comments, no trailing commas, no NaN), with
// duplicate object keys refused and a bound on nesting. Private to the Fleet
// library.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_FLEET_CONFIG_JSON_H
#define OPENKS_LIB_FLEET_CONFIG_JSON_H

#include "openks/Support/Status.h"

#include <string>
#include <string_view>
#include <vector>

namespace openks::fleet::json {

struct Member;

/// A parsed JSON value.
struct Value {
  enum class Kind { Null, Bool, Number, String, Array, Object };

  Kind kind = Kind::Null;
  /// Bool: the value.
  bool boolean = false;
  /// String: the decoded text (UTF-8); Number: the literal as written.
  std::string text;
  /// Array: the elements.
  std::vector<Value> elements;
  /// Object: the members in their order.
  std::vector<Member> members;

  /// Returns the member `key` of an object, or null when there is none.
  const Value *find(std::string_view key) const;
  /// Returns whether this is a number written as an integer (no fraction,
  /// no exponent).
  bool isInteger() const;
};

/// One "key": value pair of an object.
struct Member {
  std::string key;
  Value value;
};

/// Returns "null", "a boolean", "a number", "a string", "an array" or "an
/// object", for messages.
const char *describeKind(Value::Kind kind);

/// Parses `text`, which must hold exactly one JSON value (with whitespace
/// around it), nested at most `maxDepth` arrays and objects deep. Fails
/// with the line, the column and what was expected.
StatusOr<Value> parse(std::string_view text, int maxDepth = 64);

} // namespace openks::fleet::json

#endif // OPENKS_LIB_FLEET_CONFIG_JSON_H
