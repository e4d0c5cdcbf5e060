//===- Json.cpp - A small strict JSON reader ------------------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "Json.h"

#include <cstdint>
#include <set>

using namespace openks;
using namespace openks::fleet;
using namespace openks::fleet::json;

const Value *Value::find(std::string_view key) const {
  for (const Member &member : members)
    if (member.key == key)
      return &member.value;
  return nullptr;
}

bool Value::isInteger() const {
  return kind == Kind::Number && text.find_first_of(".eE") == std::string::npos;
}

const char *json::describeKind(Value::Kind kind) {
  switch (kind) {
  case Value::Kind::Null:
    return "null";
  case Value::Kind::Bool:
    return "a boolean";
  case Value::Kind::Number:
    return "a number";
  case Value::Kind::String:
    return "a string";
  case Value::Kind::Array:
    return "an array";
  case Value::Kind::Object:
    return "an object";
  }
  return "unknown";
}

namespace {
/// A recursive-descent parser over one text.
class Parser {
public:
  Parser(std::string_view text, int maxDepth)
      : text_(text), maxDepth_(maxDepth) {}

  StatusOr<Value> parseDocument() {
    Value value;
    skipSpace();
    if (!parseValue(value, 0))
      return error_;
    skipSpace();
    if (pos_ != text_.size()) {
      fail("unexpected text after the value");
      return error_;
    }
    return value;
  }

private:
  bool atEnd() const { return pos_ == text_.size(); }
  char peek() const { return atEnd() ? '\0' : text_[pos_]; }

  void skipSpace() {
    while (!atEnd() && (peek() == ' ' || peek() == '\t' || peek() == '\n' ||
                        peek() == '\r'))
      ++pos_;
  }

  /// Records an error at the current position; returns false.
  bool fail(const std::string &what) {
    size_t line = 1, column = 1;
    for (size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    error_ = Status::invalidArgument("invalid JSON at line {}, column {}: {}",
                                     line, column, what);
    return false;
  }

  bool expectWord(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word)
      return fail("expected a value");
    pos_ += word.size();
    return true;
  }

  bool parseValue(Value &value, int depth) {
    switch (peek()) {
    case '{':
      return parseObject(value, depth + 1);
    case '[':
      return parseArray(value, depth + 1);
    case '"':
      value.kind = Value::Kind::String;
      return parseString(value.text);
    case 't':
      value.kind = Value::Kind::Bool;
      value.boolean = true;
      return expectWord("true");
    case 'f':
      value.kind = Value::Kind::Bool;
      return expectWord("false");
    case 'n':
      return expectWord("null");
    default:
      if (peek() == '-' || (peek() >= '0' && peek() <= '9'))
        return parseNumber(value);
      return fail(atEnd() ? "unexpected end of text, expected a value"
                          : "expected a value");
    }
  }

  static bool isDigit(char c) { return c >= '0' && c <= '9'; }

  /// Skips one or more digits; fails naming `what` when there is none.
  bool digits(const char *what) {
    if (!isDigit(peek()))
      return fail(std::string("expected a digit in ") + what);
    while (isDigit(peek()))
      ++pos_;
    return true;
  }

  bool parseNumber(Value &value) {
    size_t start = pos_;
    if (peek() == '-')
      ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (isDigit(peek()))
        return fail("a number must not have leading zeros");
    } else if (!digits("a number")) {
      return false;
    }
    if (peek() == '.') {
      ++pos_;
      if (!digits("the fraction of a number"))
        return false;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-')
        ++pos_;
      if (!digits("the exponent of a number"))
        return false;
    }
    value.kind = Value::Kind::Number;
    value.text = std::string(text_.substr(start, pos_ - start));
    return true;
  }

  /// Reads the 4 hex digits of a \u escape into `unit`.
  bool hexUnit(uint32_t &unit) {
    unit = 0;
    for (int i = 0; i < 4; ++i, ++pos_) {
      char c = peek();
      int digit = isDigit(c)               ? c - '0'
                  : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                  : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                           : -1;
      if (digit < 0)
        return fail("expected 4 hex digits after \\u");
      unit = unit * 16 + static_cast<uint32_t>(digit);
    }
    return true;
  }

