//===- RoleProcess.cpp - Starting one process of a job --------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "RoleProcess.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace openks;
using namespace openks::launch;

/// How long a child may take from fork to exec.
static constexpr int kStartTimeoutMs = 10000;

namespace {
/// What a child that cannot run the command reports through its pipe.
struct StartFailure {
  /// The step that failed.
  enum Step : int { Orphaned, Redirect, Exec } step;
  /// Its errno.
  int error;
};

/// A file descriptor, closed when it goes out of scope.
class FileDescriptor {
public:
  explicit FileDescriptor(int fd = -1) : fd_(fd) {}
  FileDescriptor(const FileDescriptor &) = delete;
  FileDescriptor &operator=(const FileDescriptor &) = delete;
  ~FileDescriptor() { reset(); }

  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = -1;
  }

private:
  int fd_;
};
} // namespace

/// Returns pointers to the strings of `strings`, ending in nullptr, as
/// execvpe takes them.
static std::vector<char *> cStrings(const std::vector<std::string> &strings) {
  std::vector<char *> pointers;
  for (const std::string &text : strings)
    pointers.push_back(const_cast<char *>(text.c_str()));
  pointers.push_back(nullptr);
  return pointers;
}

/// Reports the failure of `step` with errno through `report`, from the
/// child, and exits 127.
[[noreturn]] static void reportStartFailure(int report,
                                            StartFailure::Step step) {
  StartFailure failure{step, errno};
  ssize_t written = ::write(report, &failure, sizeof(failure));
  (void)written;
  ::_exit(127);
}

/// The child's side of startRole: only async-signal-safe calls, and no
/// return. `input`, `log` and `report` are above the standard streams
/// (openks-launch opens any of those that is closed).
[[noreturn]] static void runChild(pid_t launcher, int input, int log,
                                  int report, char *const argv[],
                                  char *const envp[]) {
  ::setpgid(0, 0);
  // SIGTERM when the launcher dies; if it died before this call, the
  // child has a new parent already and must not run.
  ::prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (::getppid() != launcher) {
    errno = ESRCH;
    reportStartFailure(report, StartFailure::Orphaned);
  }
  // The launcher ignores and blocks signals of its own; the role starts
  // clean (exec keeps ignored signals ignored and the mask as it is).
  struct sigaction defaultAction = {};
  defaultAction.sa_handler = SIG_DFL;
  for (int number = 1; number < NSIG; ++number)
    ::sigaction(number, &defaultAction, nullptr);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  if (::dup2(input, STDIN_FILENO) < 0 || ::dup2(log, STDOUT_FILENO) < 0 ||
      ::dup2(log, STDERR_FILENO) < 0)
    reportStartFailure(report, StartFailure::Redirect);
  ::execvpe(argv[0], argv, envp);
  reportStartFailure(report, StartFailure::Exec);
}

/// Waits for the report of child `pid`: none when it executes the command
/// (the pipe closes on exec), or its StartFailure.
static Status awaitStart(const RolePlan &role, const std::string &program,
                         pid_t pid, int report) {
  StartFailure failure{StartFailure::Exec, 0};
  size_t got = 0;
  pollfd readable{report, POLLIN, 0};
  while (got < sizeof(failure)) {
    int ready = ::poll(&readable, 1, kStartTimeoutMs);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready == 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      return Status::error(StatusCode::DeadlineExceeded,
                           "{}: did not start '{}' within {} s", role.name(),
                           program, kStartTimeoutMs / 1000);
    }
    ssize_t n = ::read(report, reinterpret_cast<char *>(&failure) + got,
                       sizeof(failure) - got);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      break;
    got += static_cast<size_t>(n);
  }
  if (got == 0)
    return Status::ok();
  // The child exits at once after its report.
  ::waitpid(pid, nullptr, 0);
  if (got != sizeof(failure))
    return Status::internal("{}: the child's start report is truncated",
                            role.name());
  const char *reason = std::strerror(failure.error);
  switch (failure.step) {
  case StartFailure::Orphaned:
    return Status::error(StatusCode::Cancelled,
                         "{}: the launcher went away while it started",
                         role.name());
  case StartFailure::Redirect:
    return Status::error(StatusCode::IOError,
                         "{}: cannot redirect its output to {}: {}",
                         role.name(), role.logPath, reason);
  case StartFailure::Exec:
    break;
  }
  return Status::error(StatusCode::NotFound, "{}: cannot execute '{}': {}",
                       role.name(), program, reason);
}

StatusOr<pid_t>
openks::launch::startRole(const RolePlan &role,
                          const std::vector<std::string> &command) {
  FileDescriptor log(::open(role.logPath.c_str(),
                            O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
  if (log.get() < 0)
    return Status::error(StatusCode::IOError, "{}: cannot open its log {}: {}",
                         role.name(), role.logPath, std::strerror(errno));
  FileDescriptor input(::open("/dev/null", O_RDONLY | O_CLOEXEC));
  if (input.get() < 0)
    return Status::error(StatusCode::IOError, "cannot open /dev/null: {}",
                         std::strerror(errno));
  int pipeEnds[2];
  if (::pipe2(pipeEnds, O_CLOEXEC) < 0)
    return Status::error(StatusCode::ResourceExhausted,
                         "{}: cannot create a pipe: {}", role.name(),
                         std::strerror(errno));
  FileDescriptor reportRead(pipeEnds[0]), reportWrite(pipeEnds[1]);

  // Everything the child needs is built before fork.
  std::vector<char *> argv = cStrings(command);
  std::vector<char *> envp = cStrings(role.environment);
  pid_t launcher = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0)
    return Status::error(StatusCode::ResourceExhausted, "{}: cannot fork: {}",
                         role.name(), std::strerror(errno));
  if (pid == 0)
    runChild(launcher, input.get(), log.get(), reportWrite.get(), argv.data(),
             envp.data());
  // Also here, so that the group exists whichever side runs first.
  ::setpgid(pid, pid);
  reportWrite.reset();
  OPENKS_RETURN_IF_ERROR(
      awaitStart(role, command.front(), pid, reportRead.get()));
  return pid;
}
