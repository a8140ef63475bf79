#!/usr/bin/python3
"""Plot the states in a tbpeta -output file (FILE.h5) to two PNGs:
  PREFIX_levels.png         the levels as horizontal lines: valence (below the file's gap_center) blue, conduction
                            red; degenerate levels labelled with their multiplicity (x2, x4, ...); --state marked;
  PREFIX_stateI_AXIS.png    state I's density |psi|^2 per atom on one plane (of lattice sites: a relaxed atom is drawn
                            at its site): the atoms within half a plane spacing of
                            AXIS = SLICE (default: the plane through the density maximum), coloured by density.
PREFIX is FILE without .h5 unless --prefix is given. Errors: one line on stderr, exit code 2, no PNG written.
  /usr/bin/python3 plot_states.py FILE.h5 [--state I] [--axis x|y|z] [--slice NM] [--prefix P] [--levels-only]
"""
import argparse
import os
import tempfile

import numpy as np

from results_file import one_line_errors, open_results

PROG = "plot_states.py"
plt = None  # matplotlib.pyplot, imported once the input is checked (it takes seconds): errors come at once


def import_pyplot():
    global plt
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot

    plt = matplotlib.pyplot


fail, _ = one_line_errors(PROG)


def read(path, state, want_density):
    """Eigenvalues, gap centre (or None), solver name and, with want_density, the positions and state's density."""
    f = open_results(path, fail)
    with f:
        if "eigenvalues" not in f or "structure/positions" not in f:
            fail(f"{path}: not a tbpeta -output file (no eigenvalues or structure/positions)")
        energies = f["eigenvalues"][()]
        gap = float(f.attrs["gap_center"]) if "gap_center" in f.attrs else None
        solver = str(f.attrs.get("solver", ""))
        if not want_density:
            return energies, gap, solver, None, None
        if "states/density" not in f:
            fail(f"{path}: no states/density (the run wrote no eigenvectors); --levels-only plots the levels alone")
        n = f["states/density"].shape[0]
        if not 0 <= state < n:
            fail(f"--state {state} is out of range: {path} has states 0..{n - 1}")
        positions = f["structure/positions"][()]
        if "strain/displacement" in f:  # relaxed atoms: slice by their lattice sites, so a plane stays a plane
            positions = positions - f["strain/displacement"][()]
        return energies, gap, solver, positions, f["states/density"][state]


def degenerate_groups(energies, tol):
    """[(mean energy, indices)] of runs of sorted levels no more than tol apart."""
    groups = []
    for i in np.argsort(energies, kind="stable"):
        if groups and energies[i] - energies[groups[-1][-1]] <= tol:
            groups[-1].append(i)
        else:
            groups.append([i])
    return [(float(np.mean(energies[g])), g) for g in groups]


def levels_figure(energies, gap, tol, marked, title):
    fig, ax = plt.subplots(figsize=(4.5, 6), dpi=120)
    colours = {"valence": "tab:blue", "conduction": "tab:red", None: "0.25"}
    kinds, labels = set(), []
    for e, members in degenerate_groups(energies, tol):
        kind = None if gap is None else ("valence" if e < gap else "conduction")
        kinds.add(kind)
        mark = marked is not None and marked in members
        ax.hlines(e, 0.1, 0.8, color=colours[kind], lw=3.0 if mark else 1.4)
        text = (f"\u00d7{len(members)}" if len(members) > 1 else "") + (f"  state {marked}" if mark else "")
        if text:
            labels.append((e, text.strip(), colours[kind]))
    span = max(float(np.ptp(energies)), 1e-3) if len(energies) else 1.0
    # Labels of close levels are moved up until they are a readable distance apart, with a line to their level.
    y = -np.inf
    for e, text, colour in labels:
        y = max(e, y + 0.028 * span)
        ax.annotate(
            text,
            xy=(0.8, e),
            xytext=(0.86, y),
            va="center",
            fontsize=8,
            color=colour,
            arrowprops=dict(arrowstyle="-", lw=0.5, color=colour, shrinkA=0, shrinkB=1),
        )
    if gap is not None:
        ax.axhline(gap, color="0.5", lw=0.8, ls="--")  # outside the axes when every level is on one side
        for kind in ("valence", "conduction"):
            if kind in kinds:
                ax.plot([], [], color=colours[kind], label=kind)
        ax.plot([], [], color="0.5", ls="--", lw=0.8, label=f"gap centre {gap:.3f} eV")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=3, fontsize=7, frameon=False, handlelength=1.5)
    if len(energies):
        top = max(float(np.max(energies)), y)
        ax.set_ylim(float(np.min(energies)) - 0.06 * span, top + 0.06 * span)
    ax.set_xlim(0, 1.2)
    ax.set_xticks([])
    ax.set_ylabel("E (eV)")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    return fig


