# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs openks-launch for a test, bounded in time, and prints its output
# followed by how it ended and which of the test's roles are left (and kills
# those), whatever happens.
#
#   python3 run-launcher.py MARKER [--signal NAME@READY]... -- LAUNCHER...
#
# With --signal the launcher gets signal NAME (TERM, INT, KILL) once READY
# roles are ready (fake-role.py's "ready" step) and its output has shown
# trainer 0's "ready", so trainer 0's output is seen while it runs; several
# are sent half a second apart.
import argparse
import os
import signal
import subprocess
import sys
import threading
import time

# The tests leave nothing behind, not even bytecode in the source tree.
sys.dont_write_bytecode = True
from leftover_roles import kill_leftovers  # noqa: E402

LAUNCHER_TIMEOUT = 90
READY_TIMEOUT = 60


def main():
    separator = sys.argv.index("--")
    command = sys.argv[separator + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("marker")
    parser.add_argument("--signal", action="append", default=[])
    args = parser.parse_args(sys.argv[1:separator])
    signals = [(getattr(signal, "SIG" + name), int(ready))
               for name, ready in (spec.split("@") for spec in args.signal)]

    launcher = subprocess.Popen(command, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT)
    trainer_ready = threading.Event()

    def relay():
        for line in launcher.stdout:
            sys.stdout.buffer.write(line)
            sys.stdout.flush()
            if line.rstrip(b"\n") == b"[trainer 0] ready":
                trainer_ready.set()

    relay_thread = threading.Thread(target=relay)
    relay_thread.start()
    killed = False
    try:
        try:
            for number, ready in signals:
                deadline = time.monotonic() + READY_TIMEOUT
                while (sum(name.startswith("ready.")
                           for name in os.listdir(args.marker)) < ready
                       or not trainer_ready.is_set()):
                    if time.monotonic() > deadline or launcher.poll() is not None:
                        raise RuntimeError("the roles did not get ready")
                    time.sleep(0.05)
                launcher.send_signal(number)
                killed = killed or number == signal.SIGKILL
                time.sleep(0.5)
            code = launcher.wait(timeout=LAUNCHER_TIMEOUT)
        except (RuntimeError, subprocess.TimeoutExpired) as error:
            print(f"run-launcher.py: {error}", flush=True)
            launcher.kill()
            code = launcher.wait()
        relay_thread.join()
        if code < 0:
            print(f"launcher killed by {signal.Signals(-code).name}", flush=True)
        else:
            print(f"launcher exit code: {code}", flush=True)
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait()
        # A SIGKILLed launcher's roles exit by themselves, but not at once.
        kill_leftovers(args.marker, wait_seconds=20 if killed else 0)


main()
