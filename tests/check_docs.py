#!/usr/bin/env python3
"""The option tables of the README and docs/ against the programs' -help (run by ctest as docs_options).

A table of options is a markdown table whose header is `| option | default | meaning |`, preceded by a comment
`<!-- options: PROGRAM -->` naming the program whose -help lists them. Checked:
1. every option of a table (each `-name` in backticks in its first cell) is listed by `PROGRAM -help`;
2. a default given in backticks equals the default -help shows (numbers as numbers, booleans as booleans; a
   comma list against -help's first entry when -help shows one);
3. every option that -help marks as tbpeta's own (its help line ends with "(tbpeta)" or "(PROGRAM)") or that belongs
   to tbpeta's solver types (-eps_nemo_*) is in a table of that program somewhere in the docs.

Usage: check_docs.py REPO_ROOT BIN_DIR; prints every disagreement and exits 1 when there is one.
"""
import glob
import os
import re
import subprocess
import sys

TABLE_HEADER = re.compile(r"^\|\s*option\s*\|\s*default\s*\|\s*meaning\s*\|")
MARKER = re.compile(r"<!--\s*options:\s*(\S+)\s*-->")
HELP_LINE = re.compile(r"^\s+(-[A-Za-z0-9_]+)(.*)$")


def help_text(bin_dir, program):
    env = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    p = subprocess.run([os.path.join(bin_dir, program), "-help"], env=env, capture_output=True, text=True, timeout=900)
    return p.stdout


def parse_help(text, program):
    """{option: default or None}, and the options that are tbpeta's own."""
    options, own = {}, set()
    for line in text.split("\n"):
        m = HELP_LINE.match(line)
        if not m:
            continue
        name, rest = m.group(1), m.group(2)
        d = re.search(r"<([^>]*)>", rest)
        default = None
        if d:
            value = d.group(1).strip()
            now = re.match(r"now\s+(.*?)\s*:\s*formerly", value)
            default = now.group(1) if now else value.split(" : ")[0].strip()
        options.setdefault(name, default)
        if re.search(r"\((tbpeta|%s)\)\s*$" % re.escape(program), rest) or name.startswith("-eps_nemo_"):
            own.add(name)
    return options, own


def tables(path):
    """(line, program, option names, backticked default or None) of every row of every marked table."""
    rows, program, in_table = [], None, False
    for n, line in enumerate(open(path, encoding="utf-8"), 1):
        m = MARKER.search(line)
        if m:
            program = m.group(1)
            continue
        if TABLE_HEADER.match(line):
            in_table = program is not None
            if not in_table:
                rows.append((n, None, [], None))
            continue
        if in_table and line.startswith("|"):
            cells = [c.strip() for c in re.split(r"(?<!\\)\|", line.strip().strip("|"))]  # `a\|b` is one cell
            if set(cells[0]) <= set("- :"):
                continue
            names = re.findall(r"`(-[A-Za-z0-9_/]+)", cells[0])
            d = re.fullmatch(r"`([^`]*)`", cells[1]) if len(cells) > 1 else None
            rows.append((n, program, names, d.group(1) if d else None))
            continue
        if in_table and not line.startswith("|"):
            in_table, program = False, None
        elif line.strip() and not line.startswith("|"):
            program = program if line.strip().startswith("<!--") else None
    return rows


def expand(name):
    """-da_processors_x/y/z -> the three options."""
    if "/" not in name:
        return [name]
    head, *tails = name.split("/")
    stem = head[: head.rfind("_") + 1]
    return [head] + [stem + t for t in tails]


def same_default(doc, shown):
    if shown is None:
        return True
    a, b = doc.strip().lower(), shown.strip().lower()
    booleans = {"true": True, "1": True, "yes": True, "false": False, "0": False, "no": False}
    if a in booleans and b in booleans:
        return booleans[a] == booleans[b]
    if "," in a and "," not in b:
        a = a.split(",")[0]
    try:
        return abs(float(a.rstrip(".")) - float(b.rstrip("."))) <= 1e-12 * max(1.0, abs(float(b.rstrip("."))))
    except ValueError:
        return a == b


def main():
    root, bin_dir = sys.argv[1], sys.argv[2]
    pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    problems, documented, helps = [], {}, {}
    for page in pages:
        rel = os.path.relpath(page, root)
        for line, program, names, default in tables(page):
            if program is None:
                problems.append(f"{rel}:{line}: an option table without <!-- options: PROGRAM --> before it")
                continue
            if program not in helps:
                helps[program] = parse_help(help_text(bin_dir, program), program)
            options, _ = helps[program]
            for raw in names:
                for name in expand(raw):
                    documented.setdefault(program, set()).add(name)
                    if name not in options:
                        problems.append(f"{rel}:{line}: {name} is not an option of {program} (not in its -help)")
                    elif default is not None and not same_default(default, options[name]):
                        problems.append(
                            f"{rel}:{line}: {name}: the default is `{default}` here, {options[name]} in {program} -help"
                        )
    for program, (options, own) in sorted(helps.items()):
        for name in sorted(own - documented.get(program, set())):
            problems.append(f"{program}: {name} (in -help) is in no option table of the docs")
    for p in problems:
        print(p)
    checked = sum(len(v) for v in documented.values())
    print(
        f"check_docs: {checked} documented options of {len(helps)} programs checked against -help; {len(problems)} problem(s)"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
