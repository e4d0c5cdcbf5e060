//===- Checkpoint.cpp - Checkpoints any server layout can load ------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Runtime/Checkpoint.h"

#include "openks/Runtime/DataSource.h"
#include "openks/Runtime/TensorFile.h"
#include "openks/Support/Crc32c.h"
#include "openks/Support/DurableFile.h"
#include "openks/Support/Limits.h"
#include "openks/Support/OptimizerNames.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <shared_mutex>
#include <string_view>
#include <sys/stat.h>
#include <unistd.h>

using namespace openks;
using namespace openks::runtime;
namespace fs = std::filesystem;

/// The first field of a manifest's first line.
static constexpr std::string_view kManifestMagic = "openks-checkpoint";

/// The largest manifest read (a line per variable).
static constexpr uint64_t kMaxManifestBytes = uint64_t(64) << 20;
/// The most files a directory without a manifest may hold, and the largest
/// variable file read from it.
static constexpr size_t kMaxPaddleDirectoryFiles = size_t(1) << 20;
static constexpr uint64_t kMaxVariableFileBytes = uint64_t(1) << 40;
/// What the directory a save writes is named after: the target's name, this
/// and random characters.
static constexpr const char *kSavingSuffix = ".saving-";

const char *openks::runtime::checkpointModeName(SyncMode mode) {
  switch (mode) {
  case SyncMode::Sync:
    return "sync";
  case SyncMode::Async:
    return "async";
  case SyncMode::HalfAsync:
    return "half-async";
  case SyncMode::Geo:
    return "geo";
  }
  return "?";
}

namespace {

/// Where the rows of one variable are, over a list of stores.
template <typename StoreT> struct Holder {
  StoreT *store;
  ParameterId id;
};

/// The persistable parameters of `stores` grouped by origin, in order of
/// first appearance.
template <typename StoreT> struct VariableMap {
  std::vector<std::string> order;
  std::map<std::string, std::vector<Holder<StoreT>>> holders;

  explicit VariableMap(const std::vector<StoreT *> &stores) {
    for (StoreT *store : stores)
      for (ParameterId id = 0; id < store->size(); ++id) {
        if (!(*store)[id].persistable)
          continue;
        const std::string &origin = (*store)[id].origin;
        auto [it, inserted] = holders.try_emplace(origin);
        if (inserted)
          order.push_back(origin);
        it->second.push_back({store, id});
      }
  }
};

} // namespace

/// Checks that `parameter`'s value is rows of its whole shape.
static Status checkRows(const Parameter &parameter) {
  const Shape &whole = parameter.wholeShape, &shape = parameter.value.shape();
  bool fits = shape.rank() == whole.rank() && parameter.rowBegin >= 0;
  for (int i = 0; fits && i < shape.rank(); ++i)
    fits = i == 0 ? parameter.rowBegin + shape[0] <= whole[0]
                  : shape[i] == whole[i];
  if (fits && (shape.rank() > 0 || parameter.rowBegin == 0))
    return Status::ok();
  return Status::internal("parameter '{}' of shape {} is not rows from {} "
                          "of {}",
                          parameter.name, shape.str(), parameter.rowBegin,
                          whole.str());
}

/// Returns the byte offset and size of `parameter`'s rows in its origin.
static std::pair<size_t, size_t> getRowBytes(const Parameter &parameter) {
  size_t element = dtypeSize(parameter.value.dtype());
  return {static_cast<size_t>(parameter.rowBegin) *
              parameter.wholeShape.rowWidth() * element,
          static_cast<size_t>(parameter.value.numel()) * element};
}

/// Checks that `name` can be a checkpoint file's name.
static Status checkFileName(const std::string &name) {
  if (name.empty() || name == "." || name == ".." ||
      name == kCheckpointManifest ||
      name.find_first_of(std::string("/\t\n\r\0", 5)) != std::string::npos)
    return Status::invalidArgument(
        "cannot save the variable '{}': its name cannot be a checkpoint "
        "file's name",
        name);
  return Status::ok();
}

/// Returns how many rows from row 0 on `ranges` cover without a gap.
static int64_t coveredRows(std::vector<std::pair<int64_t, int64_t>> &ranges) {
  std::sort(ranges.begin(), ranges.end());
  int64_t covered = 0;
  for (auto [begin, end] : ranges) {
    if (begin > covered)
      break;
    covered = std::max(covered, end);
  }
  return covered;
}

