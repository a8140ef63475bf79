#!/usr/bin/env python3
"""The Spack recipe packaging/spack/package.py against the build (run by ctest as `packaging`; Spack itself is not
needed: the recipe is read with Python's parser, never imported).

Checked:
1. the recipe is a class Tbpeta(CMakePackage) with a git source, a version and the Ninja generator, and its
   build_type defaults to Release: the configuration ci/build.sh runs (cmake -G Ninja -DCMAKE_BUILD_TYPE=Release);
2. it has the variants a user expects (int64, native, shared), each mapped in cmake_args onto the CMake option of
   CMakeLists.txt that it names (define_from_variant), and every option it defines exists in CMakeLists.txt;
3. +int64 asks for petsc+int64 and ~int64 for petsc~int64;
4. its depends_on names are what the CMake files find (find_package, pkg_check_modules), and the reverse, besides
   the build tools and the plot scripts' Python modules (app/*.py import them).

Usage: check_packaging.py REPO_ROOT; prints every problem and exits 1 when there is one.
"""
import ast
import glob
import os
import re
import sys

# What a CMake file finds -> the Spack package that provides it.
CMAKE_TO_SPACK = {
    "PkgConfig": "pkgconfig",
    "PETSc": "petsc",
    "PETSc64": "petsc",
    "SLEPc": "slepc",
    "SLEPc64": "slepc",
    "MPI": "mpi",
    "LAPACK": "lapack",
    "HDF5": "hdf5",
    "GTest": "googletest",
    "Python3": "python",
    "tbpeta": None,  # the package itself (cmake/Install.cmake, tests/install/)
    "Git": None,  # optional (the commit -version prints); a source without git prints "unknown"
}
BUILD_TOOLS = {"cmake", "ninja"}
EXPECTED_VARIANTS = {"int64": "TBPETA_INDEX64", "native": "TBPETA_NATIVE", "shared": "BUILD_SHARED_LIBS"}
# The plot scripts' imports (app/*.py) -> Spack packages.
PYTHON_MODULES = {"numpy": "py-numpy", "h5py": "py-h5py", "matplotlib": "py-matplotlib"}


def call_name(node):
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else None


def literal(node):
    try:
        return ast.literal_eval(node)
    except ValueError:
        return None


def cmake_files(root):
    files = [os.path.join(root, "CMakeLists.txt")] + glob.glob(os.path.join(root, "*", "CMakeLists.txt"))
    return files + glob.glob(os.path.join(root, "cmake", "*.cmake")) + glob.glob(os.path.join(root, "tests", "*.cmake"))


def found_by_cmake(root):
    """The packages the CMake files find, and the options and cache variables CMakeLists.txt defines."""
    found, options = set(), {"BUILD_SHARED_LIBS"}
    for path in cmake_files(root):
        text = open(path, encoding="utf-8").read()
        found.update(re.findall(r"find_package\(\s*(\w+)", text))
        found.update(
            re.findall(r"set\(\s*TBPETA_\w+_MODULE\s+(\w+?)(?:\$\{\w+\})?\)", text)
        )  # pkg_check_modules' names
        options.update(re.findall(r"option\(\s*(\w+)", text))
        options.update(re.findall(r"set\(\s*(\w+)\s+[^)]*\bCACHE\b", text))
        options.update(re.findall(r"if\(NOT\s+(TBPETA_\w+_MODULE)\)", text))
    return found, options