def plane_selection(positions, density, axis, where):
    """(plane coordinate, half spacing, mask of the atoms on it); fails when no atom is within half a spacing."""
    c = positions[:, "xyz".index(axis)]
    planes = np.unique(np.round(c, 6))  # positions are exact lattice sites up to rounding
    half = 0.5 * float(np.min(np.diff(planes))) if len(planes) > 1 else 0.0
    if where is None:
        where = float(c[np.argmax(density)])
    mask = np.abs(c - where) <= half + 1e-9
    if not mask.any():
        fail(
            f"--slice {where:g}: no atom within {half:.4g} nm of {axis} = {where:g} nm (atoms span {c.min():.4g}..{c.max():.4g} nm)"
        )
    return where, half, mask


def slice_figure(positions, density, axis, where, half, mask, title):
    u, v = [b for b in range(3) if b != "xyz".index(axis)]
    rho = density[mask]
    order = np.argsort(rho, kind="stable")  # the largest densities drawn last, on top
    fig, ax = plt.subplots(figsize=(6, 5.2), dpi=120)
    size = float(np.clip(6000.0 / len(rho), 6, 120))
    sc = ax.scatter(
        positions[mask, u][order], positions[mask, v][order], c=rho[order], s=size, cmap="viridis", edgecolors="none"
    )
    fig.colorbar(sc, ax=ax, label="|\u03c8|\u00b2 on the atom")
    ax.set_aspect("equal")
    ax.set_xlabel(f"{'xyz'[u]} (nm)")
    ax.set_ylabel(f"{'xyz'[v]} (nm)")
    ax.set_title(
        f"{title}\n{axis} = {where:.3f} nm (\u00b1{half:.3f}): {mask.sum()} atoms, {rho.sum():.3f} of the state",
        fontsize=9,
    )
    fig.tight_layout()
    return fig


def save(fig, path):
    """Writes the PNG under a temporary name beside path and renames it: never a partial PNG."""
    fd, tmp = tempfile.mkstemp(prefix=os.path.basename(path) + ".tmp-", dir=os.path.dirname(os.path.abspath(path)))
    os.close(fd)
    try:
        fig.savefig(tmp, format="png")
        os.replace(tmp, path)
    finally:
        plt.close(fig)
        if os.path.exists(tmp):
            os.unlink(tmp)
    print(f"wrote {path}")


def main():
    ap = argparse.ArgumentParser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="tbpeta -output file (.h5)")
    ap.add_argument("--state", type=int, default=0, help="state whose density is plotted (0 = lowest level; default 0)")
    ap.add_argument("--axis", choices="xyz", default="z", help="axis normal to the slice (default z)")
    ap.add_argument(
        "--slice", type=float, help="slice position along --axis in nm (default: through the density maximum)"
    )
    ap.add_argument("--prefix", help="output name prefix (default: FILE without .h5)")
    ap.add_argument(
        "--tol", type=float, default=1e-5, help="levels closer than this (eV) count as degenerate (default 1e-5)"
    )
    ap.add_argument("--levels-only", action="store_true", help="only the level diagram (works without states/density)")
    a = ap.parse_args()

    energies, gap, solver, positions, density = read(a.file, a.state, not a.levels_only)
    if not a.levels_only:
        if not len(density):
            fail(f"{a.file}: the structure has no atoms")
        where, half, mask = plane_selection(positions, density, a.axis, a.slice)
    import_pyplot()
    prefix = a.prefix if a.prefix else (a.file[:-3] if a.file.endswith(".h5") else a.file)
    name = os.path.basename(a.file)
    figures = [
        (
            levels_figure(
                energies, gap, a.tol, None if a.levels_only else a.state, f"{name}: {len(energies)} states\n{solver}"
            ),
            f"{prefix}_levels.png",
        )
    ]
    if not a.levels_only:
        title = f"{name}: state {a.state}, E = {energies[a.state]:.4f} eV"
        figures.append(
            (
                slice_figure(positions, density, a.axis, where, half, mask, title),
                f"{prefix}_state{a.state}_{a.axis}.png",
            )
        )
    for fig, path in figures:
        try:
            save(fig, path)
        except OSError as e:
            fail(f"cannot write {path}: {e.strerror or e}")


if __name__ == "__main__":
    main()
