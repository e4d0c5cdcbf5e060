# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Prints the figures of an openks-run --report page, read from its JSON
# (the script element "openks-run-data"), one per line for FileCheck, after
# checking that the page holds exactly one such element and that every
# per-step curve has a value for every step.
#
#   python3 report-data.py PAGE.html
import html.parser
import json
import sys


class DataFinder(html.parser.HTMLParser):
    """Collects the text of the script elements with id openks-run-data."""

    def __init__(self):
        super().__init__()
        self.blocks = []
        self.inside = False

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and attrs.get("id") == "openks-run-data":
            if attrs.get("type") != "application/json":
                sys.exit("report-data.py: openks-run-data is not JSON")
            self.inside = True
            self.blocks.append("")

    def handle_endtag(self, tag):
        if tag == "script":
            self.inside = False

    def handle_data(self, data):
        if self.inside:
            self.blocks[-1] += data


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: report-data.py PAGE.html")
    with open(sys.argv[1], encoding="utf-8") as page:
        finder = DataFinder()
        finder.feed(page.read())
    if len(finder.blocks) != 1:
        sys.exit(f"report-data.py: {len(finder.blocks)} openks-run-data "
                 "elements")
    data = json.loads(finder.blocks[0])

    steps = data["steps"]
    curves = [("loss", data["loss"]),
              ("samples_per_sec", data["samplesPerSecond"])]
    curves += [(metric["name"], metric["values"]) for metric in data["metrics"]]
    for name, values in curves:
        if len(values) != len(steps):
            sys.exit(f"report-data.py: {len(values)} values of {name} for "
                     f"{len(steps)} steps")
    if data["finalLoss"] != data["loss"][-1]:
        sys.exit("report-data.py: the final loss is not the last step's")

    print(f"input: {data['input']}")
    print(f"run: {data['run']}")
    print(f"batch: {data['batchSize']} rows of {data['data']}")
    print(f"steps: {len(steps)}, {steps[0]} to {steps[-1]}")
    print(f"samples: {data['samples']}")
    print(f"final loss: {data['finalLoss']:.6f}")
    print(f"mean samples/s: {data['meanSamplesPerSecond']:.0f}")
    print("curves: " + ", ".join(json.dumps(name) for name, _ in curves))
    for metric in data["metrics"]:
        last = metric["values"][-1]
        print(f"last {json.dumps(metric['name'])}: "
              f"{'none' if last is None else format(last, '.6g')}")
    for evaluation in data["evaluations"]:
        pairs = zip(evaluation["steps"], evaluation["values"])
        print(f"held-out {json.dumps(evaluation['name'])}: " +
              ", ".join(f"{value:.6g} at {step}" for step, value in pairs))

    job = data["job"]
    if job is None:
        print("job: none")
        return
    print(f"job: {job['mode']}, {len(job['servers'])} servers, "
          f"{job['trainers']} trainers")
    for server in job["servers"]:
        if "bytesReceived" in server:
            traffic = (f"received {server['bytesReceived']}, sent "
                       f"{server['bytesSent']}, steps applied "
                       f"{server['stepsApplied']}")
        else:
            traffic = "traffic unknown"
        print(f"server {server['name']} {server['endpoint']}: "
              f"{len(server['blocks'])} blocks, {traffic}")
        for block in server["blocks"]:
            rows = block["shape"][0] if block["shape"] else 1
            print(f"  block {block['name']} of {block['variable']}: rows "
                  f"{block['rowBegin']} to {block['rowBegin'] + rows}, "
                  f"shape {block['shape']} of {block['variableShape']} "
                  f"{block['dtype']}, {block['bytes']} bytes")
    for trainer in job["trainerTraffic"]:
        print(f"trainer {trainer['trainer']}: {trainer['steps']} steps, "
              f"{trainer['rows']} rows, pushed {trainer['bytesPushed']}, "
              f"pulled {trainer['bytesPulled']}, "
              f"{trainer['barrierSeconds']:.3f} s at barriers")


if __name__ == "__main__":
    main()
