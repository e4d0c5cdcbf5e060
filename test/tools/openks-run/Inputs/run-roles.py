# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Runs a job as one openks-run process per role on free loopback ports, for
# a test, bounded in time, and reports how each process ended; whatever
# happens, no process of the job is left running.
#
#   python3 run-roles.py OUT --servers M --trainers N [options] -- openks-run ARGS...
#
# Each role runs `openks-run ARGS... --pservers ENDPOINTS --trainers N
# --role ROLE --index I` with OPENKS_JOB_TOKEN set, its output in
# OUT/ROLE.log ("server0.log", "trainer1.log"). Options:
#   --launch LAUNCHER    run the job through the openks-launch LAUNCHER
#                        instead (its output goes to OUT/launch.log)
#   --kill ROLE@STEP     SIGKILL ROLE once trainer 0 has logged step STEP
#   --delay ROLE=SECONDS start ROLE that much after the others
#   --env ROLE:NAME=VALUE  set (or, with an empty VALUE, unset) a variable
#                        of ROLE's environment
#   --extra ROLE=ARG     append ARG to ROLE's command line
#   --scheduler NAME     give each role the variables the scheduler NAME
#                        sets instead of --role and the job's flags:
#                        paddlecloud (PADDLE_TRAINING_ROLE, POD_IP and
#                        PADDLE_PORT), tfconfig (a TFJob's TF_CONFIG with a
#                        chief as trainer 0 and an evaluator) or slurm (one
#                        srun step on one node)
#   --deadline SECONDS   kill whatever still runs after this long (60)
# It prints "ROLE exit CODE" (or "ROLE killed by SIGNAL") for every role in
# role order, and "left running: none" once nothing is.
import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time


def free_ports(count):
    """Returns the first of `count` consecutive loopback ports free now."""
    for _ in range(200):
        probe = socket.socket()
        probe.bind(("127.0.0.1", 0))
        first = probe.getsockname()[1]
        sockets = [probe]
        try:
            for port in range(first + 1, first + count):
                extra = socket.socket()
                sockets.append(extra)
                extra.bind(("127.0.0.1", port))
            return first
        except OSError:
            continue
        finally:
            for s in sockets:
                s.close()
    sys.exit("run-roles.py: no free loopback ports")


def role_names(servers, trainers):
    return ([f"server{i}" for i in range(servers)] +
            [f"trainer{i}" for i in range(trainers)])


def scheduler_variables(scheduler, role, servers, trainers, first_port):
    """The variables `scheduler` gives `role` of a job of `servers` servers
    and `trainers` trainers on one host, ports from `first_port` on."""
    kind = role.rstrip("0123456789")
    index = int(role[len(kind):])
    server_endpoints = [f"127.0.0.1:{first_port + i}" for i in range(servers)]
    trainer_endpoints = [f"127.0.0.1:{first_port + servers + i}"
                         for i in range(trainers)]
    if scheduler == "paddlecloud":
        variables = {
            "PADDLE_TRAINING_ROLE": "PSERVER" if kind == "server" else "TRAINER",
            "PADDLE_PSERVERS_IP_PORT_LIST": ",".join(server_endpoints),
            "PADDLE_TRAINER_ENDPOINTS": ",".join(trainer_endpoints),
            "PADDLE_TRAINERS_NUM": str(trainers),
        }
        if kind == "server":
            variables["POD_IP"] = "127.0.0.1"
            variables["PADDLE_PORT"] = str(first_port + index)
        else:
            variables["PADDLE_TRAINER_ID"] = str(index)
        return variables
    if scheduler == "tfconfig":
        # Trainer 0 is the chief; the other trainers are the workers.
        cluster = {"ps": server_endpoints, "chief": trainer_endpoints[:1],
                   "worker": trainer_endpoints[1:]}
        if kind == "server":
            task = {"type": "ps", "index": index}
        elif kind == "trainer":
            task = ({"type": "chief", "index": 0} if index == 0 else
                    {"type": "worker", "index": index - 1})
        else:
            task = {"type": "evaluator", "index": index}
        return {"TF_CONFIG": json.dumps({"cluster": cluster, "task": task,
                                         "environment": "cloud"})}
    # One srun job step of every role on this host, servers first.
    tasks = servers + trainers
    rank = index if kind == "server" else servers + index
    return {
        "SLURM_JOB_ID": "4242", "SLURM_STEP_ID": "0",
        "SLURM_PROCID": str(rank), "SLURM_LOCALID": str(rank),
        "SLURM_NODEID": "0", "SLURMD_NODENAME": "localhost",
        "SLURM_GTIDS": ",".join(str(t) for t in range(tasks)),
        "SLURM_STEP_NODELIST": "localhost", "SLURM_STEP_NUM_NODES": "1",
        "SLURM_STEP_NUM_TASKS": str(tasks),
        "SLURM_STEP_TASKS_PER_NODE": str(tasks),
        "SLURM_STEP_RESV_PORTS": f"{first_port}-{first_port + tasks - 1}",
        "SLURM_DISTRIBUTION": "block", "OPENKS_SLURM_SERVERS": str(servers),
    }


