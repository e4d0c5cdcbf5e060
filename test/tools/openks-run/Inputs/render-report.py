# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Renders an openks-run --report page in a headless Chromium, bounded in
# time, and prints what its script drew, one line each for FileCheck: every
# chart's title, its tick labels, and each curve's points and legend. Then
# it prints how Chromium ended and, once no process of it is left running
# (whatever happened, they are killed), "left running: none".
#
#   python3 render-report.py PAGE.html OUT
#
# Chromium gets OUT/home as its HOME and OUT/profile as its profile, and
# logs to OUT/chromium.log.
import html.parser
import os
import shutil
import signal
import subprocess
import sys
import time

TIMEOUT_SECONDS = 60


class Drawing(html.parser.HTMLParser):
    """Collects the charts of a rendered page: titles, ticks and curves."""

    def __init__(self):
        super().__init__()
        self.charts = []
        # The element whose text is being read, with its attributes.
        self.reading = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "figcaption":
            self.charts.append({"title": "", "x": [], "y": [], "curves": [],
                                "legends": []})
            self.reading = ("title", attrs)
        elif tag == "text" and {"tick-x", "tick-y", "legend"} & set(classes):
            self.reading = (classes[0], attrs)
        elif tag == "polyline" and "series" in classes:
            points = (attrs.get("points") or "").split()
            self.charts[-1]["curves"].append((attrs["data-series"],
                                              len(points)))

    def handle_endtag(self, tag):
        if tag in ("figcaption", "text"):
            self.reading = None

    def handle_data(self, data):
        if self.reading is None:
            return
        kind, attrs = self.reading
        chart = self.charts[-1]
        if kind == "title":
            chart["title"] += data
        elif kind == "tick-x":
            chart["x"].append(data)
        elif kind == "tick-y":
            chart["y"].append(data)
        else:
            chart["legends"].append((attrs["data-series"], data))


def processes_of(group, markers):
    """Returns the live processes of process group `group` or whose command
    line holds one of `markers` (Chromium's crash handler leaves the group),
    other than this one."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                command = f.read()
        except OSError:
            continue
        state, process_group = fields[0], int(fields[2])
        if state != b"Z" and (process_group == group or
                              any(m in command for m in markers)):
            found.append(int(entry))
    return found


def kill_all(group, markers):
    """Kills the processes of processes_of(group, markers) until none is
    left; returns whether none is."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        pids = processes_of(group, markers)
        if not pids:
            return True
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.1)
    return False


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: render-report.py PAGE.html OUT")
    page, out = sys.argv[1], sys.argv[2]
    chromium = shutil.which("chromium")
    if not chromium:
        sys.exit("render-report.py: no chromium on the PATH")
    home = os.path.abspath(os.path.join(out, "home"))
    profile = os.path.abspath(os.path.join(out, "profile"))
    os.makedirs(home, exist_ok=True)
    command = [
        chromium, "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-dev-shm-usage", "--no-first-run",
        "--no-default-browser-check", "--disable-extensions",
        "--user-data-dir=" + profile, "--dump-dom",
        "file://" + os.path.abspath(page),
    ]
    with open(os.path.join(out, "chromium.log"), "w") as log:
        process = subprocess.Popen(command, stdout=subprocess.PIPE,
                                   stderr=log, stdin=subprocess.DEVNULL,
                                   env=dict(os.environ, HOME=home),
                                   start_new_session=True)
        try:
            dom, _ = process.communicate(timeout=TIMEOUT_SECONDS)
            ending = f"chromium exit {process.returncode}"
        except subprocess.TimeoutExpired:
            dom = b""
            ending = f"chromium timed out after {TIMEOUT_SECONDS} s"
        finally:
            gone = kill_all(process.pid, [home.encode(), profile.encode()])
            process.wait()

    drawing = Drawing()
    drawing.feed(dom.decode("utf-8", errors="replace"))
    for chart in drawing.charts:
        print(f"chart {chart['title']}")
        print(f"  x ticks: {', '.join(chart['x'])}")
        print(f"  y ticks: {', '.join(chart['y'])}")
        for series, points in chart["curves"]:
            print(f"  curve {series}: {points} points")
        for series, text in chart["legends"]:
            print(f"  legend {series}: {text}")
    print(ending)
    print("left running: none" if gone else "left running: some")


if __name__ == "__main__":
    main()
