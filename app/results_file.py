"""Opening a tbpeta -output file for the plot scripts, and their one-line errors."""
import argparse
import math
import os
import sys
import tempfile


def one_line_errors(prog):
    """(fail, Parser): fail(message) prints `prog: error: message` on stderr and exits 2; Parser is an argparse parser
    whose own errors end the same way (one line, no usage block)."""

    def fail(message):
        print(f"{prog}: error: {message}", file=sys.stderr)
        sys.exit(2)

    class Parser(argparse.ArgumentParser):
        def error(self, message):
            fail(f"{message} (see --help)")

    return fail, Parser


def open_results(path, fail):
    """The open h5py.File of `path`, or fail(message) for a missing h5py, a missing file or one that is not HDF5."""
    try:
        import h5py
    except ImportError:
        fail("h5py is not installed (Debian: python3-h5py)")
    if not os.path.isfile(path):
        fail(f"{path}: no such file")
    try:
        return h5py.File(path, "r")
    except OSError as e:
        fail(f"{path}: cannot be read as HDF5 ({str(e).splitlines()[0]})")


def require(f, path, names, hint, fail):
    """fail(message) unless every dataset of `names` is in the open file f; hint: what makes them appear."""
    missing = [n for n in names if n not in f]
    if missing:
        fail(f"{path}: no {missing[0]}: {hint}")


def finite_arg(what, unit):
    """argparse type: a finite number (`what`, in `unit`)."""

    def parse(text):
        try:
            v = float(text)
        except ValueError:
            v = float("nan")
        if not math.isfinite(v):
            raise argparse.ArgumentTypeError(f"invalid {what} {text!r}: expected a finite number of {unit}")
        return v

    return parse


length_arg = finite_arg("length", "nm")


def nearest_plane(coords, want):
    """The value among coords (rounded to 1e-4 nm: an atomic plane) nearest to want."""
    import numpy as np

    planes = np.unique(np.round(coords, 4))
    return planes[np.argmin(np.abs(planes - want))]


def save_png(fig, out, dpi=90):
    """Writes fig to out beside it under a temporary name and renames it: no half-written PNG on an error."""
    fd, tmp = tempfile.mkstemp(suffix=".png", dir=os.path.dirname(os.path.abspath(out)))
    os.close(fd)
    try:
        fig.savefig(tmp, dpi=dpi)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp's file is private; the plot is not
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
