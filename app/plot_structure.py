#!/usr/bin/python3
"""Draw the composition (or the material) of a tbpeta -output file (FILE.h5, e.g. from -solve false) in two cuts:
  PREFIX_structure.png    left: the xz plane through the dots' centres (the cations of one atomic plane y = Y);
                          right: the xy plane through a dot (the cations of one atomic plane z = Z).
Each cation is a square coloured by the local fraction x of the regions' materials that its species was drawn with
(composition/x: 1 in a pure InAs dot, graded or interdiffused values in between); a file without composition/ (no
region) is coloured by material. Y defaults to the y of the first region's cations' centre, Z to a plane a third of the
way up through the first region; --y and --z (nm) choose others. The plane drawn is the atomic plane nearest to the
value asked for (one plane of cations every a/2 = 0.28 nm in GaAs).
PREFIX is FILE without .h5 unless --prefix is given. Errors: one line on stderr, exit code 2, no PNG written.
  /usr/bin/python3 plot_structure.py FILE.h5 [--y NM] [--z NM] [--prefix P] [--title TEXT]
"""
import os

import numpy as np

from results_file import length_arg, nearest_plane, one_line_errors, open_results, save_png

PROG = "plot_structure.py"


fail, Parser = one_line_errors(PROG)


def read(path):
    """Cation positions (N,3, unrelaxed when the file has displacements), their colour value and the colour label."""
    f = open_results(path, fail)
    if "structure" not in f or "positions" not in f["structure"]:
        fail(f"{path}: no structure/positions (not a tbpeta -output file)")
    pos = f["structure/positions"][:]
    if "strain" in f and "displacement" in f["strain"]:
        pos = pos - f["strain/displacement"][:]
    species = f["structure/species"][:]
    names = f["structure/species"].attrs["names"]
    names = (names.decode() if isinstance(names, bytes) else names).split(",")
    cation = species != 0  # species 0 is the anion
    if "composition" in f:
        value, label = f["composition/x"][:], "x (fraction of the regions' materials)"
        region = f["composition/region"][:]
    else:
        value, label, region = f["structure/material"][:].astype(float), "material index", None
    if not cation.any():
        fail(f"{path}: no cation in the file")
    return pos[cation], value[cation], label, None if region is None else region[cation], names


def main():
    p = Parser(prog=PROG, description=__doc__.split("\n")[0])
    p.add_argument("file")
    p.add_argument("--y", type=length_arg, help="y of the xz cut (nm)")
    p.add_argument("--z", type=length_arg, help="z of the xy cut (nm)")
    p.add_argument("--prefix")
    p.add_argument("--title", default="")
    a = p.parse_args()
    pos, value, label, region, _ = read(a.file)
    in_region = region >= 0 if region is not None else value > 0
    if not in_region.any():
        fail(f"{a.file}: no cation lies in a region (nothing to centre the cuts on: give --y and --z)")
    centre = pos[in_region].mean(axis=0)
    zr = pos[in_region & (region == region[in_region].min()) if region is not None else in_region][:, 2]
    y = nearest_plane(pos[:, 1], a.y if a.y is not None else centre[1])
    z = nearest_plane(pos[:, 2], a.z if a.z is not None else zr.min() + (zr.max() - zr.min()) / 3)
    prefix = a.prefix or (a.file[:-3] if a.file.endswith(".h5") else a.file)
    out = prefix + "_structure.png"
    if not os.path.isdir(os.path.dirname(os.path.abspath(out))):
        fail(f"{out}: its directory does not exist")

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xz = np.abs(np.round(pos[:, 1], 4) - y) < 1e-3
    xy = np.abs(np.round(pos[:, 2], 4) - z) < 1e-3
    fig, ax = plt.subplots(1, 2, figsize=(11, 4.2), gridspec_kw={"width_ratios": [1.6, 1]})
    kw = dict(c=None, cmap="viridis", vmin=0, vmax=max(1.0, float(value.max())), marker="s", linewidths=0)
    # Squares about as wide as the cations' spacing in a (001) or (010) plane (a/2 = 0.28 nm in GaAs) on screen.
    width_pt = 72 * 11 * 0.5
    size = lambda extent: max(1.0, (width_pt / max(extent, 1e-9) * 0.22) ** 2)
    extent_x = float(np.ptp(pos[:, 0])) + 0.5
    s0 = ax[0].scatter(pos[xz, 0], pos[xz, 2], s=size(extent_x), **{**kw, "c": value[xz]})
    ax[0].set(xlabel="x (nm)", ylabel="z (nm)", title=f"xz plane at y = {y:.3f} nm", aspect="equal")
    ax[1].scatter(pos[xy, 0], pos[xy, 1], s=size(extent_x) * 0.4, **{**kw, "c": value[xy]})
    ax[1].set(xlabel="x (nm)", ylabel="y (nm)", title=f"xy plane at z = {z:.3f} nm", aspect="equal")
    fig.colorbar(s0, ax=ax, label=label, shrink=0.8)
    if a.title:
        fig.suptitle(a.title)
    save_png(fig, out)
    print(f"wrote {out} ({int(xz.sum())} cations in the xz cut, {int(xy.sum())} in the xy cut)")


if __name__ == "__main__":
    main()
