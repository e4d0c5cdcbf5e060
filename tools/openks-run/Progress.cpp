//===- Progress.cpp - openks-run's progress lines -------------------------===//
//
// Part of the OpenKS Fleet compiler, under the Apache License v2.0 with LLVM
// Exceptions. See the LICENSE file for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "Progress.h"
#include "PrintTo.h"

#include <algorithm>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

using namespace openks::run;

Progress::Progress(int64_t totalSteps, int64_t logEvery)
    : totalSteps_(totalSteps),
      every_(logEvery > 0 ? logEvery : std::max<int64_t>(1, totalSteps / 10)),
      terminal_(isatty(fileno(stdout))) {}

/// Returns `seconds` as "42s", "3m05s" or "2h07m".
static std::string formatDuration(double seconds) {
  auto whole = static_cast<int64_t>(seconds + 0.5);
  if (whole < 60)
    return fmt::format("{}s", whole);
  if (whole < 3600)
    return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, whole % 3600 / 60);
}

void Progress::step(int64_t step, double loss, int64_t rows,
                    Clock::time_point when) {
  if (startStep_ < 0)
    startStep_ = step - 1;
  windowRows_ += rows;
  bool last = step == totalSteps_;
  if (!terminal_ && !last && step % every_ != 0)
    return;
  double seconds = std::chrono::duration<double>(when - windowStart_).count();
  std::string line =
      fmt::format("step {}/{}  loss {:.6f}  {:.0f} samples/s", step,
                  totalSteps_, loss, windowRows_ / std::max(seconds, 1e-9));
  if (!last) {
    double elapsed = std::chrono::duration<double>(when - start_).count();
    line += "  ETA " + formatDuration(elapsed * (totalSteps_ - step) /
                                      (step - startStep_));
  }
  if (terminal_)
    printTo(stdout, "\r{}\x1b[K{}", line, last ? "\n" : "");
  else
    printTo(stdout, "{}\n", line);
  std::fflush(stdout);
  windowStart_ = when;
  windowRows_ = 0;
}