/// Assembles the whole value of the variable held by `holders`, reading
/// each under its shared lock. A holder is read only while rows of the
/// variable are missing, so the first holders win.
static StatusOr<Tensor>
gatherHeldVariable(const std::string &name,
                   const std::vector<Holder<const ParameterStore>> &holders) {
  const Parameter &first = (*holders.front().store)[holders.front().id];
  DType dtype = first.value.dtype();
  const Shape &shape = first.wholeShape;
  StatusOr<Tensor> whole = Tensor::allocate(dtype, shape);
  if (!whole)
    return whole.status().withContext("saving '" + name + "'");
  int64_t rows = shape.rank() ? shape[0] : 1;
  // The row ranges gathered, to find rows no store holds.
  std::vector<std::pair<int64_t, int64_t>> ranges;
  for (const Holder<const ParameterStore> &holder : holders) {
    // Writers resize the value in place (to the same shape), so even its
    // shape is read under the lock.
    std::shared_lock<std::shared_mutex> lock(holder.store->mutex(holder.id));
    const Parameter &parameter = (*holder.store)[holder.id];
    if (parameter.value.dtype() != dtype || parameter.wholeShape != shape)
      return Status::internal("the parts of '{}' disagree: {} of {} and {} "
                              "of {}",
                              name, dtypeName(dtype), shape.str(),
                              dtypeName(parameter.value.dtype()),
                              parameter.wholeShape.str());
    OPENKS_RETURN_IF_ERROR(checkRows(parameter));
    if (coveredRows(ranges) >= rows)
      continue;
    auto [offset, bytes] = getRowBytes(parameter);
    std::memcpy(static_cast<char *>(whole->rawData()) + offset,
                parameter.value.rawData(), bytes);
    ranges.push_back(
        {parameter.rowBegin,
         parameter.rowBegin + (shape.rank() ? parameter.value.dim(0) : 1)});
  }
  int64_t covered = coveredRows(ranges);
  if (covered < rows)
    return Status::invalidArgument(
        "cannot save '{}': rows [{}, {}) of it are in none of the stores", name,
        covered, rows);
  return whole;
}

StatusOr<Tensor> openks::runtime::gatherVariable(
    const std::vector<const ParameterStore *> &stores,
    const std::string &name) {
  VariableMap<const ParameterStore> variables(stores);
  auto holders = variables.holders.find(name);
  if (holders == variables.holders.end())
    return Status::error(StatusCode::NotFound,
                         "no store holds rows of the variable '{}'", name);
  return gatherHeldVariable(name, holders->second);
}

/// Returns the manifest line of `variable`.
static std::string formatVariable(const CheckpointVariable &variable) {
  return fmt::format(
      "variable\t{}\t{}\t{}\t{}\t{:08x}\n", variable.name,
      dtypeName(variable.dtype),
      fmt::join(variable.shape.begin(), variable.shape.end(), ","),
      variable.bytes, variable.crc32c);
}