  static void appendUtf8(std::string &out, uint32_t code) {
    if (code < 0x80) {
      out.push_back(static_cast<char>(code));
    } else if (code < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (code >> 6)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else if (code < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (code >> 12)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (code >> 18)));
      out.push_back(static_cast<char>(0x80 | ((code >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((code >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (code & 0x3F)));
    }
  }

  bool parseEscape(std::string &out) {
    char c = peek();
    ++pos_;
    switch (c) {
    case '"':
    case '\\':
    case '/':
      out.push_back(c);
      return true;
    case 'b':
      out.push_back('\b');
      return true;
    case 'f':
      out.push_back('\f');
      return true;
    case 'n':
      out.push_back('\n');
      return true;
    case 'r':
      out.push_back('\r');
      return true;
    case 't':
      out.push_back('\t');
      return true;
    case 'u': {
      uint32_t unit;
      if (!hexUnit(unit))
        return false;
      if (unit >= 0xDC00 && unit <= 0xDFFF)
        return fail("a \\u escape has a low surrogate without a high one");
      if (unit >= 0xD800 && unit <= 0xDBFF) {
        uint32_t low;
        if (text_.substr(pos_, 2) != "\\u")
          return fail("a \\u escape has a high surrogate without a low one");
        pos_ += 2;
        if (!hexUnit(low))
          return false;
        if (low < 0xDC00 || low > 0xDFFF)
          return fail("a \\u escape has a high surrogate without a low one");
        unit = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00);
      }
      appendUtf8(out, unit);
      return true;
    }
    default:
      --pos_;
      return fail("invalid escape in a string");
    }
  }

  bool parseString(std::string &out) {
    ++pos_; // the opening quote
    while (true) {
      if (atEnd())
        return fail("unterminated string");
      char c = peek();
      if (c == '"') {
        ++pos_;
        return true;
      }
      if (static_cast<unsigned char>(c) < 0x20)
        return fail("a control character in a string must be escaped");
      ++pos_;
      if (c != '\\')
        out.push_back(c);
      else if (!parseEscape(out))
        return false;
    }
  }

  bool enter(int depth) {
    if (depth > maxDepth_)
      return fail("nested more than " + std::to_string(maxDepth_) +
                  " levels deep");
    ++pos_; // the opening bracket
    skipSpace();
    return true;
  }

  bool parseArray(Value &value, int depth) {
    value.kind = Value::Kind::Array;
    if (!enter(depth))
      return false;
    if (peek() == ']') {
      ++pos_;
      return true;
    }
    while (true) {
      value.elements.emplace_back();
      if (!parseValue(value.elements.back(), depth))
        return false;
      skipSpace();
      if (peek() == ']') {
        ++pos_;
        return true;
      }
      if (peek() != ',')
        return fail("expected ',' or ']' in an array");
      ++pos_;
      skipSpace();
    }
  }

  bool parseObject(Value &value, int depth) {
    value.kind = Value::Kind::Object;
    if (!enter(depth))
      return false;
    if (peek() == '}') {
      ++pos_;
      return true;
    }
    std::set<std::string> keys;
    while (true) {
      if (peek() != '"')
        return fail("expected a string key in an object");
      size_t keyPos = pos_;
      std::string key;
      if (!parseString(key))
        return false;
      if (!keys.insert(key).second) {
        pos_ = keyPos;
        return fail("duplicate key \"" + key + "\"");
      }
      skipSpace();
      if (peek() != ':')
        return fail("expected ':' after an object key");
      ++pos_;
      skipSpace();
      value.members.push_back(Member{std::move(key), Value()});
      if (!parseValue(value.members.back().value, depth))
        return false;
      skipSpace();
      if (peek() == '}') {
        ++pos_;
        return true;
      }
      if (peek() != ',')
        return fail("expected ',' or '}' in an object");
      ++pos_;
      skipSpace();
    }
  }

  std::string_view text_;
  int maxDepth_;
  size_t pos_ = 0;
  Status error_;
};
} // namespace

StatusOr<Value> json::parse(std::string_view text, int maxDepth) {
  return Parser(text, maxDepth).parseDocument();
}
