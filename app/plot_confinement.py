#!/usr/bin/python3
"""The band-edge levels of a series of open cubes (tbpeta -output files) against their size: the highest valence and
the lowest conduction level of each cube, their confinement energies against the bulk band edges (--vbm, --cbm:
absolute eV, as tbpeta-bands prints them), a fit E(L) = E_bulk + C / L^2 over the --fit largest cubes and the
exponent p of E - E_bulk ~ L^-p between the two largest. Prints a table; plots to --png (default confinement.png,
'none' to skip). Errors: one line on stderr, exit code 2, no PNG written.
  /usr/bin/python3 plot_confinement.py FILE.h5 FILE.h5 ... --vbm E --cbm E [--fit N] [--png P]
"""
import math
import os

import numpy as np

from results_file import finite_arg, one_line_errors, open_results, require, save_png

PROG = "plot_confinement.py"

fail, Parser = one_line_errors(PROG)


def read_cube(path):
    """(cells n, side L in nm, highest valence level, lowest conduction level, second conduction level, steps) of an
    open cube of whole cells: its atoms are 8 n^3 and span (4 n - 1) a / 4 along every axis."""
    f = open_results(path, fail)
    with f:
        require(f, path, ["eigenvalues", "structure/positions"], "run tbpeta with -output", fail)
        e = np.sort(f["eigenvalues"][()].real)
        x = f["structure/positions"][()]
        centre = float(f.attrs.get("gap_center", np.nan))
        steps = int(f["solver"].attrs.get("iterations", -1)) if "solver" in f else -1
    n = round((len(x) / 8) ** (1 / 3))
    extent = x.max(axis=0) - x.min(axis=0)
    if 8 * n**3 != len(x) or not np.allclose(extent, extent[0], rtol=1e-9):
        fail(f"{path}: not an open cube of whole cells ({len(x)} atoms, extents {extent} nm)")
    valence, conduction = e[e < centre], e[e > centre]
    if len(valence) == 0 or len(conduction) == 0:
        fail(f"{path}: needs levels on both sides of the gap centre {centre} eV (tbpeta -eps_nemo_valence)")
    a = 4 * extent[0] / (4 * n - 1)
    c2 = conduction[conduction > conduction[0] + 1e-12]
    return n, n * a, valence[-1], conduction[0], c2[0] if len(c2) else np.nan, steps


def fit(L, E):
    """(E_bulk, C) of E = E_bulk + C / L^2, least squares."""
    A = np.vstack([np.ones_like(L), 1 / L**2]).T
    return np.linalg.lstsq(A, E, rcond=None)[0]


def report(rows, vbm, cbm, nfit):
    print(
        f"{'cells':>5} {'L (nm)':>7} {'E_v (eV)':>12} {'E_c (eV)':>12} {'dE_v (meV)':>10} {'dE_c (meV)':>10}"
        f" {'E_c2-E_c (eV)':>13} {'steps':>6}"
    )
    for n, L, ev, ec, ec2, steps in rows:
        print(
            f"{n:>5} {L:>7.2f} {ev:>12.8f} {ec:>12.8f} {1e3 * (vbm - ev):>10.3f} {1e3 * (ec - cbm):>10.3f}"
            f" {ec2 - ec:>13.3e} {steps:>6}"
        )
    big = rows[-nfit:]
    L = np.array([r[1] for r in big])
    ev_inf, cv = fit(L, np.array([r[2] for r in big]))
    ec_inf, cc = fit(L, np.array([r[3] for r in big]))
    print(f"fit E = E_bulk + C/L^2 over the {nfit} largest cubes:")
    print(
        f"  valence:    E_bulk {ev_inf:.6f} eV (bulk VBM {vbm:.6f}: {1e3 * (ev_inf - vbm):+.3f} meV),"
        f" C = {cv:.4f} eV nm^2"
    )
    print(
        f"  conduction: E_bulk {ec_inf:.6f} eV (bulk CBM {cbm:.6f}: {1e3 * (ec_inf - cbm):+.3f} meV),"
        f" C = {cc:.4f} eV nm^2"
    )
    (_, L1, ev1, ec1, _, _), (_, L2, ev2, ec2, _, _) = rows[-2], rows[-1]
    pv = math.log((vbm - ev1) / (vbm - ev2)) / math.log(L2 / L1)
    pc = math.log((ec1 - cbm) / (ec2 - cbm)) / math.log(L2 / L1)
    print(
        f"  exponent p of the confinement energy ~ L^-p between the two largest: valence {pv:.3f},"
        f" conduction {pc:.3f}"
    )
    return (ev_inf, cv), (ec_inf, cc)


def plot(rows, vbm, cbm, fits, out):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = np.array([1 / r[1] ** 2 for r in rows])
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(x, [1e3 * (vbm - r[2]) for r in rows], "o", label="holes: VBM - E_v")
    ax.plot(x, [1e3 * (r[3] - cbm) for r in rows], "s", label="electrons: E_c - CBM")
    xs = np.linspace(0, x.max() * 1.05, 50)
    (ev_inf, cv), (ec_inf, cc) = fits
    ax.plot(xs, 1e3 * (vbm - ev_inf - cv * xs), "C0--", lw=0.8)
    ax.plot(xs, 1e3 * (ec_inf + cc * xs - cbm), "C1--", lw=0.8)
    ax.set_xlabel("1 / L$^2$ (nm$^{-2}$)")
    ax.set_ylabel("confinement energy (meV)")
    ax.legend()
    fig.tight_layout()
    save_png(fig, out)


def main():
    p = Parser(prog=PROG, description=__doc__.split("\n")[0])
    p.add_argument("files", nargs="+")
    p.add_argument(
        "--vbm", type=finite_arg("energy", "eV"), required=True, help="bulk valence band maximum (absolute eV)"
    )
    p.add_argument(
        "--cbm", type=finite_arg("energy", "eV"), required=True, help="bulk conduction band minimum (absolute eV)"
    )
    p.add_argument("--fit", type=int, default=3, help="fit over the N largest cubes (>= 2, default 3)")
    p.add_argument("--png", default="confinement.png", help="plot file ('none' to skip)")
    a = p.parse_args()
    if len(a.files) < 2:
        fail("needs at least 2 cubes")
    if not 2 <= a.fit <= len(a.files):
        fail(f"--fit {a.fit}: must lie between 2 and the number of files ({len(a.files)})")
    if a.png != "none" and not os.path.isdir(os.path.dirname(os.path.abspath(a.png))):
        fail(f"--png {a.png}: no such directory")
    rows = sorted((read_cube(f) for f in a.files), key=lambda r: r[0])
    if len({r[0] for r in rows}) != len(rows):
        fail("two files hold cubes of the same size")
    fits = report(rows, a.vbm, a.cbm, a.fit)
    if a.png != "none":
        plot(rows, a.vbm, a.cbm, fits, a.png)
        print(f"wrote {a.png}")


if __name__ == "__main__":
    main()
