//===- Job.cpp - Running a launched job to its end ------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Job.h"

#include "LogTail.h"
#include "RoleProcess.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <optional>
#include <poll.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace openks;
using namespace openks::launch;

using Clock = std::chrono::steady_clock;

/// The longest sleep between two looks at trainer 0's log.
static constexpr std::chrono::milliseconds kFollowPeriod(100);
/// The number of log lines shown with a failure.
static constexpr size_t kFailureLogLines = 10;

/// Returns "signal 15 (SIGTERM)".
static std::string describeSignal(int number) {
  const char *abbreviation = sigabbrev_np(number);
  if (!abbreviation)
    return fmt::format("signal {}", number);
  return fmt::format("signal {} (SIG{})", number, abbreviation);
}

/// Returns "SIGTERM".
static std::string signalName(int number) {
  const char *abbreviation = sigabbrev_np(number);
  return abbreviation ? fmt::format("SIG{}", abbreviation)
                      : fmt::format("signal {}", number);
}

/// Describes a waitpid status: "exited with code 3", "was killed by
/// signal 9 (SIGKILL)".
static std::string describeStatus(int status) {
  if (WIFEXITED(status))
    return fmt::format("exited with code {}", WEXITSTATUS(status));
  return fmt::format("was killed by {}{}", describeSignal(WTERMSIG(status)),
                     WCOREDUMP(status) ? " (core dumped)" : "");
}

/// Returns the seconds from `from` to `to`.
static double secondsBetween(Clock::time_point from, Clock::time_point to) {
  return std::chrono::duration<double>(to - from).count();
}

/// Returns `seconds` as a clock duration.
static Clock::duration toDuration(double seconds) {
  return std::chrono::duration_cast<Clock::duration>(
      std::chrono::duration<double>(seconds));
}

/// Prints a line of the job's progress to standard output, at once.
template <typename... Args>
static void progress(fmt::format_string<Args...> format, Args &&...args) {
  fmt::print(stdout, "openks-launch: {}\n",
             fmt::format(format, std::forward<Args>(args)...));
  std::fflush(stdout);
}

namespace {
/// A started process of the job.
struct Process {
  const RolePlan *role;
  pid_t pid;
  Clock::time_point started;
  bool running = true;
  /// Whether the launcher has sent it a signal.
  bool signalled = false;
};

/// The failure that explains the job's end: the first one the launcher saw.
struct Failure {
  std::string message;
  /// The process whose log's end to show with it, if any.
  const RolePlan *role = nullptr;
};

/// The launcher's state while the job runs.
class Job {
public:
  explicit Job(const LaunchPlan &plan) : plan_(plan) {}
  ~Job() {
    if (signals_ >= 0)
      ::close(signals_);
  }

  int run();

private:
  Status watchSignals();
  void startProcesses();
  void readSignals(Clock::time_point now);
  void reapProcesses(Clock::time_point now);
  void exited(Process &process, int status, Clock::time_point now);
  void showTrainerOutput(bool atEnd);
  void awaitServers(Clock::time_point now);
  void enforceStop(Clock::time_point now);
  void fail(Failure failure, Clock::time_point now);
  void stop(int signal, Clock::time_point now);
  void signalRunning(int signal);
  bool anyRunning(std::optional<RoleKind> kind = std::nullopt) const;
  Clock::time_point nextDeadline(Clock::time_point now) const;
  int report(Clock::time_point now);

  const LaunchPlan &plan_;
  Clock::time_point start_ = Clock::now();
  std::vector<Process> processes_;
  /// A signalfd of SIGCHLD, SIGINT, SIGTERM and SIGHUP, which are blocked.
  int signals_ = -1;
  LogFollower trainerOutput_;
  bool followingTrainer_ = false;

  std::optional<Failure> failure_;
  /// The signal that stopped the job, when that came first.
  int interruption_ = 0;

  /// When every trainer has exited: how long the servers have left.
  std::optional<Clock::time_point> serversDeadline_;
  /// Stopping: SIGTERM went out; SIGKILL goes at killAt_ and the launcher
  /// gives up on a process that is still there at giveUpAt_.
  bool stopping_ = false;
  bool killed_ = false;
  bool gaveUp_ = false;
  Clock::time_point killAt_;
  Clock::time_point giveUpAt_;
};
} // namespace

