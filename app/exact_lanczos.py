#!/usr/bin/python3
"""The Lanczos with full reorthogonalisation (every new vector orthogonalised twice against all earlier ones: exact
Lanczos to rounding) on a Hamiltonian written by tbpeta, and the step at which each level of a tbpeta -output file
converges under the convergence test of -eps_type nemo (beta_m |s_m| <= tol * scale, scale the largest |Ritz value|).
It is the fewest steps any Lanczos from one start vector can need; the output file's solver iterations (the nemo
first pass, which holds 3 vectors and never reorthogonalises) are printed beside it. It holds every Lanczos vector:
small H only (--max-steps x rows x 16 bytes; refused above --memory-gb). Errors: one line on stderr, exit code 2.
  tbpeta ... -hamiltonian aij -mat_view binary:H.bin -output R.h5
  /usr/bin/python3 exact_lanczos.py H.bin R.h5 [--tol 1e-10] [--check-every 10] [--max-steps 5000] [--seed 1]
"""
import os

import numpy as np

from results_file import finite_arg, one_line_errors, open_results, require

PROG = "exact_lanczos.py"
MAT_FILE_CLASSID = 1211216  # PETSc's binary header of a Mat

fail, Parser = one_line_errors(PROG)


def read_matrix(path):
    """(rows, row_of_entry, columns, values) of a complex AIJ matrix in PETSc's binary format (32-bit indices)."""
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    with open(path, "rb") as f:
        head = np.fromfile(f, ">i4", 4)
        if len(head) < 4 or head[0] != MAT_FILE_CLASSID or head[1] != head[2]:
            fail(f"{path}: not a square PETSc binary matrix (tbpeta -hamiltonian aij -mat_view binary:{path})")
        m, nz = int(head[1]), int(head[3])
        lengths = np.fromfile(f, ">i4", m)
        cols = np.fromfile(f, ">i4", nz)
        vals = np.fromfile(f, ">c16", nz)
    if len(vals) != nz or lengths.sum() != nz:
        fail(f"{path}: truncated or not complex ({nz} entries announced)")
    return m, np.repeat(np.arange(m), lengths), cols.astype(np.int64), vals


def read_levels(path):
    """The distinct levels (eV, 1e-8 eV apart) of a tbpeta -output file, and its solver's iterations (-1: unknown)."""
    f = open_results(path, fail)
    with f:
        require(f, path, ["eigenvalues"], "run tbpeta with -output", fail)
        e = np.sort(f["eigenvalues"][()].real)
        steps = int(f["solver"].attrs.get("iterations", -1)) if "solver" in f else -1
    levels = [x for i, x in enumerate(e) if i == 0 or x - e[i - 1] > 1e-8]
    return levels, steps


def converged_steps(m, rows, cols, vals, levels, args):
    """{level: the first check at which a Ritz value within 1e-7 eV of it passes the test}, and the steps made."""
    if (args.max_steps + 1) * m * 16 > args.memory_gb * 2**30:
        fail(f"--max-steps {args.max_steps} x {m} rows needs more than --memory-gb {args.memory_gb} for the vectors")

    def product(x):
        y = vals * x[cols]
        return np.bincount(rows, y.real, m) + 1j * np.bincount(rows, y.imag, m)

    rng = np.random.default_rng(args.seed)
    V = np.zeros((args.max_steps + 1, m), complex)
    V[0] = rng.standard_normal(m) + 1j * rng.standard_normal(m)
    V[0] /= np.linalg.norm(V[0])
    alpha, beta, first = [], [], {}
    for j in range(args.max_steps):
        w = product(V[j]) - (beta[-1] * V[j - 1] if j else 0)
        alpha.append(np.vdot(V[j], w).real)
        w -= alpha[-1] * V[j]
        for _ in range(2):  # twice is enough (Kahan, Parlett)
            w -= V[: j + 1].T @ (V[: j + 1].conj() @ w)
        beta.append(np.linalg.norm(w))
        V[j + 1] = w / beta[-1]
        if (j + 1) % args.check_every:
            continue
        theta, S = np.linalg.eigh(np.diag(alpha) + np.diag(beta[:-1], 1) + np.diag(beta[:-1], -1))
        err, bound = beta[-1] * np.abs(S[-1]), args.tol * max(abs(theta[0]), abs(theta[-1]))
        for level in levels:
            near = np.abs(theta - level) < 1e-7
            if level not in first and near.any() and err[near].min() <= bound:
                first[level] = j + 1
        if len(first) == len(levels):
            return first, j + 1
    return first, args.max_steps


def main():
    p = Parser(prog=PROG, description=__doc__.split("\n")[0])
    p.add_argument("matrix", help="H in PETSc's binary format (tbpeta -hamiltonian aij -mat_view binary:FILE)")
    p.add_argument("results", help="tbpeta's -output file of the same run (its levels)")
    p.add_argument("--tol", type=finite_arg("tolerance", "relative units"), default=1e-10, help="as -eps_tol")
    p.add_argument("--check-every", type=int, default=10, help="steps between checks of T (default 10)")
    p.add_argument("--max-steps", type=int, default=5000, help="at most this many steps (default 5000)")
    p.add_argument("--seed", type=int, default=1, help="of the random start vector (default 1)")
    p.add_argument("--memory-gb", type=finite_arg("memory", "GiB"), default=4.0, help="for the vectors (default 4)")
    args = p.parse_args()
    if args.check_every < 1 or args.max_steps < 1:
        fail(f"--check-every and --max-steps must be >= 1, got {args.check_every} and {args.max_steps}")
    levels, nemo_steps = read_levels(args.results)
    m, rows, cols, vals = read_matrix(args.matrix)
    first, made = converged_steps(m, rows, cols, vals, levels, args)
    print(
        f"{PROG}: {m} rows, {len(levels)} levels, full reorthogonalisation, tol {args.tol:g}, checks every "
        f"{args.check_every} steps"
    )
    for level in levels:
        print(f"  level {level:14.8f} eV  converged at step {first.get(level, 'not within ' + str(made))}")
    if len(first) == len(levels):
        last = max(first.values())
        ratio = f" ({nemo_steps / last:.3f} x)" if nemo_steps > 0 else ""
        print(f"every level converged at step {last}; the output file's solver: {nemo_steps} iterations{ratio}")


if __name__ == "__main__":
    main()
