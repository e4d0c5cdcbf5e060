//===- WireCheck.cpp - Locate damage in protobuf wire data ----------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "WireCheck.h"

#include "llvm/ADT/Twine.h"

#include <google/protobuf/descriptor.h>

using namespace openks::interop;
using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

namespace {

/// The protobuf wire types.
enum WireType : unsigned {
  kVarint = 0,
  kFixed64 = 1,
  kLengthDelimited = 2,
  kStartGroup = 3,
  kEndGroup = 4,
  kFixed32 = 5,
};

/// How deep groups (of fields outside the schema) may nest.
constexpr int kMaxGroupDepth = 32;

/// Walks one buffer, recording the first defect it meets and tallying
/// what it holds.
class WireChecker {
public:
  WireChecker(llvm::StringRef bytes, llvm::StringRef rootName, WireTally &tally)
      : base(bytes.bytes_begin()), rootName(rootName), tally(tally) {}

  /// Checks the `descriptor` message in [begin, end); `path` names it.
  bool checkMessage(const Descriptor *descriptor, const uint8_t *begin,
                    const uint8_t *end, const std::string &path);

  std::string takeError() { return std::move(error); }

private:
  /// Records a defect at `at` in `path` and returns false.
  bool fail(const uint8_t *at, const std::string &path,
            const llvm::Twine &what);

  /// Reads a varint at `p`, advancing it; false if incomplete or too long.
  static bool readVarint(const uint8_t *&p, const uint8_t *end,
                         uint64_t &value);

  /// Records a varint at `start` that `readVarint` refused; `what` names
  /// it ("field 3 ('i')", "a tag").
  bool failVarint(const uint8_t *start, const uint8_t *stop, const uint8_t *end,
                  const std::string &path, const llvm::Twine &what) {
    if (stop == end)
      return fail(start, path, "truncated: " + what + " is incomplete");
    return fail(start, path, what + " is longer than 10 bytes");
  }

  /// Checks the value of a field with wire type `wireType` starting at `p`
  /// and advances `p` past it. `field` is null for fields outside the
  /// schema; `fieldNumber` is the tag's.
  bool checkField(const FieldDescriptor *field, uint32_t fieldNumber,
                  unsigned wireType, const uint8_t *&p, const uint8_t *end,
                  const std::string &path, const std::string &fieldPath,
                  int groupDepth);

  /// Checks an enum value of `field`.
  bool checkEnumValue(const FieldDescriptor *field, uint64_t value,
                      const uint8_t *at, const std::string &path);

  const uint8_t *base;
  /// What the top-level message is called in messages.
  llvm::StringRef rootName;
  WireTally &tally;
  std::string error;
};

} // namespace

/// Returns the wire type protobuf writes `field` with, unpacked.
static unsigned getWireType(const FieldDescriptor *field) {
  switch (field->type()) {
  case FieldDescriptor::TYPE_DOUBLE:
  case FieldDescriptor::TYPE_FIXED64:
  case FieldDescriptor::TYPE_SFIXED64:
    return kFixed64;
  case FieldDescriptor::TYPE_FLOAT:
  case FieldDescriptor::TYPE_FIXED32:
  case FieldDescriptor::TYPE_SFIXED32:
    return kFixed32;
  case FieldDescriptor::TYPE_STRING:
  case FieldDescriptor::TYPE_BYTES:
  case FieldDescriptor::TYPE_MESSAGE:
    return kLengthDelimited;
  case FieldDescriptor::TYPE_GROUP:
    return kStartGroup;
  default:
    return kVarint;
  }
}

static std::string getWireTypeName(unsigned wireType) {
  static const char *const kNames[] = {"varint",           "fixed64",
                                       "length-delimited", "start-group",
                                       "end-group",        "fixed32"};
  if (wireType < std::size(kNames))
    return kNames[wireType];
  return "invalid wire type " + std::to_string(wireType);
}