/// Writes every file of the checkpoint into the directory `temporary`.
static Status
writeCheckpointFiles(const std::string &temporary,
                     const std::vector<const ParameterStore *> &stores,
                     const std::string &mode, int64_t step,
                     const std::vector<std::string> &selected,
                     const std::vector<CheckpointFile> &files) {
  VariableMap<const ParameterStore> variables(stores);
  std::set<std::string> seen;
  for (const std::string &name : selected) {
    if (!variables.holders.count(name))
      return Status::invalidArgument(
          "cannot save the variable '{}': none of the stores holds it", name);
    if (!seen.insert(name).second)
      return Status::invalidArgument(
          "cannot save the variable '{}' twice in one checkpoint", name);
  }
  std::string manifest =
      fmt::format("{}\t{}\nstep\t{}\nmode\t{}\n", kManifestMagic,
                  kCheckpointFormatVersion, step, mode);
  // By name, unless the caller chose: so a checkpoint is the same bytes
  // whatever layout of servers saved it.
  std::vector<std::string> names = selected;
  if (names.empty())
    for (const auto &[name, holders] : variables.holders)
      names.push_back(name);
  for (const std::string &name : names) {
    OPENKS_RETURN_IF_ERROR(checkFileName(name));
    StatusOr<Tensor> value = gatherHeldVariable(name, variables.holders[name]);
    if (!value)
      return value.status();
    std::string bytes = encodeTensorFile(*value);
    OPENKS_RETURN_IF_ERROR(
        writeFileSynced((fs::path(temporary) / name).string(), bytes));
    manifest += formatVariable(
        {name, value->dtype(), value->shape(), bytes.size(), crc32c(bytes)});
  }
  std::set<std::string> taken(names.begin(), names.end());
  for (const CheckpointFile &file : files) {
    OPENKS_RETURN_IF_ERROR(checkFileName(file.name));
    if (!taken.insert(file.name).second)
      return Status::invalidArgument(
          "cannot save the file '{}': the checkpoint has a variable or a "
          "file of that name",
          file.name);
    OPENKS_RETURN_IF_ERROR(writeFileSynced(
        (fs::path(temporary) / file.name).string(), file.contents));
    manifest += fmt::format("file\t{}\t{}\t{:08x}\n", file.name,
                            file.contents.size(), crc32c(file.contents));
  }
  manifest += fmt::format("manifest-crc32c\t{:08x}\n", crc32c(manifest));
  OPENKS_RETURN_IF_ERROR(writeFileSynced(
      (fs::path(temporary) / kCheckpointManifest).string(), manifest));
  return syncDirectory(temporary);
}

/// Returns `dir` without trailing separators.
static std::string normalize(const std::string &dir) {
  std::string path = dir;
  while (path.size() > 1 && path.back() == '/')
    path.pop_back();
  return path;
}

/// Returns what a file of `mode`, not a regular file, is.
static const char *describeFileType(mode_t mode) {
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISSOCK(mode))
    return "a socket";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  return "not a regular file";
}

/// Reads the regular file `path` (or one a symbolic link names), refusing
/// more than `maxBytes` bytes.
static StatusOr<std::string> readFile(const std::string &path,
                                      uint64_t maxBytes) {
  // Opening a FIFO waits for a writer, and a device may never end: anything
  // but a regular file is refused, by stat without opening it, and by fstat
  // after a non-blocking open in case it was replaced in between.
  struct stat info;
  if (::stat(path.c_str(), &info) != 0)
    return Status::notFound("{}: cannot open it: {}", path,
                            std::strerror(errno));
  auto notRegular = [&] {
    return Status::invalidArgument("{}: cannot read it: it is {}, not a "
                                   "regular file",
                                   path, describeFileType(info.st_mode));
  };
  if (!S_ISREG(info.st_mode))
    return notRegular();
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0)
    return Status::notFound("{}: cannot open it: {}", path,
                            std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode))
    return notRegular();
  std::string bytes;
  char chunk[1 << 16];
  for (;;) {
    ssize_t count = ::read(fd, chunk, sizeof(chunk));
    if (count < 0 && errno == EINTR)
      continue;
    if (count < 0)
      return Status::error(StatusCode::IOError, "{}: cannot read it: {}", path,
                           std::strerror(errno));
    if (count == 0)
      return bytes;
    bytes.append(chunk, static_cast<size_t>(count));
    if (bytes.size() > maxBytes)
      return Status::dataLoss("{}: damaged: larger than the {} bytes "
                              "expected",
                              path, maxBytes);
  }
}

/// Returns whether the directory `dir` holds a manifest, that is, a
/// checkpoint, whole or damaged.
static bool holdsManifest(const std::string &dir) {
  StatusOr<std::string> manifest = readFile(
      (fs::path(dir) / kCheckpointManifest).string(), kMaxManifestBytes);
  return manifest &&
         manifest->rfind(std::string(kManifestMagic) + "\t", 0) == 0;
}

/// Checks that the save may replace `target`: it does not exist, or is an
/// empty directory or a checkpoint.
static Status checkReplaceable(const std::string &target) {
  if (target.empty())
    return Status::invalidArgument("a checkpoint needs a directory name");
  std::error_code error;
  fs::file_status status = fs::status(target, error);
  if (!fs::exists(status))
    return Status::ok();
  if (!fs::is_directory(status))
    return Status::invalidArgument(
        "cannot save a checkpoint to {}: it exists and is not a directory",
        target);
  if (fs::is_empty(target, error) || holdsManifest(target))
    return Status::ok();
  return Status::invalidArgument(
      "cannot save a checkpoint to {}: saving replaces the directory, and "
      "this one holds files but no checkpoint (no {}); remove it or choose "
      "another directory",
      target, kCheckpointManifest);
}

