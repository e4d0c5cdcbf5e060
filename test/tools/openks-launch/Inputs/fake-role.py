# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# A fake role for the openks-launch tests: what it does depends on its role,
# which it reads from the environment as a real role would.
#
#   python3 fake-role.py MARKER RULE...
#
# MARKER is the test's own directory; it finds the test's roles
# (leftover_roles.py) and holds their ready.* files. A RULE is
# WHO=STEP,STEP,...
# where WHO is trainer1 (one role), trainer (every trainer) or server; the
# most specific rule applies, and no rule means exit 0. The steps:
#   env          print the launcher's variables, the proxies and stdin
#   say:TEXT     print TEXT
#   lines:N      print "line 1" to "line N"
#   ready        print "ready" and create MARKER/ready.WHO
#   await:N      wait until N roles are ready (at most 60 s, else exit 99)
#   sleep:S      sleep S seconds
#   hang         sleep up to 120 s (so that even a broken launcher leaves
#                nothing behind for long)
#   ignore-term  ignore SIGTERM from now on
#   spawn        start a copy of itself that hangs, in its process group
#   exit:N       exit with code N
#   kill:SIG     kill itself with signal SIG (a number)
import glob
import os
import signal
import subprocess
import sys
import time

VARIABLES = [
    "TRAINING_ROLE", "PADDLE_PSERVERS_IP_PORT_LIST", "PADDLE_TRAINER_ENDPOINTS",
    "PADDLE_TRAINERS_NUM", "PADDLE_CURRENT_ENDPOINT", "PADDLE_TRAINER_ID",
    "POD_IP", "PADDLE_PORT", "OPENKS_ROLE_MAKER", "OPENKS_JOB_TOKEN",
    "LAUNCH_TEST_KEPT", "http_proxy", "https_proxy", "HTTP_PROXY",
    "HTTPS_PROXY", "grpc_proxy",
]


def say(text):
    print(text, flush=True)


def main():
    role = os.environ["TRAINING_ROLE"]
    kind = "server" if role == "PSERVER" else "trainer"
    if kind == "server":
        servers = os.environ["PADDLE_PSERVERS_IP_PORT_LIST"].split(",")
        index = servers.index(os.environ["PADDLE_CURRENT_ENDPOINT"])
    else:
        index = int(os.environ["PADDLE_TRAINER_ID"])
    rules = dict(rule.split("=", 1) for rule in sys.argv[2:])
    steps = rules.get(f"{kind}{index}", rules.get(kind, "exit:0"))
    for step in steps.split(","):
        name, _, argument = step.partition(":")
        if name == "env":
            for variable in VARIABLES:
                say(f"{variable}={os.environ.get(variable, '<unset>')}")
            say(f"stdin={os.readlink('/proc/self/fd/0')}")
            say(f"own process group={os.getpgrp() == os.getpid()}")
        elif name == "say":
            say(argument)
        elif name == "lines":
            for number in range(1, int(argument) + 1):
                say(f"line {number}")
        elif name == "ready":
            say("ready")
            open(os.path.join(sys.argv[1], f"ready.{kind}{index}"), "w").close()
        elif name == "await":
            deadline = time.monotonic() + 60
            while len(glob.glob(os.path.join(sys.argv[1], "ready.*"))) < int(argument):
                if time.monotonic() > deadline:
                    sys.exit(99)
                time.sleep(0.02)
        elif name == "sleep":
            time.sleep(float(argument))
        elif name == "hang":
            time.sleep(120)
        elif name == "spawn":
            subprocess.Popen([sys.executable, sys.argv[0], sys.argv[1],
                              f"{kind}{index}=hang"])
        elif name == "ignore-term":
            signal.signal(signal.SIGTERM, signal.SIG_IGN)
        elif name == "exit":
            sys.exit(int(argument))
        elif name == "kill":
            os.kill(os.getpid(), int(argument))
            time.sleep(10)
        else:
            sys.exit(f"fake-role.py: unknown step '{step}'")


main()