Status Job::watchSignals() {
  sigset_t set;
  sigemptyset(&set);
  for (int number : {SIGCHLD, SIGINT, SIGTERM, SIGHUP})
    sigaddset(&set, number);
  if (::sigprocmask(SIG_BLOCK, &set, nullptr) < 0 ||
      (signals_ = ::signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0)
    return Status::internal("cannot watch signals: {}", std::strerror(errno));
  return Status::ok();
}

void Job::startProcesses() {
  for (const RolePlan &role : plan_.roles) {
    readSignals(Clock::now());
    if (stopping_)
      return;
    StatusOr<pid_t> pid = startRole(role, plan_.options.command);
    if (!pid)
      return fail({pid.status().message()}, Clock::now());
    processes_.push_back({&role, *pid, Clock::now()});
    progress("{} (pid {}) started at {}, log {}", role.name(), *pid,
             role.endpoint, role.logPath);
    if (role.kind == RoleKind::Trainer && role.index == 0) {
      if (Status opened = trainerOutput_.open(role.logPath); !opened)
        return fail({opened.message()}, Clock::now());
      followingTrainer_ = true;
    }
  }
}

void Job::readSignals(Clock::time_point now) {
  signalfd_siginfo info;
  while (::read(signals_, &info, sizeof(info)) == sizeof(info)) {
    int number = static_cast<int>(info.ssi_signo);
    if (number == SIGCHLD)
      continue; // reapProcesses looks at every process anyway
    if (!failure_ && !interruption_)
      interruption_ = number;
    if (!stopping_) {
      progress("received {}; stopping every process", signalName(number));
      stop(number, now);
    } else if (!killed_) {
      // A second request to stop does not wait for the grace period.
      progress("received {} while stopping; killing every process",
               signalName(number));
      killAt_ = now;
      enforceStop(now);
    }
  }
}

void Job::reapProcesses(Clock::time_point now) {
  for (Process &process : processes_) {
    if (!process.running)
      continue;
    int status = 0;
    pid_t pid = ::waitpid(process.pid, &status, WNOHANG);
    if (pid == process.pid)
      exited(process, status, now);
  }
}

void Job::exited(Process &process, int status, Clock::time_point now) {
  const RolePlan &role = *process.role;
  // What trainer 0 wrote before this exit comes before its line; all it
  // wrote, if it is trainer 0 that exited.
  bool trainerZero = role.kind == RoleKind::Trainer && role.index == 0;
  showTrainerOutput(/*atEnd=*/trainerZero);
  if (trainerZero)
    followingTrainer_ = false;
  process.running = false;
  progress("{} (pid {}) {} after {:.2f} s{}", role.name(), process.pid,
           describeStatus(status), secondsBetween(process.started, now),
           process.signalled ? ", stopped by the launcher" : "");
  // What it started and left in its process group has no role any more.
  if (::kill(-process.pid, SIGKILL) == 0)
    progress("killed what {} left running in its process group", role.name());
  bool succeeded = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (!succeeded && !process.signalled)
    fail({fmt::format("{} (pid {}) failed first: it {}", role.name(),
                      process.pid, describeStatus(status)),
          &role},
         now);
}

void Job::showTrainerOutput(bool atEnd) {
  if (!followingTrainer_)
    return;
  trainerOutput_.readLines(
      [](std::string_view line) {
        fmt::print(stdout, "[trainer 0] {}\n", line);
      },
      atEnd);
  std::fflush(stdout);
}

void Job::awaitServers(Clock::time_point now) {
  if (anyRunning(RoleKind::Trainer) || !anyRunning(RoleKind::Server))
    return;
  double timeout = plan_.options.timeoutSeconds;
  if (!serversDeadline_) {
    serversDeadline_ = now + toDuration(timeout);
    progress("every trainer has exited; waiting up to {} s for the servers "
             "to exit",
             timeout);
    return;
  }
  if (now < *serversDeadline_)
    return;
  std::string late = fmt::format(
      "is still running {} s after the last trainer exited", timeout);
  std::optional<Failure> first;
  for (const Process &process : processes_) {
    if (!process.running)
      continue;
    progress("{} (pid {}) {}", process.role->name(), process.pid, late);
    if (!first)
      first = Failure{fmt::format("{} (pid {}) failed first: it {} "
                                  "(--timeout-s)",
                                  process.role->name(), process.pid, late),
                      process.role};
  }
  fail(*first, now);
}

void Job::enforceStop(Clock::time_point now) {
  if (!killed_ && now >= killAt_) {
    killed_ = true;
    giveUpAt_ = now + toDuration(plan_.options.graceSeconds);
    for (const Process &process : processes_)
      if (process.running)
        progress("{} (pid {}) is still running; sending SIGKILL",
                 process.role->name(), process.pid);
    signalRunning(SIGKILL);
    return;
  }
  if (killed_ && now >= giveUpAt_ && anyRunning()) {
    std::fflush(stdout);
    for (const Process &process : processes_)
      if (process.running)
        fmt::print(stderr,
                   "openks-launch: error: {} (pid {}) did not exit {} s "
                   "after SIGKILL; leaving it\n",
                   process.role->name(), process.pid,
                   plan_.options.graceSeconds);
    gaveUp_ = true;
  }
}

void Job::fail(Failure failure, Clock::time_point now) {
  if (!failure_ && !interruption_)
    failure_ = std::move(failure);
  stop(SIGTERM, now);
}

void Job::stop(int signal, Clock::time_point now) {
  if (stopping_)
    return;
  stopping_ = true;
  killAt_ = now + toDuration(plan_.options.graceSeconds);
  signalRunning(signal);
}

void Job::signalRunning(int signal) {
  for (Process &process : processes_) {
    if (!process.running)
      continue;
    process.signalled = true;
    // The process group reaches what the role started too; a role that
    // left its group still gets the signal itself.
    if (::kill(-process.pid, signal) < 0)
      ::kill(process.pid, signal);
  }
}

bool Job::anyRunning(std::optional<RoleKind> kind) const {
  return std::any_of(
      processes_.begin(), processes_.end(), [&](const Process &process) {
        return process.running && (!kind || process.role->kind == *kind);
      });
}

Clock::time_point Job::nextDeadline(Clock::time_point now) const {
  Clock::time_point next = now + kFollowPeriod;
  if (stopping_)
    next = std::min(next, killed_ ? giveUpAt_ : killAt_);
  else if (serversDeadline_)
    next = std::min(next, *serversDeadline_);
  return next;
}

int Job::report(Clock::time_point now) {
  showTrainerOutput(/*atEnd=*/true);
  std::fflush(stdout);
  if (failure_) {
    fmt::print(stderr, "openks-launch: error: {}\n", failure_->message);
    if (const RolePlan *role = failure_->role) {
      StatusOr<std::vector<std::string>> lines =
          lastLines(role->logPath, kFailureLogLines);
      if (!lines) {
        fmt::print(stderr, "openks-launch: {}\n", lines.status().message());
      } else if (lines->empty()) {
        fmt::print(stderr, "openks-launch: {} is empty\n", role->logPath);
      } else {
        fmt::print(stderr, "openks-launch: the last lines of {}:\n",
                   role->logPath);
        for (const std::string &line : *lines)
          fmt::print(stderr, "[{}] {}\n", role->name(), line);
      }
    }
    return 1;
  }
  if (interruption_) {
    fmt::print(stderr, "openks-launch: error: stopped by {}\n",
               signalName(interruption_));
    return 128 + interruption_;
  }
  progress("all {} processes exited with code 0 in {:.2f} s", processes_.size(),
           secondsBetween(start_, now));
  return 0;
}

int Job::run() {
  if (Status watching = watchSignals(); !watching) {
    fmt::print(stderr, "openks-launch: error: {}\n", watching.message());
    return 1;
  }
  startProcesses();
  for (;;) {
    Clock::time_point now = Clock::now();
    readSignals(now);
    reapProcesses(now);
    showTrainerOutput(/*atEnd=*/false);
    now = Clock::now();
    if (stopping_)
      enforceStop(now);
    else
      awaitServers(now);
    if (!anyRunning() || gaveUp_)
      break;
    // Woken by any signal (SIGCHLD when a process exits), else at the next
    // deadline or look at the log.
    auto wait = std::chrono::ceil<std::chrono::milliseconds>(nextDeadline(now) -
                                                             Clock::now());
    pollfd readable{signals_, POLLIN, 0};
    ::poll(&readable, 1, static_cast<int>(std::max<int64_t>(wait.count(), 0)));
  }
  return report(Clock::now());
}

int openks::launch::runJob(const LaunchPlan &plan) { return Job(plan).run(); }
