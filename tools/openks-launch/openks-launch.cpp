//===- openks-launch.cpp - Run every role of a job as a process -----------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// openks-launch --servers M --trainers N [options] -- COMMAND [ARGS...]
//     starts M server and N trainer processes of COMMAND, each finding its
//     role in the environment as Paddle's PaddleCloudRoleMaker reads it,
//     logs their output, shows trainer 0's, and exits 0 only when every
//     process exited 0 (docs/Launch.md).
//
//===----------------------------------------------------------------------===//

#include "Job.h"
#include "LaunchPlan.h"
#include "ToolOutput.h"
#include "ToolVersion.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <string_view>
#include <unistd.h>

using namespace openks;
using namespace openks::launch;

namespace cl = llvm::cl;

static cl::OptionCategory launchCategory("openks-launch options");

static cl::opt<int64_t> numServers("servers",
                                   cl::desc("Number of server processes"),
                                   cl::Required, cl::cat(launchCategory));
static cl::opt<int64_t> numTrainers("trainers",
                                    cl::desc("Number of trainer processes"),
                                    cl::Required, cl::cat(launchCategory));
static cl::opt<int64_t>
    startPort("start-port",
              cl::desc("Port of server 0: server i is at P+i, trainer j at "
                       "P+M+j (default 6170)"),
              cl::init(6170), cl::cat(launchCategory));
static cl::opt<std::string>
    hostName("host", cl::desc("Host of every endpoint (default 127.0.0.1)"),
             cl::init("127.0.0.1"), cl::cat(launchCategory));
static cl::opt<std::string>
    logDir("log-dir",
           cl::desc("Directory of the logs serverlog.I and workerlog.J, "
                    "created if missing (default logs)"),
           cl::init("logs"), cl::cat(launchCategory));
static cl::opt<double>
    timeoutSeconds("timeout-s",
                   cl::desc("Seconds the servers have to exit after the last "
                            "trainer; a server still running then fails the "
                            "job and is stopped (default 60)"),
                   cl::init(60), cl::cat(launchCategory));
static cl::opt<double>
    graceSeconds("grace-s",
                 cl::desc("Seconds a process has to exit after SIGTERM "
                          "before SIGKILL (default 5)"),
                 cl::init(5), cl::cat(launchCategory));
// The command comes after "--" and never reaches the option parser; a
// positional argument before it is a mistake.
static cl::list<std::string> strayArguments(cl::Positional,
                                            cl::desc("-- COMMAND [ARGS...]"),
                                            cl::cat(launchCategory));

extern char **environ;

/// Prints "openks-launch: error: MESSAGE" and returns 1.
static int fail(const std::string &message) {
  std::fflush(stdout);
  fmt::print(stderr, "openks-launch: error: {}\n", message);
  return 1;
}

/// Launches the job the command line describes; `commandStart` is the index
/// in argv of the command (argc when there is none).
static int launchFromCommandLine(int argc, char **argv, int commandStart) {
  if (!strayArguments.empty())
    return fail(fmt::format("'{}' is not an option of openks-launch; give "
                            "the command after '--'",
                            strayArguments.front()));
  LaunchOptions options;
  options.servers = numServers;
  options.trainers = numTrainers;
  options.startPort = startPort;
  options.host = hostName;
  options.logDir = logDir;
  options.timeoutSeconds = timeoutSeconds;
  options.graceSeconds = graceSeconds;
  options.command.assign(argv + commandStart, argv + argc);

  std::vector<std::string> environment;
  for (char **entry = environ; *entry; ++entry)
    environment.emplace_back(*entry);
  StatusOr<std::string> token = jobToken(environment);
  if (!token)
    return fail(token.status().message());
  StatusOr<LaunchPlan> plan = planLaunch(options, environment, *token);
  if (!plan)
    return fail(plan.status().message());
  if (Status created = createLogDirectory(options.logDir); !created)
    return fail(created.message());
  return runJob(*plan);
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv, /*InstallPipeSignalExitHandler=*/false);
  openks::tools::failWritesPastTheSizeLimit();
  openks::tools::printOpenKSVersionFirst("openks-launch");
  // A closed standard output is reported at the end; the job goes on.
  std::signal(SIGPIPE, SIG_IGN);
  // The files opened for the processes must not become their standard
  // streams by taking the number of a closed one.
  for (int fd = STDIN_FILENO; fd <= STDERR_FILENO; ++fd)
    if (::fcntl(fd, F_GETFD) < 0 && ::open("/dev/null", O_RDWR) != fd)
      return fail("cannot open /dev/null");

  // openks-launch's own arguments end at the first "--".
  int ownArgc = argc;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--") {
      ownArgc = i;
      break;
    }
  cl::HideUnrelatedOptions(launchCategory);
  cl::ParseCommandLineOptions(
      ownArgc, argv,
      "openks-launch: run every role of a parameter-server job as a "
      "process\n\n"
      "Starts M server and N trainer processes of COMMAND (no shell), each\n"
      "with its role in TRAINING_ROLE and the other PaddleCloud variables,\n"
      "its output in LOGDIR/serverlog.I or LOGDIR/workerlog.J. Shows\n"
      "trainer 0's output and a line per process that exits; waits for the\n"
      "trainers, then up to --timeout-s for the servers. The first failure\n"
      "stops every process; exits 0 only when every process exited 0.\n");
  int exitCode =
      launchFromCommandLine(argc, argv, ownArgc < argc ? ownArgc + 1 : argc);
  // A job whose progress was lost (a full disk, a closed pipe) has failed.
  errno = 0;
  if (std::fflush(stdout) != 0 || std::ferror(stdout)) {
    fail(fmt::format("cannot write standard output: {}",
                     std::strerror(errno ? errno : EIO)));
    return exitCode ? exitCode : 1;
  }
  return exitCode;
}
