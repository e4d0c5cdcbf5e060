//===- CheckpointDir.h - Directories openks-ckpt reads ----------*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every subcommand of openks-ckpt starts here: the directory is read as the
// runtime reads it for --load-dir (readCheckpointInfo: a checkpoint with its
// manifest, or Paddle's save_persistables output), with the errors a user
// who typed a wrong path or variable name needs.
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_TOOLS_OPENKS_CKPT_CHECKPOINTDIR_H
#define OPENKS_TOOLS_OPENKS_CKPT_CHECKPOINTDIR_H

#include "openks/Runtime/Checkpoint.h"
#include "openks/Support/Status.h"

#include <string>

namespace openks::ckpt {

/// Lists the checkpoint `dir` (readCheckpointInfo). Fails when `dir` is
/// missing or not a directory, when its manifest or, in a directory
/// without one, a file is damaged, and when it has neither a manifest nor
/// tensor files.
StatusOr<runtime::CheckpointInfo> openCheckpoint(const std::string &dir);

/// Returns the variable `name` of `info`, the listing of `dir`; fails
/// naming the variables of close names when there is none.
StatusOr<const runtime::CheckpointVariable *>
findVariable(const runtime::CheckpointInfo &info, const std::string &dir,
             const std::string &name);

} // namespace openks::ckpt

#endif // OPENKS_TOOLS_OPENKS_CKPT_CHECKPOINTDIR_H