def python_imports(root):
    modules = set()
    for path in glob.glob(os.path.join(root, "app", "*.py")):
        for node in ast.walk(ast.parse(open(path, encoding="utf-8").read())):
            if isinstance(node, ast.Import):
                modules.update(a.name.split(".")[0] for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module:
                modules.add(node.module.split(".")[0])
    return {PYTHON_MODULES[m] for m in modules if m in PYTHON_MODULES}


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else "."
    recipe_path = os.path.join(root, "packaging", "spack", "package.py")
    tree = ast.parse(open(recipe_path, encoding="utf-8").read())
    problems = []
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tbpeta"]
    if not classes:
        print("check_packaging: no class Tbpeta in packaging/spack/package.py")
        return 1
    cls = classes[0]
    if not any(isinstance(b, ast.Name) and b.id == "CMakePackage" for b in cls.bases):
        problems.append("class Tbpeta does not derive from CMakePackage")
    attributes = {
        t.id: literal(n.value)
        for n in cls.body
        if isinstance(n, ast.Assign)
        for t in n.targets
        if isinstance(t, ast.Name)
    }
    if not attributes.get("git") or not attributes.get("homepage"):
        problems.append("the recipe needs homepage and git")

    directives = [n.value for n in cls.body if isinstance(n, ast.Expr) and isinstance(n.value, ast.Call)]
    variants, depends, versions, generator = {}, [], [], None
    for call in directives:
        name, args = call_name(call), [literal(a) for a in call.args]
        keywords = {k.arg: literal(k.value) for k in call.keywords}
        if name == "variant":
            variants[args[0]] = keywords
        elif name == "depends_on":
            depends.append((args[0], keywords.get("when"), keywords.get("type")))
        elif name == "version":
            versions.append(args[0])
        elif name == "generator":
            generator = args[0]
    if not versions:
        problems.append("the recipe has no version()")

    # 1. the configuration CI runs
    build = open(os.path.join(root, "ci", "build.sh"), encoding="utf-8").read()
    if "-G Ninja" in build and generator != "ninja":
        problems.append(f'ci/build.sh configures with Ninja, the recipe with generator("{generator}")')
    ci_type = re.search(r"-DCMAKE_BUILD_TYPE=(\w+)", build)
    if ci_type and variants.get("build_type", {}).get("default") != ci_type.group(1):
        problems.append(
            f"ci/build.sh builds {ci_type.group(1)}, the recipe's build_type defaults to {variants.get('build_type', {}).get('default')}"
        )

    # 2. the variants and their CMake options
    found, options = found_by_cmake(root)
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    mapped, defined = {}, set()
    for node in ast.walk(methods["cmake_args"]) if "cmake_args" in methods else []:
        if isinstance(node, ast.Call) and call_name(node) in ("define_from_variant", "define"):
            args = [literal(a) for a in node.args]
            defined.add(args[0])
            if call_name(node) == "define_from_variant":
                mapped[args[1] if len(args) > 1 else args[0].lower()] = args[0]
    if "cmake_args" not in methods:
        problems.append("the recipe has no cmake_args")
    for variant, option in EXPECTED_VARIANTS.items():
        if variant not in variants:
            problems.append(f"no variant {variant}")
        elif mapped.get(variant) != option:
            problems.append(
                f"variant {variant} is not mapped onto {option} in cmake_args (mapped: {mapped.get(variant)})"
            )
    for variant in variants:
        if variant != "build_type" and variant not in mapped:
            problems.append(f"variant {variant} is not mapped in cmake_args")
    for option in sorted(defined - options):
        problems.append(f"cmake_args defines {option}, which CMakeLists.txt does not define")

    # 3. the 64-bit indices
    for spec, when in (("petsc+int64", "+int64"), ("petsc~int64", "~int64")):
        if not any(d[0].replace(" ", "") == spec and d[1] == when for d in depends):
            problems.append(f'no depends_on("{spec}", when="{when}")')

    # 4. the dependencies
    names = {re.match(r"[\w-]+", d[0]).group(0) for d in depends}
    wanted = {CMAKE_TO_SPACK[f] for f in found if CMAKE_TO_SPACK.get(f)} | BUILD_TOOLS | python_imports(root)
    unknown = {f for f in found if f not in CMAKE_TO_SPACK}
    for f in sorted(unknown):
        problems.append(f"the CMake files find {f}: add it to CMAKE_TO_SPACK here and a depends_on to the recipe")
    for name in sorted(wanted - names):
        problems.append(
            f"the build needs {name} (found by the CMake files or imported by app/*.py); the recipe has no depends_on for it"
        )
    for name in sorted(names - wanted):
        problems.append(f"the recipe depends on {name}, which nothing of the build finds")
    for name, when, kind in depends:
        if name.startswith("googletest") and kind not in ("test", ("test",)):
            problems.append('googletest is a test dependency (type="test")')

    for p in problems:
        print(p)
    print(f"check_packaging: {len(variants)} variants, {len(depends)} dependencies checked; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
