//===- Checkpoint.h - Checkpoints any server layout can load ----*- C++ -*-===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A checkpoint is a directory with one file per variable of the program
// before transpiling (a parameter or an optimizer's state, however the
// servers sliced it), in Paddle's tensor file format (TensorFile.h) and
// named after the variable as Paddle's save_persistables names it, plus a
// manifest, `__manifest__`:
//
//   openks-checkpoint<TAB>1
//   step<TAB>40
//   mode<TAB>sync
//   variable<TAB>fc1.w<TAB>f32<TAB>784,256<TAB>802876<TAB>1a2b3c4d
//   ...
//   manifest-crc32c<TAB>5e6f7a8b
//
// one line per variable, in name order: its name (also its file's),
// element type, dims, file size in bytes and the file's CRC-32C in hex; the
// last line checks the lines before it. Variables are gathered from the
// stores by their origin (Parameter::origin) and row offset, so a
// checkpoint saved from any layout loads into any other (the loader fills
// each block with its rows), and is the same bytes whatever layout saved
// it.
//
// Saving writes a sibling directory of a new name (`DIR.saving-` and random
// characters), flushes every file and the directory, and swaps it into
// place (replaceDirectory), so a crash leaves the previous checkpoint
// whole; it replaces only a checkpoint or an empty directory, and deletes
// nothing it did not write. A directory without a manifest is read as the
// output of Paddle's save_persistables: its files (but `__model__` and
// other names starting with "__") are its variables, step 0, mode "paddle",
// without checksums to check. Loading reads only regular files (a FIFO
// would block it) and refuses a missing, truncated or damaged file, a
// checksum mismatch, a manifest line not written as saving writes it, a
// variable listed twice, a variable whose element type or shape is not the
// job's, and optimizer state out of the range the optimizer needs (a
// learning rate that is not positive, say), each with an error naming the
// file (and the manifest's line and the variable).
//
// Stores are read and written under their parameters' locks (see
// ParameterStore.h), so saving may run while servers serve; a sync job's
// checkpoint is exact when taken between steps (LocalJob does).
//
//===----------------------------------------------------------------------===//

#ifndef OPENKS_RUNTIME_CHECKPOINT_H
#define OPENKS_RUNTIME_CHECKPOINT_H

#include "openks/Runtime/JobSpec.h"
#include "openks/Runtime/ParameterStore.h"
#include "openks/Support/Status.h"

#include <cstdint>
#include <string>
#include <vector>

