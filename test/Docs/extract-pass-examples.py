#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Runs the before/after example of every pass in Passes.td.

Each pass's `description` must hold an example, in this form:

    Run with: `openks-opt --openks-some-pass="option=value"`

    Before:

    ```mlir
    ...the input...
    ```

    After:

    ```mlir
    ...what the pass makes of it...
    ```

The checker runs the `Run with:` command on Before, with OPENKS_OPT for
`openks-opt`. An ```mlir After must equal the printed output; both sides go
through openks-opt, so they are compared in its canonical printing. A
```text After must equal what the pass writes to standard error (a report),
and then the printed IR must be Before unchanged. With --reference, every
pass of the generated reference page (its `### `-name`` headings) must be
a pass of PASSES_TD, so that none is left unchecked.

Prints every pass with no example, an incomplete one, or a wrong After,
and exits with 1; otherwise prints how many examples it ran.

Usage: extract-pass-examples.py OPENKS_OPT PASSES_TD [--reference PAGE]
"""

import difflib
import re
import shlex
import subprocess
import sys
import textwrap

PASS_DEF = re.compile(r'^def\s+\w+\s*:\s*\w*Pass<"([^"]+)"', re.M)
DESCRIPTION = re.compile(r"let\s+description\s*=\s*\[\{(.*?)\}\]", re.S)
RUN_WITH = re.compile(r"^Run with: `([^`]*)`\s*$")
MARKERS = ("Before:", "After:")
REFERENCE_HEADING = re.compile(r"^### `-([\w-]+)`", re.M)


def pass_descriptions(td):
    """Yields (pass name, dedented description or None) in file order."""
    defs = list(PASS_DEF.finditer(td))
    for i, match in enumerate(defs):
        end = defs[i + 1].start() if i + 1 < len(defs) else len(td)
        found = DESCRIPTION.search(td, match.end(), end)
        yield match.group(1), textwrap.dedent(found.group(1)) if found else None


def parse_example(description):
    """Returns (command, {marker: (language, text)}, problems)."""
    lines = description.splitlines()
    commands, blocks, problems = [], {}, []
    i = 0
    while i < len(lines):
        line = lines[i].strip()
        run_with = RUN_WITH.match(line)
        if run_with:
            commands.append(run_with.group(1))
        elif line in MARKERS:
            marker = line
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            if j == len(lines) or not lines[j].startswith("```"):
                problems.append(f"`{marker}` is not followed by a fenced block")
            elif marker in blocks:
                problems.append(f"more than one `{marker}` block")
            else:
                language = lines[j][3:].strip()
                k = j + 1
                while k < len(lines) and not lines[k].startswith("```"):
                    k += 1
                if k == len(lines):
                    problems.append(f"the `{marker}` block is not closed")
                blocks[marker] = (language, "\n".join(lines[j + 1:k]) + "\n")
                i = k
        i += 1
    if len(commands) > 1:
        problems.append("more than one `Run with:` line")
    return (commands[0] if commands else None), blocks, problems


def run(openks_opt, args, text):
    return subprocess.run([openks_opt] + args, input=text, capture_output=True,
                          text=True)


def diff(expected, actual, expected_name, actual_name):
    return "".join(difflib.unified_diff(
        expected.splitlines(keepends=True), actual.splitlines(keepends=True),
        expected_name, actual_name, n=1))


def normalize_text(text):
    return "\n".join(line.rstrip() for line in text.strip("\n").splitlines()) + "\n"


def check_pass(openks_opt, name, description):
    """Yields what is wrong with the example of pass `name`."""
    if description is None:
        yield "no description, so no example"
        return
    command, blocks, problems = parse_example(description)
    if command is None and not blocks:
        yield ("no example: its description needs a `Run with: `openks-opt ...`` "
               "line, a `Before:` block and an `After:` block")
        return
    yield from problems
    if command is None:
        yield "no `Run with: `openks-opt ...`` line"
    for marker in MARKERS:
        if marker not in blocks:
            yield f"no `{marker}` block"
    if problems or command is None or len(blocks) != len(MARKERS):
        return
    words = shlex.split(command)
    if not words or words[0] != "openks-opt":
        yield f"`Run with:` must run openks-opt, not `{command}`"
        return
    before_language, before = blocks["Before:"]
    after_language, after = blocks["After:"]
    if before_language != "mlir":
        yield f"the `Before:` block is ```{before_language}, not ```mlir"
        return

    result = run(openks_opt, words[1:], before)
    if result.returncode != 0:
        yield f"`{command}` fails on the Before block:\n{result.stderr}"
        return
    if after_language == "mlir":
        expected = run(openks_opt, [], after)
        if expected.returncode != 0:
            yield f"the After block is not valid IR:\n{expected.stderr}"
            return
        if result.stdout != expected.stdout:
            yield (f"`{command}` on Before does not print After:\n"
                   + diff(expected.stdout, result.stdout, "After", "output"))
    elif after_language == "text":
        if normalize_text(result.stderr) != normalize_text(after):
            yield (f"`{command}` on Before does not report After:\n"
                   + diff(normalize_text(after), normalize_text(result.stderr),
                          "After", "standard error"))
        unchanged = run(openks_opt, [], before)
        if result.stdout != unchanged.stdout:
            yield (f"`{command}` changes the IR of Before:\n"
                   + diff(unchanged.stdout, result.stdout, "Before", "output"))
    else:
        yield f"the `After:` block is ```{after_language}, not ```mlir or ```text"


def main():
    args = sys.argv[1:]
    reference = None
    if len(args) == 4 and args[2] == "--reference":
        reference = args[3]
        args = args[:2]
    if len(args) != 2:
        sys.exit(__doc__)
    openks_opt, td_path = args
    with open(td_path, encoding="utf-8") as f:
        passes = list(pass_descriptions(f.read()))
    if not passes:
        sys.exit(f"{td_path}: no pass definitions found")

    found = []
    if reference:
        with open(reference, encoding="utf-8") as f:
            documented = REFERENCE_HEADING.findall(f.read())
        for name in sorted(set(documented) - {name for name, _ in passes}):
            found.append(f"{name}: in {reference} but not a pass of {td_path}")
    for name, description in passes:
        found += [f"{name}: {problem}"
                  for problem in check_pass(openks_opt, name, description)]
    for problem in found:
        print(problem)
    if found:
        print(f"{td_path}: wrong or missing pass examples")
        sys.exit(1)
    print(f"{len(passes)} pass examples give their After")


if __name__ == "__main__":
    main()
