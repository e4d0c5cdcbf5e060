//===- WireCheck.h - Locate damage in protobuf wire data --------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Protobuf's parser says only whether a message parsed. Before the
// importer hands a file to it, this walks the bytes against the message's
// schema and names the first defect: its byte offset, the path of the
// field it is in and what is wrong.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_LIB_INTEROP_WIRECHECK_H
#define OPENKS_LIB_INTEROP_WIRECHECK_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace google::protobuf {
class Descriptor;
} // namespace google::protobuf

namespace openks::interop {

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
std::string findWireError(llvm::StringRef bytes,
                          const google::protobuf::Descriptor *descriptor);

} // namespace openks::interop

#endif // OPENKS_LIB_INTEROP_WIRECHECK_H
