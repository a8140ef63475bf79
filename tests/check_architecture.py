#!/usr/bin/env python3
"""The architecture of tbpeta's library, checked from its sources (run by ctest as `architecture`).

1. Layers run one way. Every file of lib/ lives in a layer folder; a file may include headers of its own layer and
   of the layers below it, never of a layer above (the order is LAYERS below, bottom first).
2. No circle: the include graph between the files of lib/ has no cycle, and neither has the graph between its
   modules (a header and its source: A -> B when A.hpp or A.cpp includes B.hpp), so that no two concepts call each
   other.
3. Solver types describe themselves: the generic solver layer (the files directly in lib/solvers/, but
   RegisterSolvers which registers tbpeta's types) and lib/study/ include no header of lib/solvers/lanczos/ or
   lib/solvers/folded/, name none of tbpeta's EPS types or their functions, and test no run or type by its name;
   they ask the solver through solvers/SolverTraits.hpp.
4. Each of tbpeta's EPS types is fenced in its folder (FENCES): no file of lib/ or app/ outside it names the type or
   its options in code (comments do not count) -- nemo: EPSNEMO, EPSNemo*, lanczos::, "-eps_nemo_", an include of
   solvers/lanczos/; folded: EPSFOLDED, EPSFolded*, "-eps_folded_", "-folded_eps_", an include of solvers/folded/.
   Exceptions: the registration (lib/solvers/RegisterSolvers.cpp), and in lib/study/ComparisonRuns.cpp the options
   text of a run's definition (a string beginning "-eps_type "): the run as a user types it on the command line,
   read by EPSSetFromOptions, on which no code depends. Everything else asks the type through its traits.
5. Short functions: no function of lib/, app/ or benchmarks/ is longer than MAX_LINES lines unless the comment
   block right above it has a line starting with "Long:" that says why.

Every run first checks the checker: the rules above on a small planted tree (SELF_TEST), each violation caught and
each exception allowed.

Usage: check_architecture.py [REPO_ROOT]; prints every violation and exits 1 when there is one.
"""
import os
import re
import sys
import tempfile

LAYERS = [
    "support",
    "geometry",
    "model",
    "strain",
    "fields",
    "operator",
    "bulk",
    "solvers",
    "optics",
    "io",
    "study",
    "application",
]
MAX_LINES = 80
MAX_FILE_LINES = 500
TYPE_NAMES = re.compile(
    r'#\s*include\s*"solvers/(lanczos|folded)/|\bEPSNEMO\b|\bEPSFOLDED\b|\bEPSNemo\w*|\bEPSFolded\w*|\blanczos::|==\s*"(lanczos|nemo|folded)\w*"|'
    r'"(lanczos|nemo|folded)\w*"\s*==|TypeCompare\w*\([^;]*(EPSNEMO|EPSFOLDED|"nemo"|"folded")'
)
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
# Each type's fence: its folder, and what names it outside.
FENCES = {
    "nemo": (
        "lib/solvers/lanczos/",
        re.compile(r'#\s*include\s*"solvers/lanczos/|\bEPSNEMO\b|\bEPSNemo\w*|\blanczos::|-eps_nemo_'),
    ),
    "folded": (
        "lib/solvers/folded/",
        re.compile(r'#\s*include\s*"solvers/folded/|\bEPSFOLDED\b|\bEPSFolded\w*|-eps_folded_|-folded_eps_'),
    ),
}
FENCE_REGISTRATION = "lib/solvers/RegisterSolvers.cpp"
RUN_DEFINITIONS = "lib/study/ComparisonRuns.cpp"  # its runs' options text, "-eps_type ...", as a user types it
RUN_OPTIONS = re.compile(r'"-eps_type [^"]*"')


def sources(root, folder):
    for dirpath, _, files in os.walk(os.path.join(root, folder)):
        for f in sorted(files):
            if f.endswith((".cpp", ".hpp", ".h")):
                yield os.path.join(dirpath, f)


def layer_of(path_in_lib):
    top = path_in_lib.split("/")[0]
    return LAYERS.index(top) if top in LAYERS else None


