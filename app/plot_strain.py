#!/usr/bin/python3
"""Plot the strain along a straight line through the dot in a tbpeta -strain keating -output file (FILE.h5) to
  PREFIX_strain_AXIS.png    exx, eyy, ezz, hydrostatic (exx+eyy+ezz) and biaxial (ezz-(exx+eyy)/2) of the atoms on a
                            line parallel to AXIS, against their (relaxed) coordinate along AXIS; the dot's atoms
                            (material other than the file's first, the host) have filled markers and a shaded range.
The line passes through --center (nm; its AXIS component is ignored), else the run's -dot_center if it gave one, else
the centre of the unrelaxed atoms' bounding box. It is then moved onto the nearest atomic column of the unrelaxed
lattice (ties: the one with most dot atoms), and the atoms whose unrelaxed positions are within --width nm of that
column are taken. In zincblende, neighbouring [001] columns are a*sqrt(2)/4 = 0.200 nm apart (a = 0.5653 nm) and the box
centre is 0.100 nm from the nearest ones: the default width a/4 = 0.14 nm reaches a column and takes exactly one.
Atoms with fewer than three bonds (edges of free surfaces) have zero strain in the file (docs/strain.md).
PREFIX is FILE without .h5 unless --prefix is given; --csv also writes the plotted columns. Errors: one line on stderr,
exit code 2, no PNG or CSV written.
  /usr/bin/python3 plot_strain.py FILE.h5 [--axis x|y|z] [--center X,Y,Z] [--width NM] [--prefix P] [--csv FILE]
"""
import argparse
import math
import os
import tempfile

import numpy as np

from results_file import one_line_errors, open_results

PROG = "plot_strain.py"
COLUMNS = ("exx", "eyy", "ezz", "hydrostatic", "biaxial")


fail, Parser = one_line_errors(PROG)


def width_arg(text):
    try:
        w = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid width {text!r}: expected a distance in nm") from None
    if not (math.isfinite(w) and w > 0):
        raise argparse.ArgumentTypeError(f"invalid width {text!r}: must be a positive number of nm")
    return w


def center_arg(text):
    try:
        c = [float(s) for s in text.split(",")]
    except ValueError:
        c = []
    if len(c) != 3 or not all(math.isfinite(v) for v in c):
        raise argparse.ArgumentTypeError(f"invalid centre {text!r}: expected x,y,z in nm, e.g. 1.7,1.7,1.7")
    return np.array(c)


def text(value):
    return value.decode() if isinstance(value, bytes) else str(value)


def read(path):
    """Dict of the positions (relaxed and unrelaxed), material index and name, COLUMNS (N,5) and metadata."""
    f = open_results(path, fail)
    with f:
        if "structure/positions" not in f or "structure/material" not in f:
            fail(f"{path}: not a tbpeta -output file (no structure/positions or structure/material)")
        if "strain" not in f:
            fail(f"{path}: no strain group: run tbpeta with -strain keating")
        missing = [d for d in ("tensor", "hydrostatic", "biaxial", "displacement") if d not in f["strain"]]
        if missing:
            fail(f"{path}: the strain group has no {', '.join(missing)}: run tbpeta with -strain keating")
        s, material = f["strain"], f["structure/material"]
        names = [n.strip() for n in text(material.attrs.get("names", "")).split(",")]
        try:
            d = dict(
                positions=f["structure/positions"][()],
                material=material[()],
                options=text(f.attrs.get("options", "")).split(),
                values=np.column_stack([s["tensor"][:, :3], s["hydrostatic"][()], s["biaxial"][()]]),
                model=text(s.attrs.get("model", "")),
                converged=bool(s.attrs.get("converged", 1)),
            )
            d["ideal"] = d["positions"] - s["displacement"][()]
            if d["ideal"].shape != (len(d["material"]), 3) or len(d["values"]) != len(d["material"]):
                raise ValueError("datasets of different lengths")
        except (OSError, ValueError, IndexError) as e:
            fail(f"{path}: damaged structure or strain datasets ({str(e).splitlines()[0]})")
        d["name"] = [names[m] if 0 <= m < len(names) and names[m] else str(m) for m in d["material"]]
    if not len(d["positions"]):
        fail(f"{path}: the structure has no atoms")
    return d


def line_selection(d, axis, center, width):
    """(column point (u, v), where the centre came from, sorted indices of the atoms on the line)."""
    k = "xyz".index(axis)
    u, v = [b for b in range(3) if b != k]
    ideal, dot = d["ideal"], d["material"] != 0
    source = "--center"
    if center is None and "-dot_center" in d["options"][:-1]:
        source = "the run's -dot_center"
        try:
            center = center_arg(d["options"][d["options"].index("-dot_center") + 1])
        except argparse.ArgumentTypeError:
            center = None  # not x,y,z: the box centre
    if center is None:
        source = "the box centre"
        center = 0.5 * (ideal.min(axis=0) + ideal.max(axis=0))
    dist = np.hypot(ideal[:, u] - center[u], ideal[:, v] - center[v])
    nearest = np.flatnonzero(dist <= dist.min() + 1e-6)
    if dist.min() > width:
        fail(
            f"no atom within --width {width:g} nm of the {axis} line through {'xyz'[u]} = {center[u]:g}, "
            f"{'xyz'[v]} = {center[v]:g} nm (the nearest is {dist.min():.3g} nm away): use a larger --width"
        )
    columns = [np.flatnonzero(np.hypot(ideal[:, u] - ideal[i, u], ideal[:, v] - ideal[i, v]) <= width) for i in nearest]
    best = max(range(len(nearest)), key=lambda n: np.count_nonzero(dot[columns[n]]))  # ties: the most dot atoms
    on = columns[best]
    return ideal[nearest[best], [u, v]], source, on[np.argsort(d["positions"][on, k], kind="stable")]


