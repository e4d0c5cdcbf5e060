//===- DurableFile.h - Files that survive a crash ---------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//
//
// Writing files so that a crash (of the process or the machine) leaves
// either the old contents or the new, never a mix: data is flushed to the
// device (fsync) before the rename that publishes it, and the directory is
// flushed after, so the rename itself is durable. POSIX only.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_SUPPORT_DURABLEFILE_H
#define OPENKS_SUPPORT_DURABLEFILE_H

#include "openks/Support/Status.h"

#include <string>
#include <string_view>

namespace openks {

/// Writes `contents` to `path` (created, or truncated) and flushes the file
/// to the device before returning. The file is whole only once this
/// succeeds; publish it by a rename (or a directory rename) afterwards.
Status writeFileSynced(const std::string &path, std::string_view contents);

/// Flushes the entries of directory `path` (fsync on the directory), so
/// that files created or renamed in it survive a crash.
Status syncDirectory(const std::string &path);

/// Replaces `path` with `contents` atomically: writes a temporary sibling,
/// flushes it, renames it over `path` and flushes the directory. A crash at
/// any point leaves the old file or the new one.
Status writeFileAtomically(const std::string &path, std::string_view contents);

/// Puts the directory `from` in the place of `to` in one atomic step, in
/// the same parent directory, and flushes that parent. When `to` exists,
/// the two are exchanged (Linux renameat2 RENAME_EXCHANGE), so `from` then
/// holds the old contents, which the caller removes; a crash leaves `to`
/// either old or new. Where the file system cannot exchange, `to` is first
/// renamed aside to `from` + ".old", which leaves a moment without `to`.
Status replaceDirectory(const std::string &from, const std::string &to);

} // namespace openks

#endif // OPENKS_SUPPORT_DURABLEFILE_H