namespace openks::runtime {

/// The version of the checkpoint layout this code writes and reads.
inline constexpr int kCheckpointFormatVersion = 1;

/// The manifest's file name in a checkpoint directory.
inline constexpr const char *kCheckpointManifest = "__manifest__";

/// One variable of a checkpoint, as its manifest lists it.
struct CheckpointVariable {
  /// The variable's name, which is also its file's name.
  std::string name;
  DType dtype = DType::F32;
  Shape shape;
  /// The file's size in bytes and CRC-32C.
  uint64_t bytes = 0;
  uint32_t crc32c = 0;
};

/// What a checkpoint's manifest says.
/// A file other than a variable that a checkpoint keeps: an id map of the
/// names its embedding rows stand for, say.
struct CheckpointFile {
  /// The file's name in the directory.
  std::string name;
  std::string contents;
};

/// What a manifest records of a CheckpointFile.
struct CheckpointFileEntry {
  std::string name;
  /// The file's size in bytes and CRC-32C.
  uint64_t bytes = 0;
  uint32_t crc32c = 0;
};

struct CheckpointInfo {
  int formatVersion = kCheckpointFormatVersion;
  /// The steps trained when it was saved.
  int64_t step = 0;
  /// The job's mode ("sync", "async", "half-async", "geo"), or "local" for
  /// single-process training.
  std::string mode;
  std::vector<CheckpointVariable> variables;
  /// The other files it keeps.
  std::vector<CheckpointFileEntry> files;
  /// Whether the directory has a manifest; false for Paddle's
  /// save_persistables output, whose variables' sizes and checksums are
  /// those of the files as they were listed.
  bool hasManifest = true;
};

/// Returns the manifest's name of `mode`.
const char *checkpointModeName(SyncMode mode);

/// Checks that a checkpoint may be saved as `dir`: a name that is not in
/// use, an empty directory, or a directory holding a checkpoint (its
/// manifest), which the save replaces. Anything else (a file, a directory
/// of other files) is refused, so that saving never deletes what is not a
/// checkpoint. Also checks that the save can create its directories there:
/// the nearest existing ancestor of `dir` must be a directory in which one
/// can be created (one is created and removed, so nothing is left). Tools
/// and LocalJob::run call it before training, to fail early.
Status checkCheckpointTarget(const std::string &dir);

/// Saves the variables of `stores` as the checkpoint `dir`, replacing the
/// checkpoint there (see checkCheckpointTarget): each variable is gathered
/// by origin and row offset, and a store's rows of it are read only while
/// some are still missing, so the stores listed first win (of a variable
/// held whole by several, the first one's copy is saved; a worker's whole
/// copy listed after the servers fills in only variables no server holds).
/// When `variables` is not empty, only those are saved, in that order, and
/// each must be held. `mode` (a word) and `step` (at least 0) go into the
/// manifest, and so do the names, sizes and checksums of `files`, which are
/// saved alongside. Fails, leaving `dir` as it was, when `dir` may not be
/// replaced, a variable's rows are not all held, a name cannot be a file
/// name or is used twice, or a file cannot be written (also beyond the file
/// size limit: see DurableFile.h).
Status saveCheckpoint(const std::string &dir,
                      const std::vector<const ParameterStore *> &stores,
                      const std::string &mode, int64_t step,
                      const std::vector<std::string> &variables = {},
                      const std::vector<CheckpointFile> &files = {});

/// Saves the variables of the servers of `job` whose programs it holds
/// (their live stores).
Status saveCheckpoint(const std::string &dir, const JobSpec &job, int64_t step);

/// Returns the whole value of the variable `name`, gathered from the
/// parameters of `stores` that hold rows of it as saveCheckpoint gathers
/// it. Fails when a row of it is in none of them.
StatusOr<Tensor>
gatherVariable(const std::vector<const ParameterStore *> &stores,
               const std::string &name);

/// Reads and checks the manifest of the checkpoint `dir`; lists the tensor
/// files of a directory without one (Paddle's save_persistables output).
StatusOr<CheckpointInfo> readCheckpointInfo(const std::string &dir);

/// Reads the file `file`, as readCheckpointInfo lists it in the checkpoint
/// `dir`, and checks its size and CRC-32C. Fails naming the file when it is
/// missing, not a regular file, truncated or damaged.
StatusOr<std::string> readCheckpointFile(const std::string &dir,
                                         const CheckpointFileEntry &file);

/// Reads the file of `variable`, as readCheckpointInfo lists it in the
/// checkpoint `dir`, and checks it against that listing: its size, CRC-32C,
/// element type and shape. Fails naming the file when it is missing, not a
/// regular file, truncated, damaged or not a tensor file.
StatusOr<Tensor> readCheckpointVariable(const std::string &dir,
                                        const CheckpointVariable &variable);

/// Returns the data spec `spec`, numbering names as the run that saved the
/// checkpoint `dir` did: for triples data of names that sets none of `maps`,
/// `ids` and `format`, read from a checkpoint that keeps the id maps
/// entities.tsv and relations.tsv (each checked against the manifest),
/// `spec` with `maps=DIR` added; else `spec` itself.
StatusOr<std::string> useCheckpointIdMaps(const std::string &spec,
                                          const std::string &dir);

/// Fills every parameter of `stores` with its rows of its origin's variable
/// in the checkpoint `dir`; every file is checked against the manifest,
/// each variable against the parameters holding it, and the optimizer
/// state the optimizer constrains (the learning rate, the step counter,
/// beta powers, sums of squares; see docs/Checkpoints.md) against its
/// range. The checkpoint may hold variables the stores do not. Returns the
/// manifest.
StatusOr<CheckpointInfo>
loadCheckpoint(const std::string &dir,
               const std::vector<ParameterStore *> &stores);

/// Fills the store of every server of `job` whose program it holds,
/// whatever its layout.
StatusOr<CheckpointInfo> loadCheckpoint(const std::string &dir, JobSpec &job);

} // namespace openks::runtime

#endif // OPENKS_RUNTIME_CHECKPOINT_H
