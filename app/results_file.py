"""Opening a tbpeta -output file for the plot scripts, and their one-line errors."""
import argparse
import os
import sys


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