/// Checks that the save can create its directories for `target` by
/// creating (and removing) one where it would create the first.
static Status checkWritable(const std::string &target) {
  // The save creates the missing parents of `target`, then a directory
  // beside it: the first of these that does not exist must be creatable.
  std::error_code error;
  fs::path first = target;
  while (first.has_parent_path() && first.parent_path() != first &&
         !fs::exists(first.parent_path(), error))
    first = first.parent_path();
  fs::path parent = first.has_parent_path() ? first.parent_path() : ".";
  if (!fs::is_directory(parent, error))
    return Status::invalidArgument(
        "cannot save a checkpoint to {}: {} is not a directory", target,
        parent.string());
  StatusOr<std::string> probe =
      createUniqueDirectory(first.string() + kSavingSuffix);
  if (!probe)
    return probe.status().withContext("cannot save a checkpoint to " + target);
  fs::remove(*probe, error);
  return Status::ok();
}

Status openks::runtime::checkCheckpointTarget(const std::string &dir) {
  std::string target = normalize(dir);
  OPENKS_RETURN_IF_ERROR(checkReplaceable(target));
  return checkWritable(target);
}

/// Checks that `mode` and `step` can be written into a manifest that reads
/// back.
static Status checkManifestHeader(const std::string &mode, int64_t step) {
  if (step < 0)
    return Status::invalidArgument(
        "cannot save a checkpoint of step {}: steps count from 0", step);
  if (mode.empty() || mode.find_first_of("\t\n\r") != std::string::npos)
    return Status::invalidArgument(
        "cannot save a checkpoint of mode '{}': a mode is a word without "
        "tabs or line breaks",
        mode);
  return Status::ok();
}

Status openks::runtime::saveCheckpoint(
    const std::string &dir, const std::vector<const ParameterStore *> &stores,
    const std::string &mode, int64_t step,
    const std::vector<std::string> &variables,
    const std::vector<CheckpointFile> &files) {
  std::string target = normalize(dir);
  OPENKS_RETURN_IF_ERROR(checkReplaceable(target));
  OPENKS_RETURN_IF_ERROR(checkManifestHeader(mode, step));
  std::error_code error;
  fs::path parent = fs::path(target).parent_path();
  if (!parent.empty())
    fs::create_directories(parent, error);
  // A sibling, so that the final rename stays within one file system, of a
  // name that was not in use: it holds nothing but what this save writes,
  // and a leftover of a crashed save is never mistaken for it.
  StatusOr<std::string> temporary =
      createUniqueDirectory(target + kSavingSuffix);
  if (!temporary)
    return temporary.status().withContext("saving the checkpoint " + target);
  Status status =
      writeCheckpointFiles(*temporary, stores, mode, step, variables, files);
  if (status.isOk())
    status = replaceDirectory(*temporary, target);
  // After the swap, the temporary directory holds the previous checkpoint.
  fs::remove_all(*temporary, error);
  return status.withContext("saving the checkpoint " + target);
}

Status openks::runtime::saveCheckpoint(const std::string &dir,
                                       const JobSpec &job, int64_t step) {
  std::vector<const ParameterStore *> stores;
  for (const ServerSpec &server : job.servers)
    if (server.program)
      stores.push_back(&server.program->store);
  return saveCheckpoint(dir, stores, checkpointModeName(job.mode), step);
}

/// Splits `text` at every `separator`: n separators make n + 1 fields,
/// empty ones included.
static std::vector<std::string_view> split(std::string_view text,
                                           char separator) {
  std::vector<std::string_view> fields;
  for (size_t begin = 0;;) {
    size_t end = text.find(separator, begin);
    fields.push_back(text.substr(begin, end - begin));
    if (end == std::string_view::npos)
      return fields;
    begin = end + 1;
  }
}

/// Parses all of `text` as a count in [0, max] written as saving writes it:
/// decimal digits, without a sign or leading zeros.
static std::optional<int64_t> parseCount(std::string_view text, int64_t max) {
  if (text.empty() || (text.size() > 1 && text[0] == '0') ||
      text.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  int64_t value = 0;
  auto [end, error] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size() || value > max)
    return std::nullopt;
  return value;
}

