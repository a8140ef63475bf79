#!/usr/bin/env python3
"""Runs every example command of the README and docs/ as a reader would (run by ctest as docs_examples_<page>).

The commands are the lines of the ```sh blocks of a page (a trailing backslash continues a line; `#` starts a
comment), run in order with bash from a scratch directory that looks like the repository root (data/, options/,
app/, benchmarks/, ci/ and build/bin linked in), so a later block sees the files an earlier one wrote. Comments
right before a block adjust it for the test:
  <!-- test-args: OPTIONS -->   OPTIONS are appended to every command of the block that runs a tbpeta program (the
                                later PETSc option wins): a long example runs at a reduced size or limit;
  <!-- test-skip: REASON -->    the block is not run (e.g. the test command itself);
  <!-- test-expect: TOL -->     before a ```text block: its lines are expected in the output of the sh block run last
                                before it. In an expected line `*` stands for any text, and every number must match
                                within TOL * max(1, |number|) (e.g. 1e-8 for eigenvalues in eV); other text as written.
                                A line "..." is only for the reader.
A command fails the test when it exits non-zero, prints "error:", or warns that an option "was given but not used" (at
exit) or "is given but nothing reads it" (tbpeta, before its work). A page fails when none of its examples runs, or
when it has no expected-output block: every page shows at least one output the test compares.
The same command is run once per page.

Usage: run_doc_examples.py REPO_ROOT BIN_DIR PAGE.md [--list]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

MARKER = re.compile(r"<!--\s*test-(args|skip|expect):\s*(.*?)\s*-->")
NUMBER = re.compile(r"[-+]?(?:\d[\d,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
TIMEOUT = 1800  # seconds per command: a guard against a hang, never reached on a loaded machine


def strip_comment(line):
    """The line without a trailing `# comment` (outside quotes)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def blocks(text):
    """The page's sh blocks and expected-output blocks in order: ("sh", first line, commands, args, skip reason) and
    ("expect", first line, expected lines, tolerance)."""
    out, pending_args, pending_skip, pending_expect = [], "", None, None
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = MARKER.fullmatch(lines[i].strip())  # a marker is a line of its own (not one quoted in the text)
        if m:
            if m.group(1) == "args":
                pending_args = m.group(2)
            elif m.group(1) == "skip":
                pending_skip = m.group(2) or "no reason given"
            else:
                pending_expect = float(m.group(2))
            i += 1
            continue
        if lines[i].strip() == "```sh":
            start, commands, current = i + 1, [], ""
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                piece = strip_comment(lines[i]) if not current else lines[i].rstrip()
                if piece.endswith("\\"):
                    current += piece[:-1].strip() + " "
                else:
                    current = (current + strip_comment(piece).strip()).strip()
                    if current:
                        commands.append(current)
                    current = ""
                i += 1
            out.append(("sh", start, commands, pending_args, pending_skip))
            pending_args, pending_skip, pending_expect = "", None, None
        elif lines[i].strip() == "```text" and pending_expect is not None:
            start, expected = i + 1, []
            i += 1
            while i < len(lines) and lines[i].strip() != "```":
                if lines[i].strip() and lines[i].strip() != "...":
                    expected.append(lines[i])
                i += 1
            out.append(("expect", start, expected, pending_expect))
            pending_args, pending_skip, pending_expect = "", None, None
        elif lines[i].strip().startswith("```"):
            pending_args, pending_skip, pending_expect = "", None, None  # a marker belongs to the block right after it
        i += 1
    return out


def expected_pattern(line):
    """A regular expression for an expected line and its numbers: words apart by whitespace, '*' any text, each
    number a group."""
    parts, numbers = [], []
    for word in line.split():
        if word == "*":
            parts.append(r".*?")
            continue
        piece, pos = "", 0
        for m in re.finditer(r"\*|" + NUMBER.pattern, word):
            piece += re.escape(word[pos : m.start()])
            if m.group(0) == "*":
                piece += r".*?"
            else:
                piece += r"([-+]?(?:\d[\d,]*\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)"
                numbers.append(float(m.group(0).replace(",", "")))
            pos = m.end()
        parts.append(piece + re.escape(word[pos:]))
    return re.compile(r"(?:^|\s)" + r"\s+".join(parts) + r"(?:\s|$)"), numbers


