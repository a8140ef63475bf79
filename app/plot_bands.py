#!/usr/bin/python3
"""Plot the band structure written by tbpeta-bands (CSV: k_distance_2pi_over_a,kx,ky,kz,label,band_0,...; energies in
eV relative to the valence-band maximum) to a PNG, with the path's high-symmetry points on the x axis and the gap
annotated. Run by tbpeta-bands; usable by hand:
  /usr/bin/python3 plot_bands.py --csv bands.csv --png bands.png [--emin -13 --emax 6 --title T
                                 --gap Eg --cbm-distance d --cbm-energy E --gap-kind direct|indirect]
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

GREEK = {"G": "\u0393"}


def read_bands(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    if header[:5] != ["k_distance_2pi_over_a", "kx", "ky", "kz", "label"]:
        raise SystemExit(f"{path}: not a tbpeta-bands CSV (header {header[:5]})")
    dist = np.array([float(r[0]) for r in rows])
    labels = [r[4] for r in rows]
    cols = [i for i, name in enumerate(header) if name.startswith("band_")]  # -kane adds momentum columns
    bands = np.array([[float(r[i]) for i in cols] for r in rows])
    return dist, labels, bands


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--csv", required=True)
    ap.add_argument("--png", required=True)
    ap.add_argument("--emin", type=float, default=-13.0)
    ap.add_argument("--emax", type=float, default=6.0)
    ap.add_argument("--title", default="")
    ap.add_argument("--gap", type=float)
    ap.add_argument("--cbm-distance", type=float)
    ap.add_argument("--cbm-energy", type=float)
    ap.add_argument("--gap-kind", default="")
    a = ap.parse_args()

    dist, labels, bands = read_bands(a.csv)
    fig, ax = plt.subplots(figsize=(7, 6), dpi=120)
    for b in range(bands.shape[1]):
        ax.plot(dist, bands[:, b], color="tab:blue", lw=1.0)

    ticks = [(d, l) for d, l in zip(dist, labels) if l]
    for d, _ in ticks:
        ax.axvline(d, color="0.6", lw=0.6)
    ax.set_xticks([d for d, _ in ticks])
    ax.set_xticklabels([GREEK.get(l, l) for _, l in ticks], fontsize=12)
    ax.axhline(0.0, color="0.4", lw=0.6, ls="--")
    ax.set_xlim(dist[0], dist[-1])
    ax.set_ylim(a.emin, a.emax)
    ax.set_ylabel("E - E$_{VBM}$ (eV)")
    ax.set_title(a.title)

    if a.gap is not None and a.cbm_distance is not None:
        e_cbm = a.cbm_energy if a.cbm_energy is not None else a.gap
        gammas = [d for d, l in ticks if l == "G"]
        x_vbm = min(gammas, key=lambda d: abs(d - a.cbm_distance)) if gammas else a.cbm_distance
        ax.plot([x_vbm], [0.0], "o", color="tab:red", ms=5)
        ax.plot([a.cbm_distance], [e_cbm], "o", color="tab:red", ms=5)
        ax.annotate(
            "",
            xy=(a.cbm_distance, e_cbm),
            xytext=(x_vbm, 0.0),
            arrowprops=dict(arrowstyle="->", color="tab:red", lw=1.2),
        )
        kind = f" ({a.gap_kind})" if a.gap_kind else ""
        span = dist[-1] - dist[0]
        text = f"E$_g$ = {a.gap:.3f} eV{kind}"
        box = dict(facecolor="white", edgecolor="none", alpha=0.85, pad=1.5)
        if abs(a.cbm_distance - x_vbm) < 0.05 * span:
            # vertical arrow: the text beside it, half way up
            ax.text(
                x_vbm + 0.02 * span, 0.5 * e_cbm, text, color="tab:red", fontsize=10, va="center", ha="left", bbox=box
            )
        else:
            # slanted arrow: the text under it, starting a third of the way along
            x0 = x_vbm + (a.cbm_distance - x_vbm) / 3
            right = a.cbm_distance > x_vbm
            ax.text(
                x0,
                e_cbm / 3 - 0.08 * (a.emax - a.emin) / 19,
                text,
                color="tab:red",
                fontsize=10,
                va="top",
                ha="left" if right else "right",
                bbox=box,
            )

    fig.tight_layout()
    fig.savefig(a.png, format="png")


if __name__ == "__main__":
    main()
