//===- DurableFile.cpp - Files that survive a crash -----------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "openks/Support/DurableFile.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <sys/stat.h>
#include <unistd.h>

using namespace openks;

/// Returns an IOError for `what` failing on `path` with the current errno.
static Status ioError(const char *what, const std::string &path) {
  return Status::error(StatusCode::IOError, "cannot {} {}: {}", what, path,
                       std::strerror(errno));
}

/// Returns the directory holding `path` ("." for a bare name).
static std::string parentOf(const std::string &path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  return parent.empty() ? "." : parent.string();
}

namespace {

/// Blocks SIGXFSZ in the calling thread while it lives, so that a write
/// beyond the file size limit (RLIMIT_FSIZE) fails with EFBIG instead of
/// killing the process; the signal such a write raised is discarded when it
/// ends. Other threads, and a signal pending before, are left alone.
class FileSizeSignalBlock {
public:
  FileSizeSignalBlock() {
    sigemptyset(&signal_);
    sigaddset(&signal_, SIGXFSZ);
    pthread_sigmask(SIG_BLOCK, &signal_, &previous_);
    pendingBefore_ = isPending();
  }
  ~FileSizeSignalBlock() {
    if (!pendingBefore_ && isPending()) {
      struct timespec now = {};
      sigtimedwait(&signal_, nullptr, &now);
    }
    pthread_sigmask(SIG_SETMASK, &previous_, nullptr);
  }
  FileSizeSignalBlock(const FileSizeSignalBlock &) = delete;
  FileSizeSignalBlock &operator=(const FileSizeSignalBlock &) = delete;

private:
  static bool isPending() {
    sigset_t pending;
    return sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
  }

  sigset_t signal_, previous_;
  bool pendingBefore_ = false;
};

} // namespace

/// Writes `contents` to the open file `fd` (named `path` in errors),
/// flushes it to the device and closes it.
static Status writeSyncedAndClose(int fd, const std::string &path,
                                  std::string_view contents) {
  FileSizeSignalBlock block;
  const char *data = contents.data();
  size_t left = contents.size();
  while (left > 0) {
    ssize_t written = ::write(fd, data, left);
    if (written < 0 && errno == EINTR)
      continue;
    if (written <= 0) {
      Status status = ioError("write", path);
      ::close(fd);
      return status;
    }
    data += written;
    left -= static_cast<size_t>(written);
  }
  if (::fsync(fd) != 0) {
    Status status = ioError("flush", path);
    ::close(fd);
    return status;
  }
  if (::close(fd) != 0)
    return ioError("close", path);
  return Status::ok();
}

/// Calls `create` with `prefix` followed by random letters and digits until
/// it makes a new file or directory of that name, failing with EEXIST while
/// the name is taken, and returns the name; `what` says what it creates.
template <typename CreateT>
static StatusOr<std::string> createUnique(const std::string &prefix,
                                          const char *what, CreateT create) {
  static constexpr std::string_view kCharacters =
      "abcdefghijklmnopqrstuvwxyz0123456789";
  static constexpr int kAttempts = 100, kLength = 8;
  std::random_device random;
  std::uniform_int_distribution<size_t> pick(0, kCharacters.size() - 1);
  std::string name;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    name = prefix;
    for (int i = 0; i < kLength; ++i)
      name.push_back(kCharacters[pick(random)]);
    if (create(name))
      return name;
    if (errno != EEXIST)
      break;
  }
  return ioError(what, name);
}

Status openks::writeFileSynced(const std::string &path,
                               std::string_view contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return ioError("create", path);
  return writeSyncedAndClose(fd, path, contents);
}

Status openks::syncDirectory(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return ioError("open the directory", path);
  int result = ::fsync(fd);
  Status status = result == 0 ? Status::ok() : ioError("flush", path);
  ::close(fd);
  return status;
}

StatusOr<std::string> openks::createUniqueDirectory(const std::string &prefix) {
  return createUnique(
      prefix, "create a directory",
      [](const std::string &name) { return ::mkdir(name.c_str(), 0777) == 0; });
}

Status openks::writeFileAtomically(const std::string &path,
                                   std::string_view contents) {
  int fd = -1;
  StatusOr<std::string> temporary =
      createUnique(path + ".tmp-", "create", [&](const std::string &name) {
        fd =
            ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        return fd >= 0;
      });
  if (!temporary)
    return temporary.status();
  Status status = writeSyncedAndClose(fd, *temporary, contents);
  if (status.isOk() && std::rename(temporary->c_str(), path.c_str()) != 0)
    status = ioError("rename a file to", path);
  if (!status.isOk()) {
    std::remove(temporary->c_str());
    return status;
  }
  return syncDirectory(parentOf(path));
}

/// Swaps the directories `from` and `to` by renames, for a file system that
/// cannot exchange them: `to` goes aside first, which leaves a moment
/// without `to`.
static Status swapByRenames(const std::string &from, const std::string &to) {
  // A directory renamed over an empty one replaces it, so `to` goes over a
  // new directory of our own, and nothing can be lost there.
  StatusOr<std::string> aside = createUniqueDirectory(from + ".old-");
  if (!aside)
    return aside.status();
  if (std::rename(to.c_str(), aside->c_str()) != 0) {
    Status status = ioError("move aside the directory", to);
    ::rmdir(aside->c_str());
    return status;
  }
  if (std::rename(from.c_str(), to.c_str()) != 0) {
    Status status = ioError("rename a directory to", to);
    std::rename(aside->c_str(), to.c_str());
    return status;
  }
  if (std::rename(aside->c_str(), from.c_str()) != 0)
    return ioError("rename a directory to", from);
  return Status::ok();
}

Status openks::replaceDirectory(const std::string &from,
                                const std::string &to) {
  std::error_code error;
  if (!std::filesystem::exists(to, error)) {
    if (std::rename(from.c_str(), to.c_str()) != 0)
      return ioError("rename a directory to", to);
  } else if (::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(),
                         RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS)
      return ioError("exchange a directory with", to);
    OPENKS_RETURN_IF_ERROR(swapByRenames(from, to));
  }
  return syncDirectory(parentOf(to));
}