def check_layers(root, problems):
    graph = {}
    for path in sources(root, "lib"):
        rel = os.path.relpath(path, os.path.join(root, "lib"))
        own = layer_of(rel)
        if own is None or "/" not in rel:
            problems.append(f"lib/{rel}: not inside a layer folder ({', '.join(LAYERS)})")
            continue
        graph[rel] = []
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = m.group(1)
                other = layer_of(target)
                if other is None:
                    continue  # a header of the same folder by a relative name would be caught by the build
                graph[rel].append(target)
                if other > own:
                    problems.append(
                        f"lib/{rel}:{number}: includes {target}: layer {LAYERS[other]} is above {LAYERS[own]}"
                    )
    # Cycles: depth-first search with colours.
    colour, stack = {}, []

    def visit(node):
        colour[node] = 1
        stack.append(node)
        for nxt in graph.get(node, []):
            if colour.get(nxt) == 1:
                problems.append("include cycle: " + " -> ".join(stack[stack.index(nxt) :] + [nxt]))
            elif colour.get(nxt) is None and nxt in graph:
                visit(nxt)
        stack.pop()
        colour[node] = 2

    for node in sorted(graph):
        if colour.get(node) is None:
            visit(node)
    check_module_cycles(graph, problems)


def check_module_cycles(graph, problems):
    modules = {}
    for rel, targets in graph.items():
        mod = os.path.splitext(rel)[0]
        deps = modules.setdefault(mod, set())
        deps.update(os.path.splitext(t)[0] for t in targets if os.path.splitext(t)[0] != mod)
    colour, stack = {}, []

    def visit(node):
        colour[node] = 1
        stack.append(node)
        for nxt in sorted(modules.get(node, ())):
            if colour.get(nxt) == 1:
                problems.append(
                    "module cycle (header and source together): " + " -> ".join(stack[stack.index(nxt) :] + [nxt])
                )
            elif colour.get(nxt) is None and nxt in modules:
                visit(nxt)
        stack.pop()
        colour[node] = 2

    for node in sorted(modules):
        if colour.get(node) is None:
            visit(node)


def strip_code(text):
    """The text with comments, string and character literals blanked (newlines kept), for brace matching."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # digit separator 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + c)
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def functions(text):
    """(first line, last line) of every function body at namespace or class scope."""
    code = "\n".join("" if l.lstrip().startswith("#") else l for l in strip_code(text).split("\n"))
    found, scopes, head_start, head = [], ["ns"], 0, []
    line = 1
    for i, c in enumerate(code):
        if c == "\n":
            line += 1
        if scopes[-1] != "ns":
            if c == "{":
                scopes.append(scopes[-1])
            elif c == "}":
                kind = scopes.pop()
                if isinstance(kind, tuple) and kind[0] == "fn" and (len(scopes) == 0 or scopes[-1] == "ns"):
                    found.append((kind[1], line))
                if scopes and scopes[-1] == "ns":
                    head, head_start = [], None
            continue
        if c in ";}":
            if c == "}":
                scopes.pop()
            head, head_start = [], None
            continue
        if c == "{":
            h = "".join(head)
            words = h.split()
            if re.search(r"\b(namespace|extern)\b", h) or re.match(
                r"^(template\s*<.*>\s*)?(class|struct|union)\b", h.strip()
            ):
                scopes.append("ns")
            elif re.search(r"\benum\b", h) or "=" in re.sub(r"(operator\s*\S+|\[[^\]]*\])", "", h) or "(" not in h:
                scopes.append("other")
            else:
                scopes.append(("fn", head_start))
            head, head_start = [], None
            continue
        if head_start is None and not c.isspace():
            head_start = line
        head.append(c)
    return found


def check_generic_layers(root, problems):
    lib = os.path.join(root, "lib")
    files = [
        os.path.join(lib, "solvers", f)
        for f in sorted(os.listdir(os.path.join(lib, "solvers")))
        if f.endswith((".cpp", ".hpp"))
    ]
    files = [f for f in files if not os.path.basename(f).startswith("RegisterSolvers")]
    files += list(sources(root, "lib/study"))
    for path in files:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                code = code_of(line)
                if TYPE_NAMES.search(code):
                    problems.append(
                        f"{os.path.relpath(path, root)}:{number}: names one of tbpeta's solver types (ask through solvers/SolverTraits.hpp): {line.strip()}"
                    )


def code_of(line):
    """The code of a line: without its // comment (a preprocessor line whole)."""
    return line.split("//")[0] if not line.lstrip().startswith("#") else line


def check_fences(root, problems):
    for folder in ("lib", "app"):
        for path in sources(root, folder):
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if rel == FENCE_REGISTRATION:
                continue
            with open(path, encoding="utf-8") as f:
                lines = f.readlines()
            for number, line in enumerate(lines, 1):
                code = code_of(line)
                if rel == RUN_DEFINITIONS:
                    code = RUN_OPTIONS.sub('""', code)
                for name, (home, names) in FENCES.items():
                    if not rel.startswith(home) and names.search(code):
                        problems.append(
                            f"{rel}:{number}: names the EPS type {name} or its options outside {home} (ask through "
                            f"solvers/SolverTraits.hpp; register it in {FENCE_REGISTRATION}): {line.strip()}"
                        )


