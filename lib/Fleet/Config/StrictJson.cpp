//===- StrictJson.cpp - JSON read strictly, errors with paths -------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "StrictJson.h"

#include <set>
#include <vector>

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::json;
using Json = nlohmann::json;

std::string Document::spelling(const std::string &path,
                               const Json &value) const {
  auto it = floatLiterals.find(path);
  return it != floatLiterals.end() ? it->second : value.dump();
}

std::string json::memberPath(const std::string &parent, std::string_view key) {
  return parent.empty() ? std::string(key) : parent + "." + std::string(key);
}

std::string json::elementPath(const std::string &parent, size_t index) {
  return fmt::format("{}[{}]", parent, index);
}

const char *json::describeType(const Json &value) {
  switch (value.type()) {
  case Json::value_t::null:
    return "null";
  case Json::value_t::boolean:
    return "a boolean";
  case Json::value_t::number_integer:
  case Json::value_t::number_unsigned:
  case Json::value_t::number_float:
    return "a number";
  case Json::value_t::string:
    return "a string";
  case Json::value_t::array:
    return "an array";
  case Json::value_t::object:
    return "an object";
  case Json::value_t::binary:
  case Json::value_t::discarded:
    break;
  }
  return "not JSON";
}

namespace {
/// Builds the document from nlohmann's SAX events, stopping at the first
/// key an object has twice or the first array or object nested too deep.
class StrictBuilder : public Json::json_sax_t {
public:
  StrictBuilder(std::string_view rootName, int maxDepth)
      : rootName_(rootName), maxDepth_(maxDepth) {}

  Document document;
  /// Why the text was refused, once a callback returned false.
  Status error;

  bool null() override { return add(nullptr); }
  bool boolean(bool value) override { return add(value); }
  bool number_integer(number_integer_t value) override { return add(value); }
  bool number_unsigned(number_unsigned_t value) override { return add(value); }
  bool number_float(number_float_t value, const string_t &literal) override {
    document.floatLiterals[nextPath()] = literal;
    return add(value);
  }
  bool string(string_t &value) override { return add(std::move(value)); }
  bool binary(binary_t &value) override {
    return add(Json::binary(std::move(value)));
  }

  bool start_object(std::size_t) override { return enter(Json::object()); }
  bool key(string_t &key) override {
    Frame &frame = frames_.back();
    if (!frame.keys.insert(key).second)
      return refuse(
          fmt::format("{} has the key \"{}\" twice", display(frame.path), key));
    frame.key = std::move(key);
    return true;
  }
  bool end_object() override { return leave(); }
  bool start_array(std::size_t) override { return enter(Json::array()); }
  bool end_array() override { return leave(); }

  bool parse_error(std::size_t, const std::string &,
                   const nlohmann::detail::exception &exception) override {
    // nlohmann's message is "[json.exception.parse_error.101] parse error
    // at line 1, column 2: syntax error while parsing ..."; keep its
    // position and what it expected.
    std::string_view what = exception.what();
    size_t at = what.find(" at line ");
    size_t close = what.find("] ");
    std::string_view detail = at != std::string_view::npos ? what.substr(at)
                              : close != std::string_view::npos
                                  ? what.substr(close + 1)
                                  : what;
    // What was last read may hold any byte: write the non-ASCII ones as
    // \xNN, so that the message stays printable text.
    std::string printable;
    for (char c : detail)
      if (static_cast<unsigned char>(c) < 0x80)
        printable.push_back(c);
      else
        printable += fmt::format("\\x{:02X}", static_cast<unsigned char>(c));
    error = Status::invalidArgument("invalid JSON{}", printable);
    return false;
  }

private:
  /// An array or object being read.
  struct Frame {
    Json *value;
    std::string path;
    /// Objects: the keys read so far, and the one whose value comes next.
    std::set<std::string> keys;
    std::string key;
  };

  std::string display(const std::string &path) const {
    return path.empty() ? rootName_ : path;
  }

  /// Returns the path of the value read next.
  std::string nextPath() const {
    if (frames_.empty())
      return "";
    const Frame &frame = frames_.back();
    return frame.value->is_object()
               ? memberPath(frame.path, frame.key)
               : elementPath(frame.path, frame.value->size());
  }

  /// Stores `value` where the next value goes; returns it there.
  Json *store(Json value) {
    if (frames_.empty()) {
      document.root = std::move(value);
      return &document.root;
    }
    Frame &frame = frames_.back();
    if (frame.value->is_object())
      return &((*frame.value)[frame.key] = std::move(value));
    frame.value->push_back(std::move(value));
    return &frame.value->back();
  }

  bool add(Json value) {
    store(std::move(value));
    return true;
  }

  bool enter(Json container) {
    if (static_cast<int>(frames_.size()) == maxDepth_)
      return refuse(fmt::format("arrays and objects are nested more than {} "
                                "levels deep",
                                maxDepth_));
    std::string path = nextPath();
    Json *value = store(std::move(container));
    frames_.push_back(Frame{value, std::move(path), {}, {}});
    return true;
  }

  bool leave() {
    frames_.pop_back();
    return true;
  }

  bool refuse(const std::string &why) {
    error = Status::invalidArgument("invalid JSON: {}", why);
    return false;
  }

  std::string rootName_;
  int maxDepth_;
  /// The arrays and objects being read, outermost first. Each points into
  /// its parent, which grows only once it is closed.
  std::vector<Frame> frames_;
};
} // namespace

StatusOr<Document> json::parse(std::string_view text, std::string_view rootName,
                               int maxDepth) {
  StrictBuilder builder(rootName, maxDepth);
  if (!Json::sax_parse(text, &builder))
    return builder.error;
  return std::move(builder.document);
}
