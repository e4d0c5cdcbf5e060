//===- NameMap.h - Names of a variable's rows from a TSV file ---*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `export --names FILE` reads an id map as DGL-KE's entities.tsv and
// relations.tsv hold it: one line per row of the variable, "ID<TAB>NAME",
// the ids 0 to rows - 1 each once, in any order.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_CKPT_NAMEMAP_H
#define OPENKS_TOOLS_OPENKS_CKPT_NAMEMAP_H

#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace openks::ckpt {

/// Reads the id map `path` for a variable of `rows` rows and returns the
/// name of each row. Fails, naming the file (and its line), when it cannot
/// be read, a line is not "ID<TAB>NAME" (a final line break and a carriage
/// return before it are allowed), an id is out of [0, rows) or listed
/// twice, or the ids are fewer than the rows.
StatusOr<std::vector<std::string>> readNameMap(const std::string &path,
                                               int64_t rows);

} // namespace openks::ckpt

#endif // OPENKS_TOOLS_OPENKS_CKPT_NAMEMAP_H