/// Parses the fields of a manifest's variable line into `variable`; errors
/// name the variable.
static Status parseVariable(const std::vector<std::string_view> &fields,
                            CheckpointVariable &variable) {
  if (fields.size() != 6)
    return Status::dataLoss("expected 'variable<TAB>NAME<TAB>TYPE<TAB>DIMS"
                            "<TAB>BYTES<TAB>CRC32C'");
  variable.name = std::string(fields[1]);
  auto malformed = [&](std::string_view what, std::string_view field,
                       std::string_view expected) {
    return Status::dataLoss("variable '{}': malformed {} '{}': expected {}",
                            variable.name, what, field, expected);
  };
  if (!checkFileName(variable.name).isOk())
    return malformed("name", variable.name, "a checkpoint file's name");
  std::optional<DType> dtype;
  for (DType candidate : {DType::F32, DType::F64, DType::I64})
    if (fields[2] == dtypeName(candidate))
      dtype = candidate;
  if (!dtype)
    return malformed("element type", fields[2], "f32, f64 or i64");
  variable.dtype = *dtype;
  static constexpr std::string_view kExpectedDims =
      "sizes separated by commas, each decimal digits without a sign or "
      "leading zeros";
  if (!fields[3].empty())
    for (std::string_view dim : split(fields[3], ',')) {
      std::optional<int64_t> size = parseCount(dim, kMaxTensorElements);
      if (!size)
        return malformed("dims", fields[3], kExpectedDims);
      if (variable.shape.rank() == Shape::kMaxRank)
        return malformed("dims", fields[3],
                         fmt::format("at most {} dims", Shape::kMaxRank));
      variable.shape.push_back(*size);
    }
  if (!boundedProduct(variable.shape))
    return malformed("dims", fields[3],
                     fmt::format("at most {} elements", kMaxTensorElements));
  std::optional<int64_t> bytes = parseCount(fields[4], INT64_MAX);
  if (!bytes)
    return malformed("byte size", fields[4],
                     "decimal digits without a sign or leading zeros");
  variable.bytes = static_cast<uint64_t>(*bytes);
  uint32_t crc = 0;
  if (fields[5].size() != 8 ||
      fields[5].find_first_not_of("0123456789abcdef") != std::string::npos)
    return malformed("CRC-32C", fields[5], "8 lower-case hex digits");
  std::from_chars(fields[5].data(), fields[5].data() + 8, crc, 16);
  variable.crc32c = crc;
  return Status::ok();
}

/// Parses a manifest's "file" line.
static Status parseFile(const std::vector<std::string_view> &fields,
                        CheckpointFileEntry &file) {
  if (fields.size() != 4)
    return Status::dataLoss("expected 'file<TAB>NAME<TAB>BYTES<TAB>CRC32C'");
  file.name = std::string(fields[1]);
  std::optional<int64_t> bytes = parseCount(fields[2], INT64_MAX);
  if (!checkFileName(file.name).isOk() || !bytes || fields[3].size() != 8 ||
      fields[3].find_first_not_of("0123456789abcdef") != std::string::npos)
    return Status::dataLoss("file '{}': malformed name, byte size or "
                            "CRC-32C",
                            file.name);
  file.bytes = static_cast<uint64_t>(*bytes);
  std::from_chars(fields[3].data(), fields[3].data() + 8, file.crc32c, 16);
  return Status::ok();
}

/// Lists the variables of `dir`, a directory without a manifest as Paddle's
/// save_persistables writes it: every regular file whose name does not
/// start with "__" (Paddle's `__model__`, `__params__`) must be a tensor
/// file; its size and CRC-32C are taken as they are.
static StatusOr<CheckpointInfo> readPaddleDirectory(const std::string &dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(dir, error), end; !error && it != end;
       it.increment(error)) {
    std::string name = it->path().filename().string();
    if (name.rfind("__", 0) != 0 && it->is_regular_file(error))
      names.push_back(std::move(name));
    if (names.size() > kMaxPaddleDirectoryFiles)
      return Status::invalidArgument("{}: more than {} files; not a "
                                     "checkpoint",
                                     dir, kMaxPaddleDirectoryFiles);
  }
  if (error)
    return Status::error(StatusCode::IOError, "{}: cannot list it: {}", dir,
                         error.message());
  std::sort(names.begin(), names.end());
  CheckpointInfo info;
  info.mode = "paddle";
  info.hasManifest = false;
  for (const std::string &name : names) {
    std::string path = (fs::path(dir) / name).string();
    StatusOr<std::string> bytes = readFile(path, kMaxVariableFileBytes);
    if (!bytes)
      return bytes.status();
    StatusOr<TensorFileContents> contents = decodeTensorFile(*bytes, path);
    if (!contents)
      return contents.status().withContext(
          fmt::format("{} has no {}, so it is read as Paddle's "
                      "save_persistables output",
                      dir, kCheckpointManifest));
    info.variables.push_back({name, contents->tensor.dtype(),
                              contents->tensor.shape(), bytes->size(),
                              crc32c(*bytes)});
  }
  return info;
}

