#!/usr/bin/python3
"""Plot the optical transitions of a tbpeta -optics -output file (FILE.h5; optics/) to PREFIX_optics.png: the
oscillator strengths as sticks at each transition's energy and the spectrum broadened by a Gaussian of --broadening
meV (default 10), for TE light (the file's optics/te over the energy: in-plane, (f_x + f_y) / 2), TM light (f_z), and
the in-plane pair [110] and [1-10].
PREFIX is FILE without .h5 unless --prefix is given. Errors: one line on stderr, exit code 2, no PNG written.
  /usr/bin/python3 plot_optics.py FILE.h5 [--broadening MEV] [--prefix P] [--title T]
"""
import math
import os

import numpy as np

from results_file import one_line_errors, open_results, require, save_png

PROG = "plot_optics.py"

fail, Parser = one_line_errors(PROG)


def read(path):
    """Transition energies (n,) eV, oscillator strengths (n, 5: x, y, z, [110], [1-10]) and TE's (n,)."""
    f = open_results(path, fail)
    with f:
        names = ["optics/energy", "optics/oscillator_strength", "optics/te"]
        require(f, path, names, "run tbpeta with -optics and -output", fail)
        e, osc, te = (f[n][()] for n in names)
    if osc.shape != (len(e), 5) or te.shape != e.shape:
        fail(
            f"{path}: optics/oscillator_strength {osc.shape} and optics/te {te.shape}, expected ({len(e)}, 5), ({len(e)},)"
        )
    return e, osc, np.where(e > 0, te / np.where(e > 0, e, 1), 0.0)


def broadened(e, f, grid, sigma):
    g = np.exp(-0.5 * ((grid[:, None] - e[None, :]) / sigma) ** 2) / (sigma * math.sqrt(2 * math.pi))
    return g @ f


def width(text):
    try:
        v = float(text)
    except ValueError:
        v = float("nan")
    if not (math.isfinite(v) and v > 0):
        raise ValueError
    return v


def main():
    p = Parser(prog=PROG, description=__doc__.split("\n")[0])
    p.add_argument("file")
    p.add_argument("--broadening", type=width, default=10.0, help="Gaussian standard deviation (meV, > 0)")
    p.add_argument("--prefix")
    p.add_argument("--title", default="")
    a = p.parse_args()
    e, osc, te = read(a.file)
    if len(e) == 0:
        fail(f"{a.file}: optics/ holds no transition")
    prefix = a.prefix or (a.file[:-3] if a.file.endswith(".h5") else a.file)
    out = prefix + "_optics.png"
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        fail(f"--prefix {prefix}: no such directory")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sigma = a.broadening * 1e-3
    grid = np.linspace(e.min() - 5 * sigma, e.max() + 5 * sigma, 800)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharex=True)
    series = [
        (axes[0], "TE", te, "tab:blue"),
        (axes[0], "TM", osc[:, 2], "tab:red"),
        (axes[1], "[110]", osc[:, 3], "tab:green"),
        (axes[1], "[1-10]", osc[:, 4], "tab:purple"),
    ]
    for ax, label, f, colour in series:
        ax.vlines(e, 0, f, colors=colour, alpha=0.5)
        ax.plot(grid, broadened(e, f, grid, sigma) * sigma * math.sqrt(2 * math.pi), color=colour, label=label)
    for ax in axes:
        ax.set_xlabel("transition energy (eV)")
        ax.set_ylabel("oscillator strength (sticks; broadened, peak-normalised)")
        ax.legend()
    fig.suptitle(a.title or f"{os.path.basename(a.file)}: {len(e)} transitions, {a.broadening:g} meV broadening")
    fig.tight_layout()
    save_png(fig, out)
    print(f"wrote {out} (strongest f = {osc[:, :3].sum(axis=1).max():.3g})")


if __name__ == "__main__":
    main()
