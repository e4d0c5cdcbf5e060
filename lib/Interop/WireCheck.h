//===- WireCheck.h - Locate damage in protobuf wire data --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Protobuf's parser says only whether a message parsed. Before the
// importer hands a file to it, this walks the bytes against the message's
// schema and names the first defect: its byte offset, the path of the
// field it is in and what is wrong. On the way it tallies what parsing the
// bytes would allocate, so the importer can refuse a file too large to
// import before protobuf allocates anything.
//
// Why this is hand-written when libprotobuf parses the same bytes: neither
// of these is something protobuf offers. Its parser (and the generated
// classes built on it) answers only whether a message parsed, never where or
// why not; and it allocates as it goes, a nested message, a repeated element
// or an unknown field at a time, so it can only refuse a hostile file after
// allocating for it. CodedInputStream's byte limits bound the input, not
// what parsing it allocates. The walk reads the wire format against the
// generated classes' own descriptors, decodes no values and encodes nothing:
// the importer still parses with the generated classes once this passes.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_INTEROP_WIRECHECK_H
#define OPENKS_LIB_INTEROP_WIRECHECK_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace google::protobuf {
class Descriptor;
} // namespace google::protobuf

namespace openks::interop {

/// What parsing a serialized message allocates, counted from its bytes.
/// Protobuf allocates an object for every nested message, an element for
/// every value of a repeated field and for every field the schema does not
/// declare (which it keeps), and a copy of every string.
struct WireTally {
  /// Nested messages: each occurrence of a field of message type.
  uint64_t messages = 0;
  /// Values of repeated scalar and string fields (packed or not), and
  /// fields outside the schema, groups and their fields included.
  uint64_t values = 0;
  /// Bytes of string and bytes fields, and of length-delimited fields
  /// outside the schema.
  uint64_t stringBytes = 0;
};

/// Walks `bytes` as a serialized `descriptor` message and returns an empty
/// string if every field is well-formed, else a message such as "byte 117,
/// blocks[0].ops[2].attrs[1]: field 5 ('s') needs 40 bytes, 12 remain".
///
/// Well-formed means: tags and varints are complete and at most 10 bytes
/// long, field numbers are not 0, lengths fit in what remains, each field
/// of the schema has its declared wire type (repeated scalars may also be
/// packed, and then hold whole elements), enum values are ones the schema
/// declares, and nested messages are well-formed. Fields the schema does
/// not declare are skipped, groups nested at most 32 deep. Required fields
/// are not checked here.
///
/// `tally` receives the counts of the bytes walked, which for a well-formed
/// message are those of the whole message.
std::string findWireError(llvm::StringRef bytes,
                          const google::protobuf::Descriptor *descriptor,
                          WireTally &tally);

} // namespace openks::interop

#endif // OPENKS_LIB_INTEROP_WIRECHECK_H