/// Returns how a field reads in messages: "field 5 ('s')".
static std::string describeField(uint32_t number,
                                 const FieldDescriptor *field) {
  std::string text = "field " + std::to_string(number);
  if (field)
    text += " ('" + field->name() + "')";
  return text;
}

bool WireChecker::fail(const uint8_t *at, const std::string &path,
                       const llvm::Twine &what) {
  if (error.empty())
    error = ("byte " + llvm::Twine(at - base) + ", " +
             (path.empty() ? llvm::Twine(rootName) : llvm::Twine(path)) + ": " +
             what)
                .str();
  return false;
}

bool WireChecker::readVarint(const uint8_t *&p, const uint8_t *end,
                             uint64_t &value) {
  value = 0;
  for (unsigned shift = 0; shift < 70; shift += 7) {
    if (p == end)
      return false;
    uint8_t byte = *p++;
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if (!(byte & 0x80))
      return true;
  }
  return false;
}

bool WireChecker::checkEnumValue(const FieldDescriptor *field, uint64_t value,
                                 const uint8_t *at, const std::string &path) {
  // Enums are int32 on the wire; negative values are sign-extended.
  auto number = static_cast<int32_t>(value);
  if (field->enum_type()->FindValueByNumber(number))
    return true;
  const google::protobuf::EnumDescriptor *enumType = field->enum_type();
  std::string enumName = enumType->name();
  if (const Descriptor *scope = enumType->containing_type())
    enumName = scope->name() + "." + enumName;
  return fail(at, path,
              describeField(field->number(), field) + " has value " +
                  llvm::Twine(number) + ", which is no " + enumName);
}

bool WireChecker::checkField(const FieldDescriptor *field, uint32_t fieldNumber,
                             unsigned wireType, const uint8_t *&p,
                             const uint8_t *end, const std::string &path,
                             const std::string &fieldPath, int groupDepth) {
  const uint8_t *start = p;
  std::string name = describeField(fieldNumber, field);
  // Protobuf keeps one value of a singular field, however often it comes,
  // but every value of a repeated one and every field it does not know. A
  // packed field counts its elements.
  bool packed = field && wireType == kLengthDelimited &&
                getWireType(field) != kLengthDelimited;
  if (!packed && (!field || (field->is_repeated() &&
                             field->type() != FieldDescriptor::TYPE_MESSAGE)))
    ++tally.values;
  switch (wireType) {
  case kVarint: {
    uint64_t value;
    if (!readVarint(p, end, value))
      return failVarint(start, p, end, path, "the varint of " + name);
    if (field && field->type() == FieldDescriptor::TYPE_ENUM)
      return checkEnumValue(field, value, start, path);
    return true;
  }
  case kFixed64:
  case kFixed32: {
    size_t size = wireType == kFixed64 ? 8 : 4;
    if (static_cast<size_t>(end - p) < size)
      return fail(start, path,
                  "truncated: " + name + " needs " + llvm::Twine(size) +
                      " bytes, " + llvm::Twine(end - p) + " remain");
    p += size;
    return true;
  }
  case kLengthDelimited: {
    uint64_t length;
    if (!readVarint(p, end, length))
      return failVarint(start, p, end, path, "the length of " + name);
    if (length > static_cast<uint64_t>(end - p))
      return fail(start, path,
                  "truncated: " + name + " needs " + llvm::Twine(length) +
                      " bytes, " + llvm::Twine(end - p) + " remain");
    const uint8_t *contentEnd = p + length;
    const uint8_t *content = p;
    p = contentEnd;
    if (field && field->type() == FieldDescriptor::TYPE_MESSAGE) {
      ++tally.messages;
      return checkMessage(field->message_type(), content, contentEnd,
                          fieldPath);
    }
    if (!packed) {
      tally.stringBytes += length;
      return true;
    }
    // A packed repeated scalar: whole elements, valid enum values.
    unsigned elementType = getWireType(field);
    if (elementType != kVarint) {
      size_t size = elementType == kFixed64 ? 8 : 4;
      if (length % size != 0)
        return fail(start, path,
                    name + " packs " + llvm::Twine(length) +
                        " bytes, not a multiple of " + llvm::Twine(size));
      tally.values += length / size;
      return true;
    }
    while (content != contentEnd) {
      ++tally.values;
      const uint8_t *element = content;
      uint64_t value;
      if (!readVarint(content, contentEnd, value))
        return failVarint(element, content, contentEnd, path,
                          "a varint packed in " + name);
      if (field->type() == FieldDescriptor::TYPE_ENUM &&
          !checkEnumValue(field, value, element, path))
        return false;
    }
    return true;
  }
  case kStartGroup: {
    if (groupDepth >= kMaxGroupDepth)
      return fail(start, path,
                  "groups nest deeper than " + llvm::Twine(kMaxGroupDepth));
    while (true) {
      const uint8_t *tagStart = p;
      uint64_t tag;
      if (p == end)
        return fail(start, path,
                    "truncated: " + name + " is a group without its end");
      if (!readVarint(p, end, tag))
        return failVarint(tagStart, p, end, path, "a tag");
      auto number = static_cast<uint32_t>(tag >> 3);
      unsigned type = tag & 7;
      if (type == kEndGroup) {
        if (number != fieldNumber)
          return fail(tagStart, path,
                      "group of field " + llvm::Twine(fieldNumber) +
                          " ends as field " + llvm::Twine(number));
        return true;
      }
      if (number == 0 || (tag >> 32) != 0 || type > kFixed32)
        return fail(tagStart, path,
                    "invalid tag " + llvm::Twine(tag) + " in a group");
      if (!checkField(nullptr, number, type, p, end, path, path,
                      groupDepth + 1))
        return false;
    }
  }
  default:
    return fail(start, path, name + " has " + getWireTypeName(wireType));
  }
}