StatusOr<CheckpointInfo>
openks::runtime::readCheckpointInfo(const std::string &dir) {
  std::string root = normalize(dir);
  std::string path = (fs::path(root) / kCheckpointManifest).string();
  std::error_code error;
  if (!fs::exists(path, error) && fs::is_directory(root, error))
    return readPaddleDirectory(root);
  StatusOr<std::string> text = readFile(path, kMaxManifestBytes);
  if (!text)
    return text.status();
  auto damaged = [&](size_t line, const std::string &why) {
    return Status::dataLoss("{}:{}: damaged manifest: {}", path, line, why);
  };
  // The last line checks everything before it.
  size_t last = text->rfind("manifest-crc32c\t");
  if (last == std::string::npos || (last > 0 && (*text)[last - 1] != '\n') ||
      text->back() != '\n')
    return Status::dataLoss("{}: truncated manifest: it has no final "
                            "manifest-crc32c line",
                            path);
  std::string expected =
      fmt::format("manifest-crc32c\t{:08x}\n", crc32c(text->data(), last));
  if (text->compare(last, std::string::npos, expected) != 0)
    return Status::dataLoss("{}: damaged manifest: its checksum does not "
                            "match its contents",
                            path);
  CheckpointInfo info;
  // The line of each variable, to refuse one listed twice.
  std::map<std::string, size_t> variableLines;
  bool hasStep = false, hasMode = false;
  std::vector<std::string_view> lines =
      split(std::string_view(*text).substr(0, last), '\n');
  // The text before the checksum line ends with a line break.
  lines.pop_back();
  for (size_t number = 1; number <= lines.size(); ++number) {
    std::string_view line = lines[number - 1];
    std::vector<std::string_view> fields = split(line, '\t');
    if (number == 1) {
      std::optional<int64_t> version;
      if (fields.size() != 2 || fields[0] != kManifestMagic ||
          !(version = parseCount(fields[1], 1 << 20)))
        return damaged(number, "expected 'openks-checkpoint<TAB>VERSION'");
      if (*version != kCheckpointFormatVersion)
        return Status::dataLoss("{}: format version {}; this build reads "
                                "version {}",
                                path, *version, kCheckpointFormatVersion);
      info.formatVersion = static_cast<int>(*version);
    } else if (fields.size() == 2 && fields[0] == "step" && !hasStep) {
      std::optional<int64_t> step = parseCount(fields[1], INT64_MAX);
      if (!step)
        return damaged(number, fmt::format("malformed step '{}': expected "
                                           "decimal digits without a sign "
                                           "or leading zeros",
                                           fields[1]));
      info.step = *step;
      hasStep = true;
    } else if (fields.size() == 2 && fields[0] == "mode" && !hasMode) {
      if (fields[1].empty())
        return damaged(number, "the mode is empty");
      info.mode = std::string(fields[1]);
      hasMode = true;
    } else if (!fields.empty() && fields[0] == "variable") {
      CheckpointVariable variable;
      if (Status status = parseVariable(fields, variable); !status.isOk())
        return damaged(number, status.message());
      auto [first, inserted] = variableLines.try_emplace(variable.name, number);
      if (!inserted)
        return damaged(number,
                       fmt::format("variable '{}' is listed twice, also on "
                                   "line {}",
                                   variable.name, first->second));
      info.variables.push_back(std::move(variable));
    } else if (!fields.empty() && fields[0] == "file") {
      CheckpointFileEntry file;
      if (Status status = parseFile(fields, file); !status.isOk())
        return damaged(number, status.message());
      info.files.push_back(std::move(file));
    } else {
      return damaged(number, fmt::format("unexpected line '{}'", line));
    }
  }
  if (!hasStep || !hasMode)
    return Status::dataLoss("{}: damaged manifest: it lacks the {} line", path,
                            hasStep ? "mode" : "step");
  return info;
}

