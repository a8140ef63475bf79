#!/usr/bin/python3
"""Plot the potential on the atoms of a tbpeta -piezo or -efield -output file (FILE.h5; fields/potential, V) to
  PREFIX_potential.png    three panels of atoms coloured by phi on a diverging map symmetric about 0: the xy planes
                          just below the dot (under its wetting layer) and just above it, and the xz plane through
                          its centre; the [110] and [1-10] diagonals are drawn through the centre of the xy panels.
The dot is the atoms of materials other than the host (the file's first material); the planes are the atomic planes
(unrelaxed positions) nearest to --below (default: 0.5 nm under the dot's lowest atom), --above (0.5 nm over its
highest) and --y (a quarter of the box's width off the dot's centre: the xz plane through the centre is a nodal plane of the
first-order potential, which goes as xyz about a symmetric dot). PREFIX is FILE without .h5 unless --prefix is given. Errors: one line on stderr,
exit code 2, no PNG written.
  /usr/bin/python3 plot_fields.py FILE.h5 [--below Z] [--above Z] [--y Y] [--prefix P] [--title T]
"""
import os

import numpy as np

from results_file import length_arg, nearest_plane, one_line_errors, open_results, require, save_png

PROG = "plot_fields.py"

fail, Parser = one_line_errors(PROG)


def read(path):
    """Unrelaxed positions (N,3), potential (N,) V, whether each atom is the dot's, and the run's field labels."""
    f = open_results(path, fail)
    with f:
        require(f, path, ["structure/positions", "structure/material"], "not a tbpeta -output file", fail)
        require(f, path, ["fields/potential"], "run tbpeta with -piezo first|second or -efield", fail)
        pos = f["structure/positions"][()]
        if "strain/displacement" in f:
            pos = pos - f["strain/displacement"][()]
        phi = f["fields/potential"][()]
        dot = f["structure/material"][()] != 0
        label = f"piezo {f['fields'].attrs.get('piezo', '?')}, field {f.attrs.get('efield', '?')}"
    if len(phi) != len(pos):
        fail(f"{path}: fields/potential has {len(phi)} atoms, the structure {len(pos)}")
    return pos, phi, dot, label.replace("b'", "").replace("'", "")


def main():
    p = Parser(prog=PROG, description=__doc__.split("\n")[0])
    p.add_argument("file")
    p.add_argument("--below", type=length_arg, help="z of the plane under the dot (nm)")
    p.add_argument("--above", type=length_arg, help="z of the plane over the dot (nm)")
    p.add_argument("--y", type=length_arg, help="y of the xz plane (nm)")
    p.add_argument("--prefix")
    p.add_argument("--title", default="")
    a = p.parse_args()
    pos, phi, dot, label = read(a.file)
    if not dot.any():
        fail(f"{a.file}: no atom of a dot (every atom is the host's): give --below, --above and --y")
    centre = pos[dot].mean(axis=0)
    zb = nearest_plane(pos[:, 2], a.below if a.below is not None else pos[dot, 2].min() - 0.5)
    za = nearest_plane(pos[:, 2], a.above if a.above is not None else pos[dot, 2].max() + 0.5)
    y = nearest_plane(pos[:, 1], a.y if a.y is not None else centre[1] + 0.25 * np.ptp(pos[:, 1]))
    prefix = a.prefix or (a.file[:-3] if a.file.endswith(".h5") else a.file)
    out = prefix + "_potential.png"
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        fail(f"{out}: its directory does not exist")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    lim = float(np.abs(phi).max()) or 1.0
    # Squares about as wide as the atoms' spacing in a (001) plane (a/4 projected) on screen.
    size = max(1.0, (72 * 4.2 / max(float(np.ptp(pos[:, 0])), 1e-9) * 0.2) ** 2)
    kw = dict(cmap="RdBu_r", vmin=-1e3 * lim, vmax=1e3 * lim, marker="s", linewidths=0, s=size)
    fig, ax = plt.subplots(1, 3, figsize=(15, 4.6))
    for k, (z, name) in enumerate(((zb, "below"), (za, "above"))):
        on = np.abs(np.round(pos[:, 2], 4) - z) < 1e-3
        ax[k].scatter(pos[on, 0], pos[on, 1], c=1e3 * phi[on], **kw)
        r = 0.5 * min(np.ptp(pos[:, 0]), np.ptp(pos[:, 1]))
        ax[k].plot([centre[0] - r, centre[0] + r], [centre[1] - r, centre[1] + r], "k--", lw=0.8)
        ax[k].plot([centre[0] - r, centre[0] + r], [centre[1] + r, centre[1] - r], "k:", lw=0.8)
        ax[k].set(
            xlabel="x (nm)",
            ylabel="y (nm)",
            aspect="equal",
            title=f"xy plane {name} the dot, z = {z:.3f} nm\n(dashed [110], dotted [1-10])",
        )
    on = np.abs(np.round(pos[:, 1], 4) - y) < 1e-3
    s = ax[2].scatter(pos[on, 0], pos[on, 2], c=1e3 * phi[on], **kw)
    ax[2].set(xlabel="x (nm)", ylabel="z (nm)", aspect="equal", title=f"xz plane at y = {y:.3f} nm")
    fig.colorbar(s, ax=ax, label="potential (mV)", shrink=0.8)
    fig.suptitle(a.title or label)
    save_png(fig, out)
    print(f"wrote {out} (|phi| up to {1e3 * lim:.2f} mV)")


if __name__ == "__main__":
    main()
