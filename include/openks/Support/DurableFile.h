//===- DurableFile.h - Files that survive a crash ---------------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Writing files so that a crash (of the process or the machine) leaves
// either the old contents or the new, never a mix: data is flushed to the
// device (fsync) before the rename that publishes it, and the directory is
// flushed after, so the rename itself is durable. Temporary names are new
// names, never one in use, so nothing that was there is overwritten. A write
// beyond the file size limit (RLIMIT_FSIZE) fails with "File too large"
// rather than killing the process with SIGXFSZ: each write blocks that
// signal in its thread and discards the one it raised. Linux only.
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
/// Beyond the file size limit it fails with EFBIG ("File too large").
Status writeFileSynced(const std::string &path, std::string_view contents);

/// Flushes the entries of directory `path` (fsync on the directory), so
/// that files created or renamed in it survive a crash.
Status syncDirectory(const std::string &path);

/// Creates a new, empty directory named `prefix` followed by eight random
/// letters and digits, a name that was not in use, and returns its path.
StatusOr<std::string> createUniqueDirectory(const std::string &prefix);

/// Replaces `path` with `contents` atomically: writes a temporary sibling of
/// a new name (`path` + ".tmp-" and random characters), flushes it, renames
/// it over `path` and flushes the directory. A crash at any point leaves the
/// old file or the new one (and perhaps the temporary).
Status writeFileAtomically(const std::string &path, std::string_view contents);

/// Puts the directory `from` in the place of `to` in one atomic step, in
/// the same parent directory, and flushes that parent. When `to` exists,
/// the two are exchanged (Linux renameat2 RENAME_EXCHANGE), so `from` then
/// holds the old contents, which the caller removes; a crash leaves `to`
/// either old or new. Where the file system cannot exchange, `to` is first
/// renamed aside (over a new directory `from` + ".old-" and random
/// characters), which leaves a moment without `to`.
Status replaceDirectory(const std::string &from, const std::string &to);

} // namespace openks

#endif // OPENKS_SUPPORT_DURABLEFILE_H