/// Reads the file `path` and checks it against the size `expectedBytes` and
/// CRC-32C `expectedCrc` its manifest gives.
static StatusOr<std::string> readListedFile(const std::string &path,
                                            uint64_t expectedBytes,
                                            uint32_t expectedCrc) {
  StatusOr<std::string> bytes = readFile(path, expectedBytes);
  if (!bytes)
    return bytes.status();
  if (bytes->size() != expectedBytes)
    return Status::dataLoss("{}: truncated: {} bytes, the manifest says {}",
                            path, bytes->size(), expectedBytes);
  uint32_t crc = crc32c(*bytes);
  if (crc != expectedCrc)
    return Status::dataLoss("{}: damaged: its CRC-32C is {:08x}, the "
                            "manifest says {:08x}",
                            path, crc, expectedCrc);
  return bytes;
}

StatusOr<std::string>
openks::runtime::readCheckpointFile(const std::string &dir,
                                    const CheckpointFileEntry &file) {
  return readListedFile((fs::path(dir) / file.name).string(), file.bytes,
                        file.crc32c);
}

StatusOr<Tensor>
openks::runtime::readCheckpointVariable(const std::string &dir,
                                        const CheckpointVariable &variable) {
  std::string path = (fs::path(dir) / variable.name).string();
  StatusOr<std::string> bytes =
      readListedFile(path, variable.bytes, variable.crc32c);
  if (!bytes)
    return bytes.status();
  StatusOr<TensorFileContents> contents = decodeTensorFile(*bytes, path);
  if (!contents)
    return contents.status();
  if (contents->tensor.dtype() != variable.dtype ||
      contents->tensor.shape() != variable.shape)
    return Status::dataLoss("{}: damaged: it holds {} {}, the manifest says "
                            "{} {}",
                            path, dtypeName(contents->tensor.dtype()),
                            contents->tensor.shape().str(),
                            dtypeName(variable.dtype), variable.shape.str());
  return std::move(contents->tensor);
}

/// The values the optimizer state of a variable may hold.
enum class ValueRange { Any, Positive, NonNegative, BelowOne };

/// Returns the range of the values of `name`, a variable of `job`, by the
/// names openks-append-optimizer gives the state it creates: the learning
/// rate is positive, the schedule's step counter and the sums of squares
/// (Adam's moment2, RMSProp's mean_square, FTRL's squared, Adamax's
/// inf_norm, Adagrad's moment) are non-negative, and the beta powers are
/// in [0, 1); all finite. Other variables may hold any value.
static ValueRange getValueRange(const std::string &name,
                                const VariableMap<ParameterStore> &job) {
  using namespace optimizer_names;
  if (name == kLearningRate)
    return ValueRange::Positive;
  if (name == kStepCounter)
    return ValueRange::NonNegative;
  std::string_view base = name;
  auto strip = [&](std::string_view suffix) {
    if (base.size() <= suffix.size() ||
        base.substr(base.size() - suffix.size()) != suffix)
      return false;
    base.remove_suffix(suffix.size());
    return true;
  };
  if (strip(kBeta1PowSuffix) || strip(kBeta2PowSuffix))
    return ValueRange::BelowOne;
  if (strip(kMoment2Suffix) || strip(kMeanSquareSuffix) ||
      strip(kSquaredSuffix) || strip(kInfNormSuffix))
    return ValueRange::NonNegative;
  // Adagrad's moment sums squares; RMSProp's and Adamax's, which come with
  // a mean square and an infinity norm, are signed.
  if (strip(kMomentSuffix) &&
      !job.holders.count(std::string(base).append(kMeanSquareSuffix)) &&
      !job.holders.count(std::string(base).append(kInfNormSuffix)))
    return ValueRange::NonNegative;
  return ValueRange::Any;
}