def matches(expected, output, tol):
    """Whether some line of output has the expected line's text and its numbers within tol * max(1, |number|)."""
    pattern, numbers = expected_pattern(expected)
    for line in output.split("\n"):
        m = pattern.search(line)
        if not m:
            continue
        try:
            got = [float(g.replace(",", "")) for g in m.groups()]
        except ValueError:
            continue
        if all(abs(g - e) <= tol * max(1.0, abs(e)) for g, e in zip(got, numbers)):
            return True
    return False


def runs_a_program(command):
    return "build/bin/" in command or "benchmarks/run-study" in command


def with_args(command, args):
    if not args or not runs_a_program(command):
        return command
    extra = [a for a in [args] if a not in command]
    return command + (" " + " ".join(extra) if extra else "")


def scratch(root, bin_dir):
    d = tempfile.mkdtemp(prefix="tbpeta-docs-")
    for name in ["data", "options", "app", "benchmarks", "ci", "tests"]:
        os.symlink(os.path.join(os.path.abspath(root), name), os.path.join(d, name))
    os.makedirs(os.path.join(d, "build"))
    os.symlink(os.path.abspath(bin_dir), os.path.join(d, "build", "bin"))
    return d


def main():
    if len(sys.argv) < 4:
        print(__doc__)
        return 2
    root, bin_dir, page = sys.argv[1], sys.argv[2], sys.argv[3]
    listing = "--list" in sys.argv
    text = open(os.path.join(root, page), encoding="utf-8").read()
    env = dict(
        os.environ,
        OMPI_ALLOW_RUN_AS_ROOT="1",
        OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
        OMPI_MCA_rmaps_base_oversubscribe="1",
        OMPI_MCA_odls_base_sigkill_timeout="0",
        OPENBLAS_NUM_THREADS="1",
        OMP_NUM_THREADS="1",
    )
    work = None if listing else scratch(root, bin_dir)
    failures, ran, skipped, seen, checked = [], 0, 0, set(), 0
    last_output, last_skipped = None, False
    try:
        for block in blocks(text):
            if block[0] == "expect":
                _, line, expected, tol = block
                if listing:
                    print(f"{page}:{line}: expects {len(expected)} line(s) within {tol}")
                    continue
                checked += 1
                if last_output is None or last_skipped:
                    failures.append(f"expected output at line {line}")
                    print(f"{page}:{line}: FAILED (an expected-output block after no command that ran)")
                    continue
                missing = [e for e in expected if not matches(e, last_output, tol)]
                print(
                    f"{page}:{line}: {'ok' if not missing else 'FAILED'}: {len(expected) - len(missing)} of {len(expected)} expected line(s) found within {tol}"
                )
                if missing:
                    failures.append(f"expected output at line {line}")
                    print("\n".join("    missing: " + m for m in missing))
                    print("\n".join("    output:  " + l for l in last_output.strip().split("\n")[-25:]))
                continue
            _, line, commands, args, skip = block
            if skip:
                skipped += len(commands)
                last_skipped = True
                print(f"{page}:{line}: skipped ({skip}): {len(commands)} command(s)")
                continue
            last_output, last_skipped = "", False
            for command in commands:
                command = with_args(command, args)
                if command in seen:
                    continue
                seen.add(command)
                if listing:
                    print(f"{page}:{line}: {command}")
                    continue
                t0 = time.time()
                try:
                    p = subprocess.run(
                        ["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True, timeout=TIMEOUT
                    )
                    out, code = p.stdout + p.stderr, p.returncode
                except subprocess.TimeoutExpired:
                    out, code = f"timed out after {TIMEOUT} s", -1
                last_output += out
                ran += 1
                problems = []
                if code != 0:
                    problems.append(f"exit code {code}")
                if "was given but not used" in out or "is given but nothing reads it" in out:
                    problems.append("an option was given but not used")
                if re.search(r"^\S+: error:", out, re.M):
                    problems.append("an error line")
                status = "FAILED (" + ", ".join(problems) + ")" if problems else "ok"
                print(f"{page}:{line}: {status} in {time.time() - t0:.1f} s: {command}")
                if problems:
                    failures.append(command)
                    print("\n".join("    " + l for l in out.strip().split("\n")[-15:]))
        if not listing and ran == 0:
            failures.append("no example runs")
            print(f"{page}: FAILED: none of its examples runs ({skipped} skipped)")
        if not listing and checked == 0:
            failures.append("no expected output")
            print(f"{page}: FAILED: no expected-output block (<!-- test-expect: TOL --> before a text block)")
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
    print(f"run_doc_examples: {page}: {ran} commands run, {skipped} skipped, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
