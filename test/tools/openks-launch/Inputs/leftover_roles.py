# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Finds the fake roles of one test that are still running, and kills them,
# so that no test leaves a process behind, whatever went wrong.
#
#   python3 leftover_roles.py MARKER
#
# prints "left running: none", or the roles it found and killed (exit 1).
import os
import signal
import sys
import time


def running_roles(marker):
    """The pids of `python3 fake-role.py MARKER ...` processes, but zombies."""
    pids = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
            with open(f"/proc/{entry}/stat") as f:
                state = f.read().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if (len(argv) > 2 and argv[1].endswith(b"fake-role.py")
                and argv[2] == os.fsencode(marker) and state != "Z"):
            pids.append(int(entry))
    return pids


def kill_leftovers(marker, wait_seconds=0.0):
    """Waits up to `wait_seconds` for the roles of `marker` to be gone, then
    kills those that are not; prints what it found and returns it."""
    deadline = time.monotonic() + wait_seconds
    while True:
        pids = running_roles(marker)
        if not pids or time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if pids:
        print(f"left running: {len(pids)} roles (killed)", flush=True)
    else:
        print("left running: none", flush=True)
    return pids


if __name__ == "__main__":
    sys.exit(1 if kill_leftovers(sys.argv[1]) else 0)