def figure(d, axis, col, source, atoms, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k = "xyz".index(axis)
    c = d["positions"][atoms, k]
    dot = d["material"][atoms] != 0
    fig, ax = plt.subplots(figsize=(7, 4.6), dpi=120)
    # Each dot atom's stretch of the line, half way to its neighbours, is shaded.
    half = 0.5 * float(np.median(np.diff(c))) if len(c) > 1 else 0.1
    edges = np.concatenate([[c[0] - half], 0.5 * (c[1:] + c[:-1]), [c[-1] + half]])
    label = f"dot ({', '.join(sorted({d['name'][i] for i in atoms[dot]}))})"
    for n, i in enumerate(np.flatnonzero(dot)):
        ax.axvspan(edges[i], edges[i + 1], color="tab:orange", alpha=0.12, lw=0, label=None if n else label)
    shown = dict(hydrostatic="hydrostatic exx+eyy+ezz", biaxial="biaxial ezz-(exx+eyy)/2")
    for n, (name, marker) in enumerate(zip(COLUMNS, "os^Dv")):
        y, ms, ls = d["values"][atoms, n], 8 if n == 0 else 5, "--" if n == 1 else "-"  # exx = eyy is common
        (line,) = ax.plot(c, y, marker=marker, ms=ms, ls=ls, mfc="white", lw=1.2, label=shown.get(name, name))
        ax.plot(c[dot], y[dot], ls="none", marker=marker, ms=ms, color=line.get_color())
    ax.axhline(0, color="0.5", lw=0.6)
    ax.set_xlabel(f"{axis} (nm)")
    ax.set_ylabel("strain")
    ax.legend(fontsize=7, loc="best")
    u, v = [b for b in "xyz" if b != axis]
    where = f"{len(atoms)} atoms on the {axis} line through {u} = {col[0]:.3f}, {v} = {col[1]:.3f} nm"
    where += f" (atom column nearest {source}); " + ("filled: dot" if dot.any() else "no dot atom on it")
    ax.set_title(f"{title}\n{where}", fontsize=8)
    fig.tight_layout()
    return plt, fig


def csv_text(d, axis, atoms):
    k = "xyz".index(axis)
    rows = [f"{axis}_nm,{','.join(COLUMNS)},material"]
    for i in atoms:
        rows.append(f"{d['positions'][i, k]:.6f}," + ",".join(f"{x:.8g}" for x in d["values"][i]) + f",{d['name'][i]}")
    return "\n".join(rows) + "\n"


def main():
    ap = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("file", help="tbpeta -strain keating -output file (.h5)")
    ap.add_argument("--axis", choices="xyz", default="z", help="direction of the line (default z, the growth axis)")
    ap.add_argument(
        "--center",
        type=center_arg,
        metavar="X,Y,Z",
        help="a point of the line in nm (default: the run's -dot_center, else the box centre)",
    )
    ap.add_argument(
        "--width",
        type=width_arg,
        default=0.14,
        metavar="NM",
        help="atoms within this distance of the line's atom column are taken (default 0.14 = a/4)",
    )
    ap.add_argument("--prefix", help="output name prefix (default: FILE without .h5)")
    ap.add_argument("--csv", metavar="FILE", help="also write the plotted columns to this CSV file")
    a = ap.parse_args()

    d = read(a.file)
    col, source, atoms = line_selection(d, a.axis, a.center, a.width)
    prefix = a.prefix if a.prefix else (a.file[:-3] if a.file.endswith(".h5") else a.file)
    png = f"{prefix}_strain_{a.axis}.png"
    if a.csv and os.path.abspath(a.csv) == os.path.abspath(png):
        fail(f"--csv {a.csv} is the PNG's name")
    title = f"{os.path.basename(a.file)}: strain ({d['model'] or 'model not recorded'}"
    title += ")" if d["converged"] else ", NOT converged)"
    plt, fig = figure(d, a.axis, col, source, atoms, title)
    # Both outputs are written under temporary names beside them and then renamed: never a partial file.
    temps = {}
    try:
        for path in [png] + ([a.csv] if a.csv else []):
            try:
                fd, temps[path] = tempfile.mkstemp(
                    prefix=os.path.basename(path) + ".tmp-", dir=os.path.dirname(os.path.abspath(path))
                )
                os.close(fd)
                if path == png:
                    fig.savefig(temps[path], format="png")
                else:
                    with open(temps[path], "w") as out:
                        out.write(csv_text(d, a.axis, atoms))
            except OSError as e:
                fail(f"cannot write {path}: {e.strerror or e}")
        for path, tmp in temps.items():
            os.replace(tmp, path)
            print(f"wrote {path}")
    finally:
        plt.close(fig)
        for tmp in temps.values():
            if os.path.exists(tmp):
                os.unlink(tmp)


if __name__ == "__main__":
    main()