def main():
    separator = sys.argv.index("--")
    command = sys.argv[separator + 1:]
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--servers", type=int, required=True)
    parser.add_argument("--trainers", type=int, required=True)
    parser.add_argument("--launch")
    parser.add_argument("--kill")
    parser.add_argument("--delay", action="append", default=[])
    parser.add_argument("--env", action="append", default=[])
    parser.add_argument("--extra", action="append", default=[])
    parser.add_argument("--scheduler",
                        choices=["paddlecloud", "tfconfig", "slurm"])
    parser.add_argument("--deadline", type=float, default=60)
    args = parser.parse_args(sys.argv[1:separator])
    os.makedirs(args.out, exist_ok=True)

    roles = role_names(args.servers, args.trainers)
    first_port = free_ports(args.servers + args.trainers)
    endpoints = ",".join(f"127.0.0.1:{first_port + i}"
                         for i in range(args.servers))
    base_env = dict(os.environ)
    base_env["OPENKS_JOB_TOKEN"] = "run-roles-test-token"
    for name in ("TRAINING_ROLE", "PADDLE_TRAINING_ROLE", "TF_CONFIG",
                 "SLURM_PROCID", "SLURM_JOB_ID", "OPENKS_ROLE_MAKER"):
        base_env.pop(name, None)
    delays = dict(spec.split("=", 1) for spec in args.delay)
    if args.scheduler == "tfconfig":
        # The evaluator of a TFJob is a process too; it has nothing to do.
        roles.append("evaluator0")

    def environment(role):
        env = dict(base_env)
        if args.scheduler:
            env.update(scheduler_variables(args.scheduler, role, args.servers,
                                           args.trainers, first_port))
        for spec in args.env:
            who, assignment = spec.split(":", 1)
            if who != role:
                continue
            name, value = assignment.split("=", 1)
            if value:
                env[name] = value
            else:
                env.pop(name, None)
        return env

    processes = {}
    if args.launch:
        log = open(os.path.join(args.out, "launch.log"), "wb")
        processes["launcher"] = subprocess.Popen(
            [args.launch, "--servers", str(args.servers), "--trainers",
             str(args.trainers), "--start-port", str(first_port), "--log-dir",
             os.path.join(args.out, "logs"), "--"] + command,
            stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env=environment("launcher"), start_new_session=True)
        roles = ["launcher"]
    else:
        pending = sorted(roles, key=lambda role: float(delays.get(role, 0)))
        start = time.monotonic()
        for role in pending:
            time.sleep(max(0.0, start + float(delays.get(role, 0)) -
                           time.monotonic()))
            kind = role.rstrip("0123456789")
            index = role[len(kind):]
            flags = [] if args.scheduler else [
                "--pservers", endpoints, "--trainers", str(args.trainers),
                "--role", kind, "--index", index]
            log = open(os.path.join(args.out, role + ".log"), "wb")
            processes[role] = subprocess.Popen(
                command + flags +
                [spec.split("=", 1)[1] for spec in args.extra
                 if spec.split("=", 1)[0] == role],
                stdout=log, stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL, env=environment(role),
                start_new_session=True)

    deadline = time.monotonic() + args.deadline
    killed = set()
    if args.kill:
        victim, step = args.kill.split("@")
        log_path = os.path.join(args.out, "trainer0.log")
        pattern = re.compile(rf"^step {step}/".encode(), re.M)
        while time.monotonic() < deadline:
            with open(log_path, "rb") as log:
                if pattern.search(log.read()):
                    break
            if processes["trainer0"].poll() is not None:
                break
            time.sleep(0.01)
        processes[victim].kill()
        killed.add(victim)
        print(f"killed {victim} at step {step}", flush=True)

    try:
        for role in roles:
            process = processes[role]
            try:
                process.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                print(f"{role} still running at the deadline", flush=True)
    finally:
        for role, process in processes.items():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    for role in roles:
        code = processes[role].returncode
        if code < 0:
            print(f"{role} killed by {signal.Signals(-code).name}", flush=True)
        else:
            print(f"{role} exit {code}", flush=True)
    # A role's own children (none today) would be in its process group.
    for process in processes.values():
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
    print("left running: none", flush=True)


main()