def check_file_length(root, problems):
    for path in sources(root, "lib"):
        with open(path, encoding="utf-8") as f:
            n = sum(1 for _ in f)
        if n > MAX_FILE_LINES:
            problems.append(f"{os.path.relpath(path, root)}: {n} lines (> {MAX_FILE_LINES}): split it by concept")


def check_function_length(root, problems):
    for folder in ("lib", "app", "benchmarks"):
        for path in sources(root, folder):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            lines = text.split("\n")
            for first, last in functions(text):
                if last - first + 1 <= MAX_LINES:
                    continue
                k, justified = first - 2, False
                while k >= 0 and lines[k].lstrip().startswith("//"):
                    justified = justified or lines[k].lstrip()[2:].lstrip().startswith("Long:")
                    k -= 1
                if not justified:
                    rel = os.path.relpath(path, root)
                    problems.append(
                        f"{rel}:{first}: function of {last - first + 1} lines (> {MAX_LINES}) without a 'Long:' comment saying why"
                    )


def check_all(root):
    problems = []
    check_layers(root, problems)
    check_generic_layers(root, problems)
    check_fences(root, problems)
    check_file_length(root, problems)
    check_function_length(root, problems)
    return problems


# The checker's own test: files planted in a temporary tree, each with the problem it must raise (a substring of its
# line), or None where the file is allowed.
SELF_TEST = [
    ("lib/solvers/RegisterSolvers.cpp", '#include "solvers/lanczos/NemoLanczos.hpp"\nconst char *d = EPSNEMO;\n', None),
    ("lib/solvers/lanczos/NemoLanczos.cpp", 'const char *o = "-eps_nemo_vectors";\n', None),
    ("lib/solvers/folded/FoldedSpectrum.cpp", '#include "solvers/folded/FoldedOperator.hpp"\n', None),
    ("lib/study/ComparisonRuns.cpp", 'R r{"f", "f", false, "-eps_type folded -folded_eps_type nemo"};\n', None),
    ("lib/application/Quiet.cpp", "// drop -eps_nemo_vectors false (a comment)\nint quiet = 0;\n", None),
    ("app/tool.cpp", 'const char *hint = "drop -eps_nemo_vectors false";\n', "app/tool.cpp:1: names the EPS type nemo"),
    (
        "lib/application/Hint.cpp",
        'const char *h = "raise -folded_eps_max_it";\n',
        "Hint.cpp:1: names the EPS type folded",
    ),
    ("lib/application/Inc.cpp", '#include "solvers/lanczos/LanczosSolve.hpp"\n', "Inc.cpp:1: names the EPS type nemo"),
    ("lib/optics/Call.cpp", "int f() { return EPSNemoGetReport(0, 0); }\n", "Call.cpp:1: names the EPS type nemo"),
    ("lib/io/Folded.cpp", "const char *t = EPSFOLDED;\n", "Folded.cpp:1: names the EPS type folded"),
    (
        "lib/study/ComparisonRuns.hpp",
        'const char *o = "-eps_nemo_seed 3";\n',
        "ComparisonRuns.hpp:1: names the EPS type nemo",
    ),
    (
        "lib/solvers/EigenSolve.cpp",
        'bool nemo = type == "nemo";\n',
        "EigenSolve.cpp:1: names one of tbpeta's solver types",
    ),
    ("lib/solvers/Up.cpp", '#include "study/SolverComparison.hpp"\n', "Up.cpp:1: includes study/SolverComparison.hpp"),
]


def self_test():
    """The problems the checker failed to raise or raised wrongly on SELF_TEST's tree (empty: it works)."""
    failures = []
    with tempfile.TemporaryDirectory() as root:
        for rel, text, _ in SELF_TEST:
            os.makedirs(os.path.join(root, os.path.dirname(rel)), exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        problems = check_all(root)
    for rel, _, expected in SELF_TEST:
        mine = [p for p in problems if p.startswith(rel + ":")]
        if expected is None and mine:
            failures.append(f"{rel} is allowed, but: {mine[0]}")
        elif expected is not None and not any(expected in p for p in mine):
            failures.append(f"{rel}: not caught ({expected})")
    return failures


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
    problems = check_all(root) + [f"check_architecture's self-test: {f}" for f in self_test()]
    for p in problems:
        print(p)
    print(f"check_architecture: {len(problems)} problem(s); layers bottom first: {' < '.join(LAYERS)}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