/// Checks that every value of `tensor`, the variable `name` read from
/// `path`, is in `range`.
static Status checkValues(const std::string &path, const std::string &name,
                          const Tensor &tensor, ValueRange range) {
  if (range == ValueRange::Any)
    return Status::ok();
  for (int64_t i = 0; i < tensor.numel(); ++i) {
    double value = tensor.dtype() == DType::F32 ? tensor.data<float>()[i]
                   : tensor.dtype() == DType::F64
                       ? tensor.data<double>()[i]
                       : static_cast<double>(tensor.data<int64_t>()[i]);
    if (std::isfinite(value) &&
        (range == ValueRange::Positive ? value > 0 : value >= 0) &&
        (range != ValueRange::BelowOne || value < 1))
      continue;
    return Status::dataLoss(
        "{}: '{}' must be {}, but element {} is {}", path, name,
        range == ValueRange::Positive      ? "positive and finite"
        : range == ValueRange::NonNegative ? "non-negative and finite"
                                           : "in [0, 1)",
        i, value);
  }
  return Status::ok();
}

StatusOr<CheckpointInfo>
openks::runtime::loadCheckpoint(const std::string &dir,
                                const std::vector<ParameterStore *> &stores) {
  std::string source = normalize(dir);
  StatusOr<CheckpointInfo> info = readCheckpointInfo(source);
  if (!info)
    return info.status();
  std::map<std::string, const CheckpointVariable *> byName;
  for (const CheckpointVariable &variable : info->variables)
    byName[variable.name] = &variable;
  VariableMap<ParameterStore> variables(stores);
  for (const std::string &name : variables.order) {
    std::vector<Holder<ParameterStore>> &holders = variables.holders[name];
    std::string path = (fs::path(source) / name).string();
    auto found = byName.find(name);
    if (found == byName.end())
      return Status::notFound("{}: missing: the checkpoint has no variable "
                              "'{}', which the job holds",
                              path, name);
    const CheckpointVariable &variable = *found->second;
    for (Holder<ParameterStore> &holder : holders) {
      std::shared_lock<std::shared_mutex> lock(holder.store->mutex(holder.id));
      const Parameter &parameter = (*holder.store)[holder.id];
      if (parameter.value.dtype() != variable.dtype ||
          parameter.wholeShape != variable.shape)
        return Status::invalidArgument(
            "{}: holds {} {}, but the job's '{}' is {} {}", path,
            dtypeName(variable.dtype), variable.shape.str(), name,
            dtypeName(parameter.value.dtype()), parameter.wholeShape.str());
      OPENKS_RETURN_IF_ERROR(checkRows(parameter));
    }
    StatusOr<Tensor> value = readCheckpointVariable(source, variable);
    if (!value)
      return value.status();
    OPENKS_RETURN_IF_ERROR(
        checkValues(path, name, *value, getValueRange(name, variables)));
    for (Holder<ParameterStore> &holder : holders) {
      std::unique_lock<std::shared_mutex> lock(holder.store->mutex(holder.id));
      Parameter &parameter = (*holder.store)[holder.id];
      auto [offset, bytes] = getRowBytes(parameter);
      std::memcpy(parameter.value.rawData(),
                  static_cast<const char *>(value->rawData()) + offset, bytes);
    }
  }
  return info;
}

StatusOr<CheckpointInfo> openks::runtime::loadCheckpoint(const std::string &dir,
                                                         JobSpec &job) {
  std::vector<ParameterStore *> stores;
  for (ServerSpec &server : job.servers)
    if (server.program)
      stores.push_back(&server.program->store);
  return loadCheckpoint(dir, stores);
}

StatusOr<std::string>
openks::runtime::useCheckpointIdMaps(const std::string &spec,
                                     const std::string &dir) {
  if (!numbersNamesItself(spec))
    return spec;
  StatusOr<CheckpointInfo> info = readCheckpointInfo(dir);
  if (!info)
    return info.status();
  int maps = 0;
  for (const CheckpointFileEntry &file : info->files)
    if (file.name == "entities.tsv" || file.name == "relations.tsv") {
      if (StatusOr<std::string> contents = readCheckpointFile(dir, file);
          !contents)
        return contents.status();
      ++maps;
    }
  if (maps < 2)
    return spec;
  if (dir.find(',') != std::string::npos)
    return Status::invalidArgument(
        "cannot number the names of {} by the id maps of {}: a data spec "
        "cannot name a directory whose path holds a comma",
        spec, dir);
  return spec + ",maps=" + normalize(dir);
}