bool WireChecker::checkMessage(const Descriptor *descriptor,
                               const uint8_t *begin, const uint8_t *end,
                               const std::string &path) {
  // How many elements of each repeated message field came before.
  std::vector<int> counts(descriptor->field_count(), 0);
  const uint8_t *p = begin;
  while (p != end) {
    const uint8_t *tagStart = p;
    uint64_t tag;
    if (!readVarint(p, end, tag))
      return failVarint(tagStart, p, end, path, "a tag");
    auto number = static_cast<uint32_t>(tag >> 3);
    unsigned wireType = tag & 7;
    if (number == 0 || (tag >> 32) != 0)
      return fail(tagStart, path, "invalid tag " + llvm::Twine(tag));
    const FieldDescriptor *field = descriptor->FindFieldByNumber(number);
    if (wireType == kEndGroup || wireType > kFixed32)
      return fail(tagStart, path,
                  describeField(number, field) + " has " +
                      (wireType == kEndGroup ? "an unmatched end-group"
                                             : getWireTypeName(wireType)));
    std::string fieldPath = path;
    if (field) {
      unsigned expected = getWireType(field);
      bool packed = field->is_repeated() && expected != kLengthDelimited &&
                    wireType == kLengthDelimited;
      if (wireType != expected && !packed)
        return fail(tagStart, path,
                    describeField(number, field) + " has wire type " +
                        getWireTypeName(wireType) + ", not " +
                        getWireTypeName(expected));
      if (field->type() == FieldDescriptor::TYPE_MESSAGE) {
        fieldPath = (path.empty() ? "" : path + ".") + field->name();
        if (field->is_repeated())
          fieldPath += "[" + std::to_string(counts[field->index()]++) + "]";
      }
    }
    if (!checkField(field, number, wireType, p, end, path, fieldPath, 0))
      return false;
  }
  return true;
}

std::string openks::interop::findWireError(llvm::StringRef bytes,
                                           const Descriptor *descriptor,
                                           WireTally &tally) {
  WireChecker checker(bytes, descriptor->name(), tally);
  checker.checkMessage(descriptor, bytes.bytes_begin(), bytes.bytes_end(),
                       /*path=*/"");
  return checker.takeError();
}
