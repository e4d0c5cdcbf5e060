//===- DurableFile.cpp - Files that survive a crash -----------------------===//
//
// Part of the OpenKS Fleet compiler.
//
//===----------------------------------------------------------------------===//

#include "openks/Support/DurableFile.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
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

Status openks::writeFileSynced(const std::string &path,
                               std::string_view contents) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return ioError("create", path);
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

Status openks::syncDirectory(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return ioError("open the directory", path);
  int result = ::fsync(fd);
  Status status = result == 0 ? Status::ok() : ioError("flush", path);
  ::close(fd);
  return status;
}

Status openks::writeFileAtomically(const std::string &path,
                                   std::string_view contents) {
  std::string temporary = path + ".tmp";
  OPENKS_RETURN_IF_ERROR(writeFileSynced(temporary, contents));
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    Status status = ioError("rename a file to", path);
    std::remove(temporary.c_str());
    return status;
  }
  return syncDirectory(parentOf(path));
}

Status openks::replaceDirectory(const std::string &from,
                                const std::string &to) {
  std::error_code error;
  bool exists = std::filesystem::exists(to, error);
  if (exists && ::renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(),
                            RENAME_EXCHANGE) != 0) {
    if (errno != EINVAL && errno != ENOSYS)
      return ioError("exchange a directory with", to);
    // No exchange on this file system: move the old one aside first.
    std::string aside = from + ".old";
    if (std::rename(to.c_str(), aside.c_str()) != 0)
      return ioError("move aside the directory", to);
    if (std::rename(from.c_str(), to.c_str()) != 0)
      return ioError("rename a directory to", to);
    if (std::rename(aside.c_str(), from.c_str()) != 0)
      return ioError("rename a directory to", from);
  } else if (!exists && std::rename(from.c_str(), to.c_str()) != 0) {
    return ioError("rename a directory to", to);
  }
  return syncDirectory(parentOf(to));
}
