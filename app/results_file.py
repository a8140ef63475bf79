"""Opening a tbpeta -output file for the plot scripts: one-line errors through the caller's `fail`."""
import os


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
